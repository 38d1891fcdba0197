"""Where WCXB's page types lose, on a held-out draw saved by research.held_out:
bag-of-words precision, recall and F1 by page type (the mean over pages), and,
for one type, the pages that lose most with the blocks behind it.

    python3 -m research.losses RUNS/seed0.pkl                  # the table by page type
    python3 -m research.losses RUNS/seed0.pkl --type product --pages 10

A kept block counts as extra where less than half its words are still
unmatched in the gold's bag; a dropped block as missed where more than 0.8
of its words (two or more) are in the gold's bag. Both are approximations:
a menu's words that the gold holds elsewhere count as missed.
"""

from __future__ import annotations

import argparse
import pickle
from collections import Counter
from statistics import mean

from benchmarks.quality.running import pages_of
from research.held_out import decided
from victor import output
from victor.config import DEFAULT_CONFIG, load_config
from victor.reading.text import words
from victor.training import evaluate


def _blocks(blocks, labels, q, gold: Counter):
    """The extra kept blocks and the missed dropped ones, each as (words,
    trees' probability, text)."""
    left, extra, missed = Counter(gold), [], []
    for text, label, p in zip(blocks, labels, q):
        ws = words(text)
        if ws and label != "o":
            inside = sum(1 for w in ws if left[w] > 0)
            left.subtract(w for w in ws if left[w] > 0)
            if inside / len(ws) < 0.5:
                extra.append((len(ws), round(float(p), 2), text[:90]))
        elif len(ws) >= 2 and sum(1 for w in ws if gold[w] > 0) / len(ws) > 0.8:
            missed.append((len(ws), round(float(p), 2), text[:90]))
    return extra, missed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m research.losses")
    ap.add_argument("run")
    ap.add_argument("--type", help="one WCXB page type, shown page by page")
    ap.add_argument("--pages", type=int, default=10)
    args = ap.parse_args(argv)
    with open(args.run, "rb") as f:
        run = pickle.load(f)
    pages = {p.anno: p for p in pages_of("wcxb-dev", None)}
    scores: dict[str, list] = {}
    shown = 0
    for name, blocks, labels, q, kind in decided(run, load_config(DEFAULT_CONFIG)):
        page = pages.get(name)
        if page is None:
            continue
        ours = words(output.plain_text(blocks, labels))
        scores.setdefault(page.page_type, []).append(evaluate.bag_overlap(ours, page.gold))
        if page.page_type == args.type and shown < args.pages:
            extra, missed = _blocks(blocks, labels, q, Counter(page.gold))
            shown += 1
            print(f"== {name.rsplit('/', 1)[-1]}: gold {len(page.gold)} words, extra "
                  f"{sum(e[0] for e in extra)}, missed {sum(m[0] for m in missed)}; type "
                  + ", ".join(f"{k} {v:.2f}" for k, v in (kind or {}).items() if v > 0.1))
            for row in extra[:10]:
                print("  +", row)
            for row in missed[:6]:
                print("  -", row)
    print("| page type | pages | precision | recall | F1 |\n|---|---|---|---|---|")
    for kind, rows in sorted(scores.items()):
        print(f"| {kind} | {len(rows)} | {mean(o.precision for o in rows):.3f} | "
              f"{mean(o.recall for o in rows):.3f} | {mean(o.f1 for o in rows):.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
