"""Numbers to the finite value sets a CRF needs (thesis 3.4).

Each function maps a whole matrix, a column a feature and a row a block,
with a few numpy operations: a page has some ten thousand values, and
the feature table is on the hot path.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def label(value: float) -> str:
    """How a listed value is written in the table: 5, not 5.0."""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def by_values(x: np.ndarray, values: Sequence[Sequence[float]]) -> np.ndarray:
    """Each number to the largest value <= it of its column's ascending list;
    below the first, the first. Returns the labels (strings)."""
    width = max(map(len, values))
    labels = np.array([[*map(label, vs), *[""] * (width - len(vs))] for vs in values], dtype=object)
    at = np.array([np.searchsorted(np.asarray(vs, float), column, side="right")
                   for vs, column in zip(values, np.ascontiguousarray(x.T))]).T
    return labels.ravel()[np.maximum(at - 1, 0) + np.arange(len(values)) * width]


def by_scale(x: np.ndarray, steps: Sequence[int]) -> np.ndarray:
    """A ratio in [0, 1] to a step 0..steps-1 of equal width; 1 falls into
    the top step, not a step of its own."""
    n = np.asarray(steps, np.int64)
    names = np.array([str(i) for i in range(max(steps, default=1))], dtype=object)
    return names[np.clip((x * n).astype(np.int64), 0, n - 1)]


def binary(x: np.ndarray) -> np.ndarray:
    """Non-zero to "1", zero to "0"."""
    return np.array(["0", "1"], dtype=object)[(x != 0).astype(np.int64)]
