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
from victor.page import Page

__all__ = ["EXTRA_OF", "EXTRAS", "FAMILIES", "FEATURE_NAMES", "KINDS", "compute",
           "select_features", "table"]


def compute(page: Page, config: Config, lm: Any = None,
            names: Sequence[str] | None = None) -> list[dict[str, str]]:
    """One dict a block, feature name to value, of the `names` features
    (select_features, which a run calls once; by default the config's).

    `lm` is a language model with `.block_perplexity(text)`, needed only
    when the perplexity extra is on.
    """
    if names is None:
        names = select_features(config)
    names = tuple(names)
    if not names or not page.blocks:
        return [{} for _ in page.blocks]
    ctx = Context(page, config, names, lm)
    wanted = set(names)
    raw: dict[str, Any] = {}
    for fam in FAMILIES:
        if not wanted.isdisjoint(fam.FEATURES):
            raw.update(fam.compute(ctx))
    numeric, other, labeller = _layout(names, tuple(map(config.values.get, names)),
                                       tuple(map(config.scales.get, names)))
    n = len(page.blocks)
    x = np.empty((len(numeric), n))
    for i, name in enumerate(numeric):
        x[i] = raw[name]
    at = labeller.indices(x)  # a row a block
    # Most blocks share most numeric labels with the rest of the page (the
    # document.* features, container.* zeros, ...): every block's dict is a
    # copy of one holding each feature's commonest label, and gets only the
    # labels that differ from it and the other features (about a quarter
    # of the values), which costs far less than filling every key.
    common = _commonest(at, len(labeller.labels))
    template = dict.fromkeys(names)
    template.update(zip(numeric, labeller.labels[common].tolist()))
    differs = at != common
    columns = np.nonzero(differs)[1]
    changes = zip(np.array(numeric, dtype=object)[columns].tolist(),
                  labeller.labels[at[differs]].tolist())
    others = np.empty((n, len(other)), dtype=object)
    for j, name in enumerate(other):
        others[:, j] = raw[name]
    feats = []
    for count, row in zip(differs.sum(axis=1).tolist(), others.tolist()):
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
