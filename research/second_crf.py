"""Issue 31's other second pass: a second linear-chain CRF (victor.crf)
whose attributes are the page-level features of the first pass's held-out
probabilities (research/second_pass.py's page_features, put into bins),
cross-fitted on the same site folds. Binary labels (content p / o): what a
block is kept as comes from the first pass.

    python3 -m research.second_crf --run RUNS/main.json --pages RUNS/sp_pages.pkl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from benchmarks.quality.running import COLLECTIONS, pages_of
from research.second_pass import drop, fold_of, load, replace, report, scores
from research.second_pass_features import PAGE_FEATURES, page_features
from victor import output
from victor.crf import CRF
from victor.crf.template import parse_template
from victor.labels import OTHER

BINS = {"run.dist": [-50, -20, -10, -5, -3, -2, -1, 0, 1, 2, 3, 5, 10, 20, 50],
        "run.dist-words": [-6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6],
        "tree.steps": [0, 1, 2, 3, 4, 6, 8, 12], "tree.depth": [0, 5, 10, 15, 20, 30],
        "tree.lca-depth": [0, 3, 6, 10, 15, 20], "rep.max": [0, 1, 2, 3, 5, 10, 20],
        "rep1": [0, 1, 2, 3, 5, 10], "rep2": [0, 1, 2, 3, 5, 10], "rep3": [0, 1, 2, 3, 5, 10],
        "path.count": [1, 2, 3, 5, 10, 20, 50], "words": [0, 1, 3, 5, 10, 20, 50, 100],
        "c1.blocks": [1, 2, 3, 5, 10, 20], "c2.blocks": [1, 2, 3, 5, 10, 20],
        "page.blocks": [0, 50, 100, 200, 400, 800], "run.blocks": [1, 2, 5, 10, 20, 50]}
SCALE = {"p": 10, "p.prev1": 5, "p.next1": 5, "p.prev2": 5, "p.next2": 5, "win3": 5,
         "win10": 5, "page.max": 5, "p/max": 10, "page.wmean": 5, "page.likely-share": 5,
         "run.words-share": 5, "run.mass-share": 5, "run.mean": 5, "c1.mean": 5,
         "c1.others": 5, "c2.mean": 5, "c2.others": 5, "c3.mean": 5, "c3.others": 5,
         "path.mean": 5, "path.in-run": 4, "position": 10, "words-after-run-share": 5,
         "c1.share": 5, "c2.share": 5}
FLAGS = ["first.content", "run.in", "run.after", "run.before", "tree.in-lca"]

TEMPLATE = """
sp.*            [0]
sp.p            [-2..2]
sp.run.in       [-1..1]
sp.first.content [-1..1]
sp.p & sp.run.in
sp.p & sp.run.after
sp.p & sp.tree.in-lca
sp.p & sp.c1.mean
sp.p & sp.c2.others
sp.p & sp.rep.max
sp.p & sp.path.mean
sp.p & sp.p-max
sp.run.dist & sp.c2.mean
"""


def _bin(x: float, edges: list[float]) -> str:
    if x != x:
        return "x"
    v = edges[0]
    for e in edges:
        if x >= e:
            v = e
    return str(v)


def attributes(m: np.ndarray) -> list[dict[str, str]]:
    col = {n: i for i, n in enumerate(PAGE_FEATURES)}
    out = []
    for r in m:
        d = {}
        for n, s in SCALE.items():
            x = r[col[n]]
            d["sp." + n.replace("/", "-")] = "x" if x != x else str(min(int(x * s), s - 1))
        for n, e in BINS.items():
            d["sp." + n] = _bin(float(r[col[n]]), e)
        for n in FLAGS:
            d["sp." + n] = str(int(r[col[n]]))
        out.append(d)
    return out


def _fit_fold(args):
    k, train_x, train_y, train_sites, test_x, params = args
    t = time.perf_counter()
    crf = CRF(parse_template(TEMPLATE, "second-crf"), **params).fit(train_x, train_y, train_sites)
    m = crf.predict_marginals(test_x)
    q = [np.array([1 - b.get(OTHER, 0.0) for b in page]) for page in m]
    return k, q, crf.predict(test_x), time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--pages", required=True)
    ap.add_argument("--c2", type=float, default=1.0)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--thresholds", default="0.3,0.4,0.5,0.6")
    ap.add_argument("--train-every", type=int, default=1,
                    help="train each fold on every Nth of its training pages (memory: with all of "
                         "them and 2 jobs a worker went past 11 GB and was killed)")
    ap.add_argument("--save")
    ap.add_argument("--scores", help="write the table's figures (JSON)")
    ap.add_argument("--tag", default="crf2")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    run, pages, _ = load(args.run, args.pages)
    names = {pg["anno"] for pg in pages}
    gold = {c: [p for p in pages_of(c, None) if p.anno in names] for c in COLLECTIONS}
    fold = fold_of(pages)
    A = [attributes(page_features(pg, np.array(run["content"][pg["anno"]]),
                                  run["labels"][pg["anno"]])) for pg in pages]
    Y = [["p" if lab != OTHER else OTHER for lab in pg["truth"]] for pg in pages]
    params = {"c1": 0, "c2": args.c2, "max_iterations": args.iterations, "far_other_share": 1.0}
    tasks = []
    for k in sorted(set(fold)):
        tr = [i for i in range(len(pages)) if fold[i] != k][::args.train_every]
        te = [i for i in range(len(pages)) if fold[i] == k]
        tasks.append((k, [A[i] for i in tr], [Y[i] for i in tr], [pages[i]["site"] for i in tr],
                      [A[i] for i in te], params))
    q, path = [None] * len(pages), [None] * len(pages)
    with ProcessPoolExecutor(args.jobs) as pool:
        for k, qs, ps, took in pool.map(_fit_fold, tasks):
            te = [i for i in range(len(pages)) if fold[i] == k]
            for i, a, b in zip(te, qs, ps):
                q[i], path[i] = a, b
            print(f"fold {k}: {took:.0f} s", file=sys.stderr)
    if args.save:
        json.dump({pg["anno"]: list(map(float, x)) for pg, x in zip(pages, q)}, open(args.save, "w"))
    texts_of = lambda f: {pg["anno"]: output.plain_text(pg["texts"], f(i, pg))
                          for i, pg in enumerate(pages)}
    first = lambda pg: run["labels"][pg["anno"]]
    results = [("general (first pass, baseline)", scores(gold, texts_of(lambda i, pg: first(pg))))]
    results.append((f"{args.tag} path (drop where o)", scores(gold, texts_of(
        lambda i, pg: [OTHER if b == OTHER else a for a, b in zip(first(pg), path[i])]))))
    for th in map(float, args.thresholds.split(",")):
        results.append((f"{args.tag} drop <{th}", scores(gold, texts_of(
            lambda i, pg: drop(first(pg), q[i], th)))))
        results.append((f"{args.tag} replace >={th}", scores(gold, texts_of(
            lambda i, pg: replace(first(pg), q[i], th)))))
    report(results, args.scores)
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
