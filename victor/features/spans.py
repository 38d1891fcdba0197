"""Which blocks an element holds. Every tag ends a block, so the blocks
inside an element are consecutive: an element is a range of block
numbers, and its words are a difference of running sums. Used by the
families that look at a block's container as a whole (its text density,
its size, its neighbours).
"""

from __future__ import annotations

import numpy as np

from victor.features.context import Context


def nearest_ranges(ctx: Context) -> tuple[np.ndarray, np.ndarray]:
    """First and last block of each block's nearest block-level container
    (a <p>, <li>, <td>, <div>, ...); the whole page for a block in none."""
    n = len(ctx.blocks)
    nearest = ctx.paths.nearest
    wanted = {id(el) for el in nearest if el is not None}
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, b in enumerate(ctx.blocks):
        for el in b.containers:
            k = id(el)
            if k in wanted:
                first.setdefault(k, i)
                last[k] = i
    lo = np.array([first[id(el)] if el is not None else 0 for el in nearest], np.int64)
    hi = np.array([last[id(el)] if el is not None else n - 1 for el in nearest], np.int64)
    return lo, hi


def running(values: np.ndarray) -> np.ndarray:
    """Sums before each block: the sum over blocks lo..hi is
    running[hi + 1] - running[lo]."""
    return np.concatenate(([0.0], np.cumsum(values, dtype=float)))
