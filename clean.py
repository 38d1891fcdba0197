#!/usr/bin/env python3
"""Clean web pages: python clean.py --config cleaneval [--format F] [-o DIR] [-j N] FILES..."""

import argparse
import sys

from victor.cli import clean_main
from victor.limits import DEFAULT_TIMEOUT


def main() -> int:
    ap = argparse.ArgumentParser(description="Clean web pages with a trained Victor model.")
    ap.add_argument("files", nargs="+",
                    help="pages, WARC files (.warc, .warc.gz), folders of them, fsspec URLs, "
                         "or - for standard input")
    ap.add_argument("--config", default="cleaneval", help="config name (configs/NAME.yaml) or path")
    ap.add_argument("--model", help="model file (default: the config's shipped model)")
    ap.add_argument("--format", choices=["victor", "cleaneval", "text", "jsonl", "html", "table"],
                    help="output format of pages (default cleaneval); WARC files give jsonl")
    ap.add_argument("-o", "--output",
                    help="folder (or fsspec URL) for one output file a page and one NAME.jsonl "
                         "a WARC file (default: standard output)")
    ap.add_argument("--threshold", type=float,
                    help="keep content blocks only if their content probability is at least this")
    ap.add_argument("--overwrite", action="store_true", help="replace outputs that exist already")
    ap.add_argument("--max-size", type=float, default=50, help="largest page in MB (default 50)")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                    help="seconds a page may take; a slower one is reported and skipped "
                         f"(default {DEFAULT_TIMEOUT:g}; 0: no limit)")
    engine = ap.add_mutually_exclusive_group()
    engine.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                        help="worker processes (default 1; 0: one a core)")
    engine.add_argument("--dask", metavar="ADDRESS",
                        help="run on a Dask cluster: a scheduler address, or local:N for "
                             "N worker processes on this machine")
    ap.add_argument("--debug", action="store_true", help="show tracebacks")
    return clean_main(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())
