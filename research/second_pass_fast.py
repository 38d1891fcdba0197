"""Issue 31's second pass made cheap enough to ship: the same tree facts as
research/second_pass_pages.py's `tree_info` and the same matrix as
research/second_pass_features.py's `page_features`, computed over arrays.

The slow versions spent 3.3 ms and 4.3 ms a page (research/
second_pass_speed.py) in per-block and per-container Python loops: a dict
of container ids filled element by element, one Python pass over each
container's siblings for every container (quadratic in a long list's items),
and the containers' word sums accumulated block by block. Here the
containers become one padded matrix of small ints (a row a block, outermost
first), the group sums come from np.bincount over it, and the siblings of a
parent are counted once per parent. The Python that is left walks each
block's container tuple once and each needed parent's children once (one
Counter over all of them), mapped in C (itertools, operator) rather than in
Python frames. `first_columns` takes the first pass's feature columns from
the cleaner's own Columns instead of the feature dicts.

    tree = fast_tree(result.page.blocks)
    X = fast_features(tree, texts, p, first_labels)   # == page_features(...)
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, compress, repeat
from operator import attrgetter, methodcaller

import numpy as np

from research.second_pass_features import PAGE_FEATURES
from victor.labels import OTHER

COL = {name: i for i, name in enumerate(PAGE_FEATURES)}
_TAG = attrgetter("tag")
_ATTRS = attrgetter("attrs")
_CLASS = methodcaller("get", "class", "")


def _shapes(elements: list) -> tuple[list[str], list[str]]:
    """The elements' tags and classes, mapped in C (no Python frame an
    element)."""
    return list(map(_TAG, elements)), list(map(_CLASS, map(_ATTRS, elements)))


def _codes(values: list) -> np.ndarray:
    """Each value's number among the distinct values (first seen first)."""
    code = dict(zip(dict.fromkeys(values), range(len(values))))
    return np.fromiter(map(code.__getitem__, values), dtype=np.int64, count=len(values))


def fast_tree(blocks) -> dict:
    """The blocks' containers as arrays: `ids` (n, D) page-local container
    ids outermost first, -1 past a block's depth; `depth` (n,); `reps` (n, 5)
    how many of the parent's element children share each of the 5 innermost
    containers' tag and class; `path` (n,) a group id for blocks with the
    same tag path and innermost class (tree_info's `paths`)."""
    n = len(blocks)
    conts = [b.containers for b in blocks]
    depth = np.fromiter(map(len, conts), dtype=np.int64, count=n)
    flat = list(chain.from_iterable(conts))
    total = len(flat)
    D = int(depth.max()) if n else 0
    ids = np.full((n, max(D, 1)), -1, dtype=np.int64)
    reps = np.zeros((n, 5), dtype=np.float32)
    if not total:
        return {"ids": ids, "depth": depth, "reps": reps, "path": np.zeros(n, np.int64)}
    raw = np.fromiter(map(id, flat), dtype=np.int64, count=total)
    _, first, dense = np.unique(raw, return_index=True, return_inverse=True)
    dense = dense.reshape(-1)
    m = len(first)
    elements = list(map(flat.__getitem__, first.tolist()))
    tag_of, class_of = _shapes(elements)
    row = np.repeat(np.arange(n), depth)
    starts = np.concatenate([[0], np.cumsum(depth)[:-1]])
    col = np.arange(total) - np.repeat(starts, depth)
    ids[row, col] = dense
    parent = np.full(m, -1, dtype=np.int64)
    inner_pos = col > 0
    parent[dense[inner_pos]] = dense[np.nonzero(inner_pos)[0] - 1]
    # repetition: the innermost five containers that have a parent, counted
    # among all their parents' element children at once
    lo = np.maximum(depth - 5, 1)
    needed = np.zeros(m, dtype=bool)
    needed[dense[(col >= lo[row]) & inner_pos]] = True
    need = np.flatnonzero(needed)
    up = np.zeros(m, dtype=bool)
    up[parent[need]] = True
    parents = np.flatnonzero(up)
    lists = list(map(attrgetter("children"), map(elements.__getitem__, parents.tolist())))
    kids = list(chain.from_iterable(lists))
    text = np.fromiter(map(isinstance, kids, repeat(str)), dtype=bool, count=len(kids))
    owner = np.repeat(parents, np.fromiter(map(len, lists), np.int64, count=len(lists)))
    kid_tags, kid_classes = _shapes(list(compress(kids, ~text)))
    counted = Counter(zip(owner[~text].tolist(), kid_tags, kid_classes))
    rep_of = np.zeros(m, dtype=np.float32)
    rep_of[need] = list(map(counted.__getitem__, zip(parent[need].tolist(), map(
        tag_of.__getitem__, need.tolist()), map(class_of.__getitem__, need.tolist()))))
    for j in range(1, 6):  # reps[:, j-1]: the j-th container from the inside
        ok = depth - j >= lo
        reps[ok, j - 1] = rep_of[ids[ok, depth[ok] - j]]
    # path groups: rows of equal tags, innermost class and depth, found by
    # sorting the rows (lexsort) and cutting where a row differs
    inner = ids[np.arange(n), np.maximum(depth - 1, 0)]
    key = np.column_stack([np.where(ids >= 0, _codes(tag_of)[ids], -1),
                           np.where(depth > 0, _codes(class_of)[inner], -1), depth])
    order = np.lexsort(key.T)
    ordered = key[order]
    new = np.ones(n, dtype=bool)
    new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    path = np.empty(n, dtype=np.int64)
    path[order] = np.cumsum(new) - 1
    return {"ids": ids, "depth": depth, "reps": reps, "path": path.reshape(-1)}


def densest_run(p: np.ndarray, w: np.ndarray) -> tuple[int, int]:
    """second_pass_features.densest_run without the loop: the run ending at i
    starts after the last lowest prefix sum before it; the first highest
    run wins, and a page with no positive run gets its likeliest block."""
    n = len(p)
    s = w * (p - 0.5)
    S = np.concatenate([[0.0], np.cumsum(s)])
    low = np.minimum.accumulate(S[:n])
    start = np.maximum.accumulate(np.where(S[:n] <= low, np.arange(n), 0))
    gain = S[1:] - S[start]
    b = int(np.argmax(gain)) if n else -1
    if n == 0 or gain[b] <= 0:
        i = int(np.argmax(p)) if n else 0
        return i, i
    return int(start[b]), b


def fast_features(tree: dict, texts: list[str], p: np.ndarray, first: list[str],
                  words: np.ndarray | None = None) -> np.ndarray:
    """page_features over fast_tree's arrays (the same columns,
    PAGE_FEATURES); `words` the blocks' word counts if the caller has them."""
    n = len(p)
    w = (np.fromiter(map(len, map(str.split, texts)), dtype=np.float64, count=n)
         if words is None else np.asarray(words, dtype=np.float64))
    wp = w * p
    out = np.full((n, len(PAGE_FEATURES)), np.nan, dtype=np.float32)
    o = out.T  # o[COL[name]] is a column
    o[COL["p"]] = p
    q = np.clip(p, 1e-6, 1 - 1e-6)
    o[COL["logit"]] = np.log(q / (1 - q))
    o[COL["first.content"]] = np.array(first, dtype=object) != OTHER
    for k in (1, 2):
        if n > k:
            o[COL[f"p.prev{k}"], k:] = p[:-k]
            o[COL[f"p.next{k}"], :-k] = p[k:]
    cw, cwp = np.concatenate([[0], np.cumsum(w)]), np.concatenate([[0], np.cumsum(wp)])
    idx = np.arange(n)
    for r in (3, 10):
        lo, hi = np.maximum(idx - r, 0), np.minimum(idx + r + 1, n)
        o[COL[f"win{r}"]] = (cwp[hi] - cwp[lo]) / np.maximum(cw[hi] - cw[lo], 1)
    pmax = p.max()
    total = max(w.sum(), 1)
    o[COL["page.max"]] = pmax
    o[COL["p/max"]] = p / max(pmax, 1e-6)
    o[COL["page.mean"]] = p.mean()
    o[COL["page.wmean"]] = wp.sum() / total
    o[COL["page.blocks"]] = n
    o[COL["page.words"]] = total
    o[COL["page.likely-share"]] = w[p >= 0.5].sum() / total
    o[COL["p.rank"]] = np.argsort(np.argsort(p)) / max(n - 1, 1)
    o[COL["words"]] = w
    a, b = densest_run(p, w)
    o[COL["run.in"]] = (idx >= a) & (idx <= b)
    o[COL["run.dist"]] = np.where(idx < a, idx - a, np.where(idx > b, idx - b, 0))
    before = cw[a] - cw[np.minimum(idx + 1, n)]
    after = cw[idx] - cw[b + 1]
    o[COL["run.dist-words"]] = np.where(idx < a, -np.log1p(np.maximum(before, 0)),
                                        np.where(idx > b, np.log1p(np.maximum(after, 0)), 0))
    run_w = cw[b + 1] - cw[a]
    o[COL["run.words-share"]] = run_w / total
    o[COL["run.mass-share"]] = (cwp[b + 1] - cwp[a]) / max(wp.sum(), 1e-6)
    o[COL["run.after"]] = idx > b
    o[COL["run.before"]] = idx < a
    o[COL["run.blocks"]] = b - a + 1
    o[COL["run.mean"]] = (cwp[b + 1] - cwp[a]) / max(run_w, 1)
    o[COL["words-after-run-share"]] = (total - cw[b + 1]) / total
    _tree_columns(o, tree, w, wp, p, a, b, total)
    reps = tree["reps"]
    o[COL["rep1"]:COL["rep5"] + 1] = reps.T
    o[COL["rep.max"]] = reps.max(axis=1) if n else 0
    path = tree["path"]
    cnt = np.bincount(path, minlength=n)
    in_run = np.bincount(path, weights=(idx >= a) & (idx <= b), minlength=n)
    o[COL["path.count"]] = cnt[path]
    o[COL["path.mean"]] = np.bincount(path, weights=p, minlength=n)[path] / cnt[path]
    o[COL["path.in-run"]] = in_run[path] / cnt[path]
    o[COL["position"]] = idx / max(n - 1, 1)
    return out


def _tree_columns(o: np.ndarray, tree: dict, w: np.ndarray, wp: np.ndarray, p: np.ndarray,
                  a: int, b: int, total: float) -> None:
    """The tree.* and c1-c3.* columns: the run's deepest common container
    and each block's steps from it; the word-weighted probability of each
    block's three innermost containers with and without it."""
    ids, depth = tree["ids"], tree["depth"]
    n, D = ids.shape
    core = np.arange(a, b + 1)
    likely = core[p[core] >= 0.5]
    core = likely if len(likely) else core
    rows = ids[core]
    same = (rows == rows[0]).all(axis=0) & (np.arange(D) < depth[core].min())
    L = int(np.cumprod(same).sum())
    o[COL["tree.lca-depth"]] = L
    common = np.cumprod(ids[:, :L] == rows[0, :L], axis=1).sum(axis=1)
    o[COL["tree.in-lca"]] = common == L
    o[COL["tree.steps"]] = (depth - common) + (L - common)
    o[COL["tree.depth"]] = depth
    valid = ids >= 0
    flat = ids[valid]
    m = int(flat.max()) + 1 if len(flat) else 0
    row = np.nonzero(valid)[0]
    acc_w = np.bincount(flat, weights=w[row], minlength=m)
    acc_wp = np.bincount(flat, weights=wp[row], minlength=m)
    acc_n = np.bincount(flat, minlength=m)
    for level in (1, 2, 3):
        has = np.nonzero(depth >= level)[0]
        k = ids[has, depth[has] - level]
        aw, awp = acc_w[k], acc_wp[k]
        o[COL[f"c{level}.mean"], has] = awp / np.maximum(aw, 1)
        o[COL[f"c{level}.share"], has] = aw / total
        o[COL[f"c{level}.blocks"], has] = acc_n[k]
        rest = aw - w[has]
        with np.errstate(divide="ignore", invalid="ignore"):
            o[COL[f"c{level}.others"], has] = np.where(rest > 0, (awp - wp[has]) / rest, np.nan)


_NUMBERS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _number(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def first_columns(columns, wanted: list[str]) -> np.ndarray:
    """The first pass's feature columns `wanted`, as numbers, from the
    Columns the cleaner already holds (result.columns), equal to what
    research/second_pass_pages.py stored (each block's label read as a
    number): one fancy index into the labels' numbers, which are converted
    once for a labeller (the labels array is cached with the config's
    layout, so its id is stable while it lives)."""
    cached = _NUMBERS.get(id(columns.labels))
    if cached is None or cached[0] is not columns.labels:
        cached = (columns.labels, np.array([_number(x) for x in columns.labels.tolist()],
                                           dtype=np.float32))
        _NUMBERS[id(columns.labels)] = cached
    numbers = cached[1]
    where = {name: i for i, name in enumerate(columns.numeric)}
    out = np.full((columns.size, len(wanted)), np.nan, dtype=np.float32)
    have = [j for j, name in enumerate(wanted) if name in where]
    if have:  # one fancy index for every numeric column
        out[:, have] = numbers[columns.at[:, [where[wanted[j]] for j in have]]]
    for j, name in enumerate(wanted):
        if name not in where and name in columns.values:
            values = columns.values[name]  # few distinct values a page
            number = {v: _number(v) for v in dict.fromkeys(values)}
            out[:, j] = list(map(number.__getitem__, values))
    return out
