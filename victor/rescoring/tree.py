"""A page's blocks' containers as arrays, for the second pass's page-level
features (victor/rescoring/features.py): which containers each block sits
in, how often its innermost containers' shape repeats among their siblings,
and which blocks share a tag path.

Arrays rather than per-block Python: the research version (a dict of
container ids filled element by element, one pass over each container's
siblings for every container) cost 3.3 ms a page, two thirds of it counting
siblings, against 2.0-2.6 ms here (docs/second-pass.md, "What a shippable
second pass costs"). The containers become one padded matrix of small ints
(a row a block, outermost first), and the siblings of a parent are counted
once per parent; the Python that is left is mapped in C (itertools,
operator) rather than run in Python frames.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, compress, repeat
from operator import attrgetter, methodcaller

import numpy as np

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
