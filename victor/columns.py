"""A page's features as columns: what the features stage hands the CRF.
Neither stage owns it, so that the CRF knows nothing of how features are
computed and the features nothing of the CRF."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice

import numpy as np


@dataclass(frozen=True)
class Columns:
    """A page's features a column each, the form the tagger reads: each
    numeric feature as every block's number among its feature's labels, so
    that no string is made a block, and the other features as lists of
    values. `dicts()` gives the dict-a-block form that training, the table
    format and people read."""

    size: int                              # blocks
    names: tuple[str, ...]                 # every feature, in the order of the dicts
    numeric: tuple[str, ...]               # those held as numbers among labels
    at: np.ndarray = field(repr=False)     # a row a block: index into `labels`
    labels: np.ndarray = field(repr=False)  # every numeric feature's labels, one after another
    spans: tuple[tuple[int, int], ...] = field(repr=False)  # each numeric feature's part of `labels`
    values: dict[str, list] = field(repr=False)  # the other features' values, a list each
    # Each block's path number (features/context.py's templates: the same
    # elements with the same classes from <body> down), when the features
    # computed it: the second pass groups blocks by it (victor/second_pass/).
    paths: np.ndarray | None = field(default=None, repr=False)
    # Each block's whitespace-separated tokens (len(text.split())), when the
    # features counted them (victor.reading.text.text_stats): the page
    # type's signals and the second pass's words read them instead of
    # splitting every block's text again.
    words: np.ndarray | None = field(default=None, repr=False)

    def dicts(self) -> list[dict[str, str]]:
        """One dict a block, feature name to value."""
        n, names, numeric, at = self.size, self.names, self.numeric, self.at
        if not names:
            return [{} for _ in range(n)]
        # Most blocks share most numeric labels with the rest of the page (the
        # document.* features, container.* zeros, ...): every block's dict is a
        # copy of one holding each feature's commonest label, and gets only the
        # labels that differ from it and the other features (about a quarter
        # of the values), which costs far less than filling every key.
        common = _commonest(at, len(self.labels))
        template = dict.fromkeys(names)
        template.update(zip(numeric, self.labels[common].tolist()))
        differs = at != common
        columns = np.nonzero(differs)[1]
        changes = zip(np.array(numeric, dtype=object)[columns].tolist(),
                      self.labels[at[differs]].tolist())
        other = tuple(self.values)
        rows = zip(*self.values.values()) if other else (() for _ in range(n))
        feats = []
        for count, row in zip(differs.sum(axis=1).tolist(), rows):
            f = template.copy()
            f.update(islice(changes, count))
            f.update(zip(other, row))
            feats.append(f)
        return feats


def _commonest(at: np.ndarray, width: int) -> np.ndarray:
    """The commonest value of each column of `at`, whose values are below
    `width`."""
    columns = at.shape[1]
    if not columns:
        return np.zeros(0, np.int64)
    counts = np.bincount((at + np.arange(columns) * width).ravel(), minlength=columns * width)
    return counts.reshape(columns, width).argmax(axis=1)
