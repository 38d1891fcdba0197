"""The fallback under decoding (victor.decoding.fallback), measured: on pages the
shipped models were not trained on, how many outputs are empty and how
much of the gold text is kept, without the fallback and with it at several
settings.

    python3 -m benchmarks.fallback [--config NAME] [COLLECTION ...]

A collection is a folder of NAME.html[.gz] with NAME.txt gold beside
(the repo's data/wcxb, the default: neither shipped model saw it) or with
html/ and gold/ folders. Prints per config and setting: pages, pages the
fallback changed, pages with empty output while the gold has 5 words or
more, and the mean over pages of bag-of-words F1 (lowercased \\w+ tokens,
WCXB's page score), over all pages and over those the fallback changed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.common import bag_f1, collection_pages, gold_words, table
from victor.cleaner import Cleaner
from victor.decoding import fallback
from victor.config import shipped_configs
from victor.batch.inputs import read_input
from victor.output import plain_text

ROOT = Path(__file__).resolve().parents[1]
# (share, cap) settings tried beside the config's own fallback-share; None: no fallback.
SETTINGS = [None, (0.0, 0.5), (0.03, 0.5), (0.05, 0.5), (0.1, 0.5), (0.2, 0.5),
            (0.5, 0.5), (1.0, 0.5), (0.3, 0.3)]
GOLD_WORDS = 5


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("collections", nargs="*", default=[str(ROOT / "data/wcxb")])
    ap.add_argument("--config", action="append", help="default: every shipped config")
    args = ap.parse_args()
    pages = [p for c in args.collections for p in collection_pages(c) if p[1] is not None]
    for config in args.config or shipped_configs():
        cleaner = Cleaner(config)
        runs = []  # per page: gold text, block texts, CRF labels, marginals
        for page, gold in pages:
            result = cleaner.clean(read_input(str(page)), str(page))
            runs.append((gold_words(gold), result.texts,
                         cleaner.model.best_labels(result.scores), result.marginals))
        rows = []
        own = (cleaner.config.fallback_share, cleaner.config.fallback_cap)
        for setting in [own] + [s for s in SETTINGS if s != own]:
            scores, changed, empty = [], [], 0
            for gold, texts, labels, marginals in runs:
                fallen = None if setting is None else fallback(labels, marginals, *setting)
                text = plain_text(texts, fallen or labels)
                f1 = bag_f1(text, gold)
                scores.append(f1)
                if fallen is not None:
                    changed.append(f1)
                if not text.strip() and len(gold.split()) >= GOLD_WORDS:
                    empty += 1
            name = "no fallback" if setting is None else f"share {setting[0]}, cap {setting[1]}"
            name += " (the config's)" if setting == own else ""
            rows.append([name, len(runs), len(changed), empty, f"{sum(scores) / len(scores):.4f}",
                         f"{sum(changed) / len(changed):.4f}" if changed else "-"])
        print(f"config {config}, {', '.join(args.collections)}")
        print(table(["setting", "pages", "fallen back", f"empty, gold >= {GOLD_WORDS} words",
                     "mean F1", "mean F1 of fallen back"], rows))
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
