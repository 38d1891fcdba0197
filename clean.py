#!/usr/bin/env python3
"""Clean web pages: python clean.py --config cleaneval [--format F] [-o DIR] FILES..."""

import argparse
import sys

from victor.cli import clean_main


def main() -> int:
    ap = argparse.ArgumentParser(description="Clean web pages with a trained Victor model.")
    ap.add_argument("files", nargs="+", help="pages, folders of pages, or - for standard input")
    ap.add_argument("--config", default="cleaneval", help="config name (configs/NAME.yaml) or path")
    ap.add_argument("--model", help="model file (default: the config's shipped model)")
    ap.add_argument("--format", default="cleaneval",
                    choices=["victor", "cleaneval", "text", "jsonl", "html", "table"])
    ap.add_argument("-o", "--output", help="folder for one output file a page (default: standard output)")
    ap.add_argument("--threshold", type=float,
                    help="keep content blocks only if their content probability is at least this")
    ap.add_argument("--overwrite", action="store_true", help="replace outputs that exist already")
    ap.add_argument("--max-size", type=float, default=50, help="largest page in MB (default 50)")
    ap.add_argument("--debug", action="store_true", help="show tracebacks")
    return clean_main(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())
