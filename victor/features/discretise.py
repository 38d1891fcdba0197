"""Numbers to the finite value sets a CRF needs (thesis 3.4).

A `Labeller` is made once for a selection of features and their value
lists and scales, and then maps a whole page, a row a feature and a
column a block, to the labels' indices with a few numpy operations: a
page has some ten thousand values, and the feature table is on the hot
path. Made once, because writing out the labels and sorting the columns
by kind would otherwise cost as much as mapping the page.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from victor.features.context import BINARY, COUNT, RATIO


def label(value: float) -> str:
    """How a listed value is written in the table: 5, not 5.0."""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return repr(float(value))


class Labeller:
    """Maps numeric features to labels, every feature by its kind:

    - COUNT: the largest value <= the number of its ascending list `values`
      (below the first, the first);
    - RATIO: a share in [0, 1] to a step 0..steps-1 of equal width; 1 falls
      into the top step, not a step of its own;
    - BINARY: non-zero to "1", zero to "0".
    """

    def __init__(self, kinds: Sequence[str], values: Sequence[Sequence[float] | None],
                 steps: Sequence[int | None]) -> None:
        # Every feature's labels one after another in one array, so that
        # each number becomes an index into it: its code plus the offset
        # of its feature's labels.
        labels: list[list[str]] = []
        for kind, vs, n in zip(kinds, values, steps):
            if kind == COUNT:
                labels.append([label(v) for v in vs])
            elif kind == RATIO:
                labels.append([str(i) for i in range(n)])
            elif kind == BINARY:
                labels.append(["0", "1"])
            else:
                raise ValueError(f"not a numeric kind: {kind}")
        self.labels = np.array([s for ls in labels for s in ls], dtype=object)
        self.offsets = np.cumsum([0, *map(len, labels[:-1])])[:, None]
        self.counts = [i for i, k in enumerate(kinds) if k == COUNT]
        self.values = [np.asarray(values[i], float) for i in self.counts]
        self.ratios = [i for i, k in enumerate(kinds) if k == RATIO]
        self.steps = np.array([steps[i] for i in self.ratios], np.int64)[:, None]
        self.binaries = [i for i, k in enumerate(kinds) if k == BINARY]

    def indices(self, x: np.ndarray) -> np.ndarray:
        """Where in `labels` the label of each number of `x` is: `x` has a
        row a feature, in the order given when made; the result a row a
        block."""
        codes = np.empty(x.shape, np.int64)
        if self.counts:
            codes[self.counts] = [np.searchsorted(vs, row, side="right")
                                  for vs, row in zip(self.values, x[self.counts])]
            codes[self.counts] = np.maximum(codes[self.counts] - 1, 0)
        if self.ratios:
            codes[self.ratios] = np.clip((x[self.ratios] * self.steps).astype(np.int64),
                                         0, self.steps - 1)
        if self.binaries:
            codes[self.binaries] = x[self.binaries] != 0
        return (codes + self.offsets).T
