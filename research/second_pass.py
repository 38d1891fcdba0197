"""Issue 31's second pass, measured: stacked sequential learning over the
general config's held-out first pass.

The first pass is a saved benchmark run (`python3 -m benchmarks.quality
--no-transfer --save-run RUN.json`): each page's content probabilities and
decoded labels from the model of the 5 site folds that did not see it. The
blocks come from research/second_pass_pages.py (victor's own reading, which
lines up with the run block by block; checked against the run's gold labels).

The second pass is gradient-boosted trees (LightGBM) over the first pass's
probability, page-level features of the probabilities (the page's densest
run of likely content and the block's distance from it in blocks, words and
tree steps; the likely share of the block's containers and siblings; the
repetition of its shape among its siblings; its probability against the
page's maximum; before or after the run) and the first pass's own features.
Cross-fitted on the same site folds as the benchmark: the trees that score
fold k's pages were trained on the other folds' pages only, from their
held-out first-pass probabilities. (A small leak: the first-pass model that
scored a training page of fold j was trained on the other four folds, fold k
among them.)

    python3 -m research.second_pass --run RUNS/main.json --pages RUNS/sp_pages.pkl
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path
from statistics import mean

import numpy as np

from benchmarks.common import table
from benchmarks.quality.running import COLLECTIONS, pages_of
from benchmarks.quality.scoring import score
from victor import output
from victor.training import evaluate
from victor.config import DEFAULT_CONFIG
from victor.training.folds import PageGroup, site_folds
from victor.labels import OTHER
from victor.reading.text import words
from research.second_pass_features import PAGE_FEATURES, page_features

# --- data --------------------------------------------------------------------

def load(run_path: str, pages_path: str, config: str = DEFAULT_CONFIG):
    run = json.load(open(run_path))[config]
    pages = [pg for pg in pickle.load(open(pages_path, "rb")) if pg["anno"] in run["truth"]]
    columns = sorted({c for pg in pages for c in pg["columns"]})
    mismatched = 0
    for pg in pages:
        if run["truth"][pg["anno"]] != pg["truth"]:
            mismatched += 1
    if mismatched:
        raise SystemExit(f"{mismatched} pages' blocks do not line up with the run")
    return run, pages, columns


def matrix(pg: dict, run: dict, columns: list[str], first_features: bool = True) -> np.ndarray:
    """The page-level features, then the first pass's `columns` (NaN where
    the page lacks one); `first_features=False` leaves the latter out."""
    p = np.array(run["content"][pg["anno"]], dtype=np.float64)
    own = page_features(pg, p, run["labels"][pg["anno"]])
    if not first_features or not columns:
        return own
    where = {c: i for i, c in enumerate(pg["columns"])}
    f = np.full((len(p), len(columns)), np.nan, dtype=np.float32)
    for j, c in enumerate(columns):
        if c in where:
            f[:, j] = pg["features"][:, where[c]]
    return np.hstack([own, f])


def fold_of(pages: list[dict], k: int = 5) -> list[int]:
    folds = site_folds([PageGroup(pg["site"], pg["stratum"]) for pg in pages], k, 0)
    out = [0] * len(pages)
    for f, members in enumerate(folds):
        for i in members:
            out[i] = f
    return out


PARAMS = dict(objective="binary", learning_rate=0.05, num_leaves=63, min_data_in_leaf=200,
              feature_fraction=0.7, bagging_fraction=0.7, bagging_freq=1, lambda_l2=1.0,
              num_threads=1, verbose=-1, seed=0)


def early_stop(margin: float | None, every: int = 10) -> dict:
    """LightGBM's prediction early stopping: every `every` trees, a block
    whose raw score is past margin / 2 either way stops (a binary margin is
    twice the score); {} for none."""
    if margin is None:
        return {}
    return dict(pred_early_stop=True, pred_early_stop_freq=every, pred_early_stop_margin=margin)


def cross_fit(X: list[np.ndarray], y: list[np.ndarray], wts: list[np.ndarray],
              fold: list[int], rounds: int, params: dict, gain: dict | None = None,
              names: list[str] | None = None, predict: dict | None = None) -> list[np.ndarray]:
    """Each page's second-pass probabilities from trees trained on the
    other folds' pages; the folds' gain importance summed into `gain` by
    feature name (to pick the few first-pass features worth computing);
    `predict` LightGBM's prediction parameters (pred_early_stop: a block
    whose score is already far from one half skips the remaining trees)."""
    import lightgbm as lgb

    out: list[np.ndarray | None] = [None] * len(X)
    for k in sorted(set(fold)):
        train = [i for i in range(len(X)) if fold[i] != k]
        t = time.perf_counter()
        data = lgb.Dataset(np.vstack([X[i] for i in train]), np.concatenate([y[i] for i in train]),
                           weight=np.concatenate([wts[i] for i in train]))
        booster = lgb.train(params, data, rounds)
        if gain is not None and names is not None:
            for name, g in zip(names, booster.feature_importance("gain")):
                gain[name] = gain.get(name, 0.0) + float(g)
        for i in range(len(X)):
            if fold[i] == k:
                out[i] = booster.predict(X[i], **(predict or {}))
        print(f"fold {k}: {len(train)} training pages, {time.perf_counter() - t:.0f} s",
              file=sys.stderr)
    return out  # type: ignore[return-value]


# --- decoding and scores -------------------------------------------------------

def drop(first: list[str], q: np.ndarray, t: float) -> list[str]:
    """The first pass's labels, less the content blocks the second pass
    puts under t."""
    return [OTHER if lab != OTHER and x < t else lab for lab, x in zip(first, q)]


def replace(first: list[str], q: np.ndarray, t: float) -> list[str]:
    """Content exactly where the second pass is at t or above (a block
    the first pass dropped comes back as a paragraph)."""
    return [(lab if lab != OTHER else "p") if x >= t else OTHER for lab, x in zip(first, q)]


def scores(gold_pages: dict, texts: dict[str, str]) -> dict:
    """LCS P/R/F1 and bag-of-words P/R/F1 (means over pages) per collection,
    and WCXB's bag-of-words F1 by page type."""
    out = {}
    for c, ps in gold_pages.items():
        s = score(ps, texts)
        bags = [evaluate.bag_overlap(words(texts.get(p.anno, "")), p.gold) for p in ps]
        out[c] = dict(lcs_p=s.lcs.precision, lcs_r=s.lcs.recall, lcs_f1=s.lcs.f1,
                      bag_p=mean(b.precision for b in bags), bag_r=mean(b.recall for b in bags),
                      bag_f1=s.bag_f1, empty=s.empty)
        if c == "wcxb-dev":
            kinds = sorted({p.page_type for p in ps})
            out["types"] = {k: score([p for p in ps if p.page_type == k], texts).bag_f1
                            for k in kinds}
    return out


def row(name: str, s: dict) -> list:
    w, d, c = s["wcxb-dev"], s["dragnet-train"], s["cleaneval-dev"]
    return [name, f"{w['bag_f1']:.4f}", f"{w['bag_p']:.3f} / {w['bag_r']:.3f}",
            f"{w['lcs_f1']:.4f}", f"{d['lcs_f1']:.4f}", f"{d['lcs_p']:.3f} / {d['lcs_r']:.3f}",
            f"{c['lcs_f1']:.4f}", f"{c['lcs_p']:.3f} / {c['lcs_r']:.3f}"]


HEAD = ["variant", "WCXB bag F1", "WCXB bag P / R", "WCXB LCS F1", "Dragnet LCS F1",
        "Dragnet LCS P / R", "CleanEval LCS F1", "CleanEval LCS P / R"]


def report(results: list[tuple[str, dict]], scores_path: str | None) -> None:
    """The variants' figures by collection and by WCXB page type, and as
    JSON to `scores_path` if given."""
    print(table(HEAD, [row(n, s) for n, s in results]))
    kinds = list(results[0][1]["types"])
    print()
    print(table(["variant"] + kinds, [[n] + [f"{s['types'][k]:.3f}" for k in kinds]
                                      for n, s in results]))
    if scores_path:
        Path(scores_path).write_text(json.dumps({n: s for n, s in results}))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--pages", required=True)
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--weight", choices=("none", "words", "sqrt"), default="none")
    ap.add_argument("--no-first-features", action="store_true")
    ap.add_argument("--first", help="only these first-pass columns (comma-separated)")
    ap.add_argument("--learning-rate", type=float, default=PARAMS["learning_rate"])
    ap.add_argument("--leaves", type=int, default=PARAMS["num_leaves"])
    ap.add_argument("--early-stop", type=float, help="pred_early_stop_margin, every 10 trees")
    ap.add_argument("--importance", help="write the trees' gain importance by feature (JSON)")
    ap.add_argument("--thresholds", default="0.3,0.4,0.5,0.6")
    ap.add_argument("--save", help="write each page's second-pass probabilities (JSON)")
    ap.add_argument("--scores", help="write the table's figures (JSON)")
    ap.add_argument("--tag", default="gbt")
    ap.add_argument("--every", type=int, default=1, help="every Nth page only (a quick look)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    run, pages, columns = load(args.run, args.pages)
    if args.first:
        columns = args.first.split(",")
    pages = pages[::args.every]
    names = {pg["anno"] for pg in pages}
    gold = {c: [p for p in pages_of(c, None) if p.anno in names] for c in COLLECTIONS}
    fold = fold_of(pages)
    t = time.perf_counter()
    X = [matrix(pg, run, columns, not args.no_first_features) for pg in pages]
    per_page = (time.perf_counter() - t) / len(pages)
    y = [np.array([lab != OTHER for lab in pg["truth"]], dtype=np.float32) for pg in pages]
    w = []
    for pg in pages:
        n = np.array([len(x.split()) for x in pg["texts"]], dtype=np.float32)
        w.append({"none": np.ones_like(n), "words": np.maximum(n, 1),
                  "sqrt": np.sqrt(np.maximum(n, 1))}[args.weight])
    print(f"{len(pages)} pages, {X[0].shape[1]} features, page features "
          f"{per_page * 1000:.2f} ms a page", file=sys.stderr)
    params = {**PARAMS, "learning_rate": args.learning_rate, "num_leaves": args.leaves}
    gain: dict[str, float] = {}
    feature_names = PAGE_FEATURES + ([] if args.no_first_features else columns)
    q = cross_fit(X, y, w, fold, args.rounds, params, gain, feature_names,
                  early_stop(args.early_stop))
    if args.importance:
        json.dump(dict(sorted(gain.items(), key=lambda kv: -kv[1])), open(args.importance, "w"),
                  indent=0)
    if args.save:
        json.dump({pg["anno"]: list(map(float, qq)) for pg, qq in zip(pages, q)},
                  open(args.save, "w"))
    texts_of = lambda labels_of: {pg["anno"]: output.plain_text(pg["texts"], labels_of(i, pg))
                                  for i, pg in enumerate(pages)}
    results = [("general (first pass, baseline)",
                scores(gold, texts_of(lambda i, pg: run["labels"][pg["anno"]])))]
    for th in map(float, args.thresholds.split(",")):
        results.append((f"{args.tag} drop <{th}",
                        scores(gold, texts_of(lambda i, pg: drop(run["labels"][pg["anno"]], q[i], th)))))
        results.append((f"{args.tag} replace >={th}",
                        scores(gold, texts_of(lambda i, pg: replace(run["labels"][pg["anno"]], q[i], th)))))
    report(results, args.scores)
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
