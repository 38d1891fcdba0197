"""research/second_pass.py's saved second-pass probabilities decoded
again without refitting: a block the first pass kept stays while its
second-pass probability is at least KEEP, a block it dropped comes back
(as a paragraph) at ADD or more. ADD = KEEP is second_pass.py's `replace`,
ADD = 1.01 its `drop`.

    python3 -m research.second_pass_scan --run RUN.json --pages PAGES.pkl --q Q.json 0.45,0.25 0.4,0.3
"""

from __future__ import annotations

import argparse
import json

from benchmarks.common import table
from benchmarks.quality.running import COLLECTIONS, pages_of
from research.second_pass import HEAD, load, row, scores
from victor import output
from victor.labels import OTHER


def two_bars(first, q, keep, add):
    return [(lab if x >= keep else OTHER) if lab != OTHER else ("p" if x >= add else OTHER)
            for lab, x in zip(first, q)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--pages", required=True)
    ap.add_argument("--q", required=True)
    ap.add_argument("--tag", default="scan")
    ap.add_argument("bars", nargs="+", help="KEEP,ADD")
    args = ap.parse_args(argv)
    run, pages, _ = load(args.run, args.pages)
    q = json.load(open(args.q))
    gold = {c: pages_of(c, None) for c in COLLECTIONS}
    results = []
    for spec in args.bars:
        keep, add = map(float, spec.split(","))
        texts = {pg["anno"]: output.plain_text(pg["texts"], two_bars(
            run["labels"][pg["anno"]], q[pg["anno"]], keep, add)) for pg in pages}
        results.append((f"{args.tag} keep >={keep}, add >={add}", scores(gold, texts)))
    print(table(HEAD, [row(n, s) for n, s in results]))
    kinds = list(results[0][1]["types"])
    print()
    print(table(["variant"] + kinds, [[n] + [f"{s['types'][k]:.3f}" for k in kinds]
                                      for n, s in results]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
