"""Issue 31's second pass: what it sees of a block, computed from the first
pass's held-out probabilities over the whole page (research/second_pass.py
fits and scores the trees over them)."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from victor.labels import OTHER


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
