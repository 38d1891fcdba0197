"""No page lost: every page of every collection, under every shipped config,
is cleaned (none fails) and none with a gold text of GOLD_WORDS words or
more comes out empty while the page holds that text.

    python3 -m benchmarks.coverage [--config NAME ...] [COLLECTION ...]

The collections default to those in ../shared/data (cleaneval-dev,
dragnet-train, wcxb-dev: html/ and gold/), or the repo's data/ folders
(NAME.html[.gz] with NAME.txt gold beside) when shared/ is not there.
Pages are cleaned the way a batch cleans them (victor.batch.workers.clean_item:
read, time limit, plain text). Prints, per config and collection, the
pages, the failed ones and the empty outputs whose gold has GOLD_WORDS
words or more that the page's own blocks hold too, then each failure and
each such page; exits 1 if there is any. An empty output for a page that
holds fewer of the gold's words (a saved error page whose gold is the
article once served there) is counted apart: there is no text to give.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from benchmarks.common import DATA, collection_pages, gold_words, table
from victor.cleaner import Cleaner
from victor.config import shipped_configs
from victor.batch.inputs import read_input
from victor.batch.timeout import DEFAULT_TIMEOUT
from victor.reading.text import words
from victor.batch.workers import Item, clean_item

ROOT = Path(__file__).resolve().parents[1]
GOLD_WORDS = 5
SHARED = ("cleaneval-dev", "dragnet-train", "wcxb-dev")
REPO = ("cleaneval", "dragnet", "wcxb")
MAX_BYTES = 50_000_000


def default_collections() -> list[Path]:
    if all((DATA / name).is_dir() for name in SHARED):
        return [DATA / name for name in SHARED]
    return [ROOT / "data" / name for name in REPO]


def gold_on_page(cleaner: Cleaner, page: Path, gold: list[str]) -> int:
    """How many of the gold's words (counted as a bag) the page's blocks hold."""
    held = Counter(w.lower() for b in cleaner.read(read_input(str(page)), str(page)).blocks
                   for w in words(b.text))
    return sum((Counter(w.lower() for w in gold) & held).values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("collections", nargs="*", type=Path)
    ap.add_argument("--config", action="append", help="default: every shipped config")
    args = ap.parse_args()
    collections = args.collections or default_collections()
    rows, problems, notes = [], [], []
    for config in args.config or shipped_configs():
        cleaner = Cleaner(config)
        for folder in collections:
            pages = collection_pages(folder)
            failed = empty = absent = 0
            for page, gold in pages:
                text, error = clean_item(cleaner, Item(str(page), "text"), MAX_BYTES,
                                         DEFAULT_TIMEOUT)
                if error is not None:
                    failed += 1
                    problems.append(f"{config}: failed: {page}: {error}")
                elif not text.strip() and gold is not None and len(
                        gold_words(gold).split()) >= GOLD_WORDS:
                    if gold_on_page(cleaner, page, gold_words(gold).split()) < GOLD_WORDS:
                        absent += 1
                        notes.append(f"{config}: empty, the page holds under {GOLD_WORDS} "
                                     f"of the gold's words: {page}")
                        continue
                    empty += 1
                    problems.append(f"{config}: empty, gold has words: {page}")
            rows.append([config, folder.name, len(pages), failed, empty, absent])
            print(f"{config} {folder.name}: {len(pages)} pages, {failed} failed, "
                  f"{empty} empty", file=sys.stderr, flush=True)
    print(table(["config", "collection", "pages", "failed",
                 f"empty, gold >= {GOLD_WORDS} words", "empty, gold not on the page"], rows))
    for line in problems + notes:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
