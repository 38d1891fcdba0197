"""The bar to beat: how well other cleaners keep the gold text.

For trafilatura, jusText and resiliparse (benchmarks/peers.py, each with
its defaults) on each collection: word precision, recall and F1 by
longest-common-subsequence alignment of the extracted words with the gold
words, and 4-word shingle precision, recall and F1 (victor.evaluate, the
measures Victor is scored with), micro-averaged: counts summed over pages
before dividing. The row "every block" keeps all of Victor's blocks: the
recall a block labeller cannot exceed, and the precision of doing nothing;
the row "victor" (asked for with --tools) is Victor's own output. Score a
model only on pages it was not trained on.

    python3 -m benchmarks.peers_quality            # dragnet-train and cleaneval-dev
    python3 -m benchmarks.peers_quality --data /work/shared/data/cleaneval-dev --per-page scores.tsv
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

from benchmarks.common import CLEANEVAL, DRAGNET, html_dir, page_files, table
from benchmarks.peers import PEERS
from victor.evaluate import PageScore, micro_total, parse_cleaneval, score_page


def every_block(config_name: str) -> Callable[[bytes], str]:
    from victor.config import load_config
    from victor.page import read_page

    config = load_config(config_name)
    return lambda data: "\n".join(b.text for b in read_page(data, config).blocks)


def victor(config_name: str, model: str | None) -> Callable[[bytes], str]:
    from victor.cleaner import Cleaner

    cleaner = Cleaner(config_name, model)
    return lambda data: cleaner.clean(data).text()


def gold_text(html_path: Path) -> str:
    """The gold beside the page: CleanEval's with its URL line and segment
    markers taken out, plain text otherwise."""
    path = html_path.parent.parent / "gold" / (html_path.stem + ".txt")
    content = path.read_text(encoding="utf-8")
    if content.lstrip("\ufeff").startswith("URL:"):
        return parse_cleaneval(content, str(path)).text
    return content


def score_tool(extract: Callable[[bytes], str], paths: list[Path]) -> tuple[list[PageScore], int]:
    """Per-page scores, and how many pages gave no text (a crash counts as
    no text: the page is lost all the same)."""
    scores, empty = [], 0
    for path in paths:
        try:
            text = extract(path.read_bytes())
        except Exception as e:  # a benchmark counts a crash and goes on
            print(f"{path}: {type(e).__name__}: {e}", file=sys.stderr)
            text = ""
        empty += not text.strip()
        scores.append(score_page(path.stem, text, gold_text(path)))
    return scores, empty


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", metavar="DIR",
                    help=f"a collection with html/ and gold/ (repeatable; default {DRAGNET} "
                         f"and {CLEANEVAL})")
    ap.add_argument("--sample", type=int, metavar="N", help="a seeded random N pages of each")
    ap.add_argument("--tools", default=",".join(PEERS) + ",every-block",
                    help="comma-separated, of: " + ", ".join(PEERS) + ", every-block, victor")
    ap.add_argument("--config", default="cleaneval", help="Victor's config")
    ap.add_argument("--model", help="Victor's model (default: the config's)")
    ap.add_argument("--per-page", metavar="TSV", help="also write every page's scores here")
    args = ap.parse_args(argv)
    tools = args.tools.split(",")
    makers: dict[str, Callable[[], Callable[[bytes], str]]] = {
        **PEERS, "every-block": lambda: every_block(args.config),
        "victor": lambda: victor(args.config, args.model)}
    unknown = [t for t in tools if t not in makers]
    if unknown:
        ap.error(f"unknown tools {', '.join(unknown)}")
    rows, per_page = [], []
    for folder in args.data or [str(DRAGNET), str(CLEANEVAL)]:
        paths = page_files([folder], args.sample)
        collection = html_dir(folder).parent.name
        for tool in tools:
            t = time.perf_counter()
            scores, empty = score_tool(makers[tool](), paths)
            print(f"{collection} {tool}: {time.perf_counter() - t:.0f} s", file=sys.stderr)
            total = micro_total(scores)
            w, s = total.words, total.shingles
            rows.append([collection, tool, len(paths), empty, w.precision, w.recall, w.f1,
                         s.precision, s.recall, s.f1])
            per_page.extend((collection, tool, sc) for sc in scores)
    print(table(["collection", "tool", "pages", "no text", "word P", "word R", "word F1",
                 "shingle P", "shingle R", "shingle F1"], rows))
    if args.per_page:
        lines = ["collection\ttool\tpage\tword_p\tword_r\tword_f1\tshingle_f1"]
        lines += [f"{c}\t{t}\t{s.name}\t{s.words.precision:.4f}\t{s.words.recall:.4f}\t"
                  f"{s.words.f1:.4f}\t{s.shingles.f1:.4f}" for c, t, s in per_page]
        Path(args.per_page).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
