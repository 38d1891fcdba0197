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

    python3 -m research.second_pass --run /work/runs/main.json --pages /work/runs/sp_pages.pkl
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
import time
from collections import defaultdict
from statistics import mean

import numpy as np

from benchmarks.common import table
from benchmarks.quality import COLLECTIONS, pages_of, score
from victor import calibration, evaluate, output
from victor.config import DEFAULT_CONFIG, load_config
from victor.crf.model import temperature_of
from victor.decoding import FAVOR_BARS, above_threshold
from victor.folds import PageGroup, site_folds
from victor.labels import OTHER
from victor.text import words

# --- page-level features of the first pass ----------------------------------

PAGE_FEATURES = [
    "p", "logit", "first.content", "p.prev1", "p.next1", "p.prev2", "p.next2",
    "win3", "win10", "page.max", "p/max", "page.mean", "page.wmean", "page.blocks",
    "page.words", "page.likely-share", "p.rank", "words", "run.in", "run.dist",
    "run.dist-words", "run.words-share", "run.mass-share", "run.after", "run.before",
    "run.blocks", "run.mean", "tree.lca-depth", "tree.in-lca", "tree.steps", "tree.depth",
    "c1.mean", "c1.share", "c1.blocks", "c1.others", "c2.mean", "c2.share", "c2.blocks",
    "c2.others", "c3.mean", "c3.share", "c3.blocks", "c3.others", "rep1", "rep2", "rep3",
    "rep4", "rep5", "rep.max", "path.count", "path.mean", "path.in-run", "position",
    "words-after-run-share",
]


def densest_run(p: np.ndarray, w: np.ndarray) -> tuple[int, int]:
    """The run of blocks whose words, weighted by how far their probability
    is above one half, sum highest (Kadane); (0, -1) for no such run."""
    s = w * (p - 0.5)
    best, cur, start, a, b = -math.inf, 0.0, 0, 0, -1
    for i, x in enumerate(s):
        if cur <= 0:
            cur, start = x, i
        else:
            cur += x
        if cur > best:
            best, a, b = cur, start, i
    if best <= 0:  # nothing likely: the single most probable block
        i = int(np.argmax(p)) if len(p) else 0
        return i, i
    return a, b


def _common(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def page_features(page: dict, p: np.ndarray, first: list[str]) -> np.ndarray:
    n = len(p)
    w = np.array([len(t.split()) for t in page["texts"]], dtype=np.float64)
    wp = w * p
    out = np.full((n, len(PAGE_FEATURES)), np.nan, dtype=np.float32)
    col = {name: i for i, name in enumerate(PAGE_FEATURES)}

    def put(name, values):
        out[:, col[name]] = values

    put("p", p)
    q = np.clip(p, 1e-6, 1 - 1e-6)
    put("logit", np.log(q / (1 - q)))
    put("first.content", [lab != OTHER for lab in first])
    for k in (1, 2):
        prev = np.full(n, np.nan); prev[k:] = p[:-k] if n > k else prev[k:]
        nxt = np.full(n, np.nan); nxt[:-k] = p[k:] if n > k else nxt[:-k]
        put(f"p.prev{k}", prev); put(f"p.next{k}", nxt)
    cw, cwp = np.concatenate([[0], np.cumsum(w)]), np.concatenate([[0], np.cumsum(wp)])
    idx = np.arange(n)
    for r in (3, 10):
        lo, hi = np.maximum(idx - r, 0), np.minimum(idx + r + 1, n)
        put(f"win{r}", (cwp[hi] - cwp[lo]) / np.maximum(cw[hi] - cw[lo], 1))
    pmax = p.max()
    total = max(w.sum(), 1)
    put("page.max", pmax); put("p/max", p / max(pmax, 1e-6)); put("page.mean", p.mean())
    put("page.wmean", wp.sum() / total); put("page.blocks", n); put("page.words", total)
    put("page.likely-share", w[p >= 0.5].sum() / total)
    put("p.rank", np.argsort(np.argsort(p)) / max(n - 1, 1))
    put("words", w)
    a, b = densest_run(p, w)
    put("run.in", (idx >= a) & (idx <= b))
    put("run.dist", np.where(idx < a, idx - a, np.where(idx > b, idx - b, 0)))
    before_words = cw[a] - cw[np.minimum(idx + 1, n)]  # words between block and run start
    after_words = cw[idx] - cw[b + 1]
    put("run.dist-words", np.where(idx < a, -np.log1p(np.maximum(before_words, 0)),
                                   np.where(idx > b, np.log1p(np.maximum(after_words, 0)), 0)))
    run_w = cw[b + 1] - cw[a]
    put("run.words-share", run_w / total)
    put("run.mass-share", (cwp[b + 1] - cwp[a]) / max(wp.sum(), 1e-6))
    put("run.after", idx > b); put("run.before", idx < a); put("run.blocks", b - a + 1)
    put("run.mean", (cwp[b + 1] - cwp[a]) / max(run_w, 1))
    put("words-after-run-share", (total - cw[b + 1]) / total)
    chains = page["chains"]
    core = [i for i in range(a, b + 1) if p[i] >= 0.5] or list(range(a, b + 1))
    lca = list(chains[core[0]])
    for i in core[1:]:
        lca = lca[:_common(lca, chains[i])]
    put("tree.lca-depth", len(lca))
    common = np.array([_common(lca, c) for c in chains])
    depth = np.array([len(c) for c in chains])
    put("tree.in-lca", common == len(lca))
    put("tree.steps", (depth - common) + (len(lca) - common))
    put("tree.depth", depth)
    acc_w, acc_wp, acc_n = defaultdict(float), defaultdict(float), defaultdict(int)
    for i, c in enumerate(chains):
        for k in c:
            acc_w[k] += w[i]; acc_wp[k] += wp[i]; acc_n[k] += 1
    for level in (1, 2, 3):
        m, sh, nb, ot = (np.full(n, np.nan) for _ in range(4))
        for i, c in enumerate(chains):
            if len(c) >= level:
                k = c[-level]
                m[i] = acc_wp[k] / max(acc_w[k], 1)
                sh[i] = acc_w[k] / total
                nb[i] = acc_n[k]
                rest = acc_w[k] - w[i]
                ot[i] = (acc_wp[k] - wp[i]) / rest if rest > 0 else np.nan
        put(f"c{level}.mean", m); put(f"c{level}.share", sh)
        put(f"c{level}.blocks", nb); put(f"c{level}.others", ot)
    reps = page["reps"]
    for j in range(5):
        put(f"rep{j + 1}", reps[:, j])
    put("rep.max", reps.max(axis=1) if n else 0)
    by_path = defaultdict(list)
    for i, path in enumerate(page["paths"]):
        by_path[path].append(i)
    cnt, pm, pr = np.zeros(n), np.zeros(n), np.zeros(n)
    for members in by_path.values():
        ms = np.array(members)
        cnt[ms] = len(ms)
        pm[ms] = p[ms].mean()
        pr[ms] = ((ms >= a) & (ms <= b)).mean()
    put("path.count", cnt); put("path.mean", pm); put("path.in-run", pr)
    put("position", idx / max(n - 1, 1))
    return out


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
    p = np.array(run["content"][pg["anno"]], dtype=np.float64)
    own = page_features(pg, p, run["labels"][pg["anno"]])
    if not first_features:
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
              num_threads=2, verbose=-1, seed=0)


def cross_fit(X: list[np.ndarray], y: list[np.ndarray], wts: list[np.ndarray],
              fold: list[int], rounds: int, params: dict) -> list[np.ndarray]:
    """Each page's second-pass probabilities from trees trained on the
    other folds' pages."""
    import lightgbm as lgb

    out: list[np.ndarray | None] = [None] * len(X)
    for k in sorted(set(fold)):
        train = [i for i in range(len(X)) if fold[i] != k]
        t = time.perf_counter()
        data = lgb.Dataset(np.vstack([X[i] for i in train]), np.concatenate([y[i] for i in train]),
                           weight=np.concatenate([wts[i] for i in train]))
        booster = lgb.train(params, data, rounds)
        for i in range(len(X)):
            if fold[i] == k:
                out[i] = booster.predict(X[i])
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--pages", required=True)
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--weight", choices=("none", "words", "sqrt"), default="none")
    ap.add_argument("--no-first-features", action="store_true")
    ap.add_argument("--thresholds", default="0.3,0.4,0.5,0.6")
    ap.add_argument("--save", help="write each page's second-pass probabilities (JSON)")
    ap.add_argument("--tag", default="gbt")
    ap.add_argument("--every", type=int, default=1, help="every Nth page only (a quick look)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    run, pages, columns = load(args.run, args.pages)
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
    q = cross_fit(X, y, w, fold, args.rounds, PARAMS)
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
    print(table(HEAD, [row(n, s) for n, s in results]))
    kinds = list(results[0][1]["types"])
    print()
    print(table(["variant"] + kinds, [[n] + [f"{s['types'][k]:.3f}" for k in kinds]
                                      for n, s in results]))
    print(json.dumps({n: s for n, s in results}), file=open(f"/work/runs/sp_{args.tag}.json", "w"))
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
