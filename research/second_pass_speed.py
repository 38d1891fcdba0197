"""What the second pass costs a page at run time, beside the first pass:
tree_info (the blocks' containers, shapes, paths), page_features, the
feature matrix, and the trees' predictions (a booster of the same size as
research/second_pass.py's: 300 rounds, 63 leaves, here fitted on every 10th
page, which sets the trees' number and depth, not their speed). Beside it,
Cleaner("general").clean of the same pages.

    python3 -m research.second_pass_speed --run RUNS/main.json --pages RUNS/sp_pages.pkl
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from research.second_pass import PARAMS, load, matrix
from research.second_pass_pages import tree_info
from victor.annotation import load_annotation
from victor.cleaner import Cleaner
from victor.batch.inputs import read_input
from victor.labels import OTHER


def main(argv=None) -> int:
    import lightgbm as lgb

    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--pages", required=True)
    ap.add_argument("-n", type=int, default=300)
    args = ap.parse_args(argv)
    run, pages, columns = load(args.run, args.pages)
    train = pages[::10]
    X = np.vstack([matrix(pg, run, columns) for pg in train])
    y = np.concatenate([[lab != OTHER for lab in pg["truth"]] for pg in train])
    booster = lgb.train({**PARAMS, "num_threads": 1}, lgb.Dataset(X, y.astype(np.float32)), 300)
    sample = pages[5::max(len(pages) // args.n, 1)][:args.n]
    cleaner = Cleaner("general")
    t_clean = t_tree = t_feat = t_pred = 0.0
    blocks = 0
    for pg in sample:
        data = read_input(load_annotation(pg["anno"]).source)
        t = time.perf_counter()
        result = cleaner.clean(data)
        t_clean += time.perf_counter() - t
        t = time.perf_counter()
        tree_info(result.page.blocks)
        t_tree += time.perf_counter() - t
        t = time.perf_counter()
        m = matrix(pg, run, columns)
        t_feat += time.perf_counter() - t
        t = time.perf_counter()
        booster.predict(m, num_threads=1)
        t_pred += time.perf_counter() - t
        blocks += len(pg["texts"])
    n = len(sample)
    print(f"{n} pages, {blocks / n:.0f} blocks a page on average; ms a page: "
          f"clean (general, first pass) {t_clean / n * 1000:.1f}, tree_info {t_tree / n * 1000:.2f}, "
          f"page features and matrix {t_feat / n * 1000:.2f}, trees {t_pred / n * 1000:.2f}; "
          f"second pass {(t_tree + t_feat + t_pred) / n * 1000:.2f} "
          f"({(t_tree + t_feat + t_pred) / t_clean * 100:.0f}% of the first pass)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
