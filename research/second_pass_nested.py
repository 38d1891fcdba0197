"""The decoding bars of the second pass chosen without the test pages: for
each site fold, the (KEEP, ADD) pair of a grid that does best on the other
four folds' pages (the sum of WCXB bag-of-words F1, Dragnet LCS F1 and
CleanEval LCS F1 over those pages) is applied to the fold's pages; the
figures are then those of the whole run, as benchmarks.quality sums them.

    python3 -m research.second_pass_nested --run RUN.json --pages PAGES.pkl --q Q.json
"""

from __future__ import annotations

import argparse
import itertools
import json
from statistics import mean

from benchmarks.quality.running import COLLECTIONS, pages_of
from research.second_pass import fold_of, load
from research.second_pass_scan import two_bars
from victor import output
from victor.training import evaluate
from victor.reading.text import words

KEEPS = (0.35, 0.4, 0.45, 0.5, 0.55)
ADDS = (0.25, 0.3, 0.35, 0.4)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--pages", required=True)
    ap.add_argument("--q", required=True)
    args = ap.parse_args(argv)
    run, pages, _ = load(args.run, args.pages)
    q = json.load(open(args.q))
    fold = dict(zip((pg["anno"] for pg in pages), fold_of(pages)))
    gold = {p.anno: (c, p) for c in COLLECTIONS for p in pages_of(c, None)}
    grid = [(k, a) for k, a in itertools.product(KEEPS, ADDS) if a <= k]
    per = {}  # (bar, anno) -> (lcs overlap, bag overlap)
    for bar in grid:
        for pg in pages:
            text = output.plain_text(pg["texts"], two_bars(run["labels"][pg["anno"]],
                                                           q[pg["anno"]], *bar))
            ours = words(text)
            p = gold[pg["anno"]][1]
            per[bar, pg["anno"]] = (evaluate.word_overlap(ours, p.gold),
                                    evaluate.bag_overlap(ours, p.gold))

    def figures(choice):  # anno -> bar
        out = {}
        for c in COLLECTIONS:
            annos = [a for a, (cc, _) in gold.items() if cc == c and a in choice]
            lcs = evaluate.Overlap(0, 0, 0)
            for a in annos:
                lcs += per[choice[a], a][0]
            bags = [per[choice[a], a][1] for a in annos]
            out[c] = (lcs.f1, lcs.precision, lcs.recall, mean(b.f1 for b in bags),
                      mean(b.precision for b in bags), mean(b.recall for b in bags))
        return out

    def objective(f):
        return f["wcxb-dev"][3] + f["dragnet-train"][0] + f["cleaneval-dev"][0]

    chosen = {}
    for k in sorted(set(fold.values())):
        others = [a for a in fold if fold[a] != k]
        best = max(grid, key=lambda b: objective(figures({a: b for a in others})))
        print(f"fold {k}: bars chosen on the other folds: keep >={best[0]}, add >={best[1]}")
        chosen.update({a: best for a in fold if fold[a] == k})
    f = figures(chosen)
    w, d, c = f["wcxb-dev"], f["dragnet-train"], f["cleaneval-dev"]
    print(f"nested: WCXB bag F1 {w[3]:.4f} (P {w[4]:.3f} / R {w[5]:.3f}), LCS {w[0]:.4f}; "
          f"Dragnet LCS {d[0]:.4f} (P {d[1]:.3f} / R {d[2]:.3f}); "
          f"CleanEval LCS {c[0]:.4f} (P {c[1]:.3f} / R {c[2]:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
