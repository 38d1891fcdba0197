"""Stage 4: the feature vector of every block (thesis chapter 4).

Each module of this package computes one family of features from the
blocks of a page, all of its features in one pass; statistics more than
one family needs (words, sentences, links, groups) are computed once in a
shared `Context`. Which features reach the CRF is decided once per run
by selection.py (the config's `crf-features` and `extras`, less what
`learn --disable` leaves out); the config's `values` and `scales` say how
numbers become the finite value sets a CRF needs. registry.py lists the
families and their features.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice
from operator import itemgetter
from typing import Any, Sequence

import numpy as np

from victor.config import Config
from victor.features.context import BINARY, COUNT, RATIO, Context
from victor.features.discretise import Labeller
from victor.features.registry import EXTRA_OF, EXTRAS, FAMILIES, FEATURE_NAMES, KINDS
from victor.features.selection import select_features
from victor.reading.page import Page

__all__ = ["EXTRA_OF", "EXTRAS", "FAMILIES", "FEATURE_NAMES", "KINDS", "Columns", "columns", "compute",
           "select_features", "table"]


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

    def coded(self, name: str) -> tuple[list[str], np.ndarray] | None:
        """A numeric feature's labels, and each block's number among
        them; None for the other features."""
        try:
            i = self.numeric.index(name)
        except ValueError:
            return None
        lo, hi = self.spans[i]
        return self.labels[lo:hi].tolist(), self.at[:, i] - lo

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


def compute(page: Page, config: Config, lm: Any = None,
            names: Sequence[str] | None = None) -> list[dict[str, str]]:
    """One dict a block, feature name to value, of the `names` features
    (select_features, which a run calls once; by default the config's).

    `lm` is a language model with `.block_perplexity(text)`, needed only
    when the perplexity extra is on.
    """
    return columns(page, config, lm, names).dicts()


def columns(page: Page, config: Config, lm: Any = None,
            names: Sequence[str] | None = None) -> Columns:
    """The features of compute() as columns, for the tagger."""
    if names is None:
        names = select_features(config)
    names = tuple(names)
    n = len(page.blocks)
    if not names or not n:
        return Columns(n, (), (), np.zeros((n, 0), np.int64), np.zeros(0, object), (), {})
    ctx = Context(page, config, names, lm)
    wanted = set(names)
    raw: dict[str, Any] = {}
    for fam in FAMILIES:
        if not wanted.isdisjoint(fam.FEATURES):
            raw.update(fam.compute(ctx))
    numeric, other, labeller = _layout(names, tuple(map(config.values.get, names)),
                                       tuple(map(config.scales.get, names)))
    x = np.empty((len(numeric), n))
    for i, name in enumerate(numeric):
        x[i] = raw[name]
    spans = tuple(zip(labeller.offsets[:, 0].tolist(),
                      [*labeller.offsets[1:, 0].tolist(), len(labeller.labels)]))
    values = {name: list(raw[name]) for name in other}
    return Columns(n, names, numeric, labeller.indices(x), labeller.labels, spans, values)


def _commonest(at: np.ndarray, width: int) -> np.ndarray:
    """The commonest value of each column of `at`, whose values are below
    `width`."""
    columns = at.shape[1]
    if not columns:
        return np.zeros(0, np.int64)
    counts = np.bincount((at + np.arange(columns) * width).ravel(), minlength=columns * width)
    return counts.reshape(columns, width).argmax(axis=1)


@lru_cache(maxsize=16)
def _layout(names: tuple[str, ...], values: tuple[tuple[float, ...] | None, ...],
            steps: tuple[int | None, ...]) -> tuple[tuple[str, ...], tuple[str, ...], Labeller]:
    """The numeric features among `names` (with the `values` list or
    `steps` of each name), the others, and the Labeller of the numeric
    ones: the same for every page of a run, so made once."""
    numeric = [j for j, n in enumerate(names) if KINDS[n] in (COUNT, RATIO, BINARY)]
    labeller = Labeller([KINDS[names[j]] for j in numeric], [values[j] for j in numeric],
                        [steps[j] for j in numeric])
    return (tuple(names[j] for j in numeric),
            tuple(n for n in names if KINDS[n] not in (COUNT, RATIO, BINARY)), labeller)


def table(page: Page, feature_dicts: list[dict[str, str]]) -> str:
    """The document table the CRF sees (thesis 3.5): a header row, then one
    row a block, the block id first, tab-separated."""
    names = list(feature_dicts[0]) if feature_dicts else []
    lines = ["\t".join(["id", *names])]
    values = itemgetter(*names) if len(names) > 1 else lambda feats: (feats[names[0]],)
    rows = map("\t".join, map(values, feature_dicts))
    lines.extend(map("{}\t{}".format, (b.id for b in page.blocks), rows) if names
                 else (str(b.id) for b in page.blocks))
    return "\n".join(lines) + "\n"
