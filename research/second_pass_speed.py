"""What the second pass costs a page at run time, beside the first pass:
the tree facts (the blocks' containers, shapes, paths), the page-level
features with the feature matrix, and the trees' predictions (a booster of
the size asked for, here fitted on every 10th page, which sets the trees'
number and depth, not their speed). Beside it, Cleaner("general").clean of
the same pages.

`--fast` times research/second_pass_fast.py (fast_tree over the cleaner's
blocks, fast_features, first_columns from the cleaner's own Columns) in
place of tree_info, page_features and the pickle's stored columns; `--first`
and `--no-first-features` set which of the first pass's 81 feature columns
go into the matrix, as research/second_pass.py's flags of the same names.

    python3 -m research.second_pass_speed --run RUNS/main.json --pages RUNS/sp_pages.pkl -n 200
    python3 -m research.second_pass_speed ... --fast --rounds 100 --leaves 15 --learning-rate 0.15
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from research.second_pass import PARAMS, early_stop, load, matrix
from research.second_pass_fast import fast_features, fast_tree, first_columns
from research.second_pass_pages import tree_info
from victor.annotation import load_annotation
from victor.cleaner import Cleaner
from victor.decoding.calibration import content_probabilities
from victor.batch.inputs import read_input
from victor.labels import OTHER


def main(argv=None) -> int:
    import lightgbm as lgb

    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--pages", required=True)
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--leaves", type=int, default=PARAMS["num_leaves"])
    ap.add_argument("--learning-rate", type=float, default=PARAMS["learning_rate"])
    ap.add_argument("--no-first-features", action="store_true")
    ap.add_argument("--first", help="only these first-pass columns (comma-separated)")
    ap.add_argument("--early-stop", type=float, help="pred_early_stop_margin (every 10 trees)")
    ap.add_argument("--fast", action="store_true", help="research/second_pass_fast.py's features")
    args = ap.parse_args(argv)
    run, pages, columns = load(args.run, args.pages)
    if args.first:
        columns = args.first.split(",")
    if args.no_first_features:
        columns = []
    train = pages[::10]
    X = np.vstack([matrix(pg, run, columns) for pg in train])
    y = np.concatenate([[lab != OTHER for lab in pg["truth"]] for pg in train])
    params = {**PARAMS, "num_threads": 1, "num_leaves": args.leaves,
              "learning_rate": args.learning_rate}
    booster = lgb.train(params, lgb.Dataset(X, y.astype(np.float32)), args.rounds)
    sample = pages[5::max(len(pages) // args.n, 1)][:args.n]
    cleaner = Cleaner("general")
    stop = early_stop(args.early_stop)
    t_clean = t_tree = t_feat = t_pred = 0.0
    blocks = 0
    for pg in sample:
        data = read_input(load_annotation(pg["anno"]).source)
        t = time.perf_counter()
        result = cleaner.clean(data)
        t_clean += time.perf_counter() - t
        if args.fast:
            t = time.perf_counter()
            tree = fast_tree(result.page.blocks)
            t_tree += time.perf_counter() - t
            t = time.perf_counter()
            # uncalibrated, as the run saved them and the trees were fitted
            p = np.array(content_probabilities(result.marginals), dtype=np.float64)
            labels = result.labels
            m = fast_features(tree, [b.text for b in result.page.blocks], p, labels)
            if columns:
                m = np.hstack([m, first_columns(result.columns, columns)])
            t_feat += time.perf_counter() - t
        else:
            t = time.perf_counter()
            tree_info(result.page.blocks)
            t_tree += time.perf_counter() - t
            t = time.perf_counter()
            m = matrix(pg, run, columns, bool(columns))
            t_feat += time.perf_counter() - t
        t = time.perf_counter()
        booster.predict(m, num_threads=1, **stop)
        t_pred += time.perf_counter() - t
        blocks += len(m)
    n = len(sample)
    print(f"{n} pages, {blocks / n:.0f} blocks a page on average, {X.shape[1]} features, "
          f"{args.rounds} rounds of {args.leaves} leaves; ms a page: "
          f"clean (general, first pass) {t_clean / n * 1000:.1f}, "
          f"{'fast_tree' if args.fast else 'tree_info'} {t_tree / n * 1000:.2f}, "
          f"page features and matrix {t_feat / n * 1000:.2f}, trees {t_pred / n * 1000:.2f}; "
          f"second pass {(t_tree + t_feat + t_pred) / n * 1000:.2f} "
          f"({(t_tree + t_feat + t_pred) / t_clean * 100:.0f}% of the first pass)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
