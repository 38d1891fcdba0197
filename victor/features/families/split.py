"""split.*: how many tags of a kind were passed since the previous block
(thesis 4.1), opening and closing alike. This tells a new paragraph from
a continuation: one <br> rarely ends a paragraph, two usually do."""

from __future__ import annotations

from itertools import chain, repeat

import numpy as np

from victor.features.context import COUNT, Context
from victor.features.tags import CLASSES

FEATURES = {f"split.{name}": COUNT for name in ("p", "br", "hr", "class-inline", "class-block")}
_NONE = len(FEATURES)  # a tag that no split feature counts


def _columns() -> dict[str, int]:
    """Tag, opening or closing, to the index of the feature it counts for."""
    index = {tag: 4 for tag in CLASSES["block"]}
    index.update({tag: 3 for tag in CLASSES["inline"]})
    index.update(p=0, br=1, hr=2)
    index.update({"/" + tag: i for tag, i in index.items()})
    return index


_COLUMN = _columns()


def compute(ctx: Context) -> dict[str, list]:
    n = len(ctx.blocks)
    splits = [b.splits for b in ctx.blocks]
    sizes = np.fromiter(map(len, splits), np.int64, n)
    flat = chain.from_iterable(splits)
    column = np.fromiter(map(_COLUMN.get, flat, repeat(_NONE)), np.int64, int(sizes.sum()))
    block = np.repeat(np.arange(n), sizes)
    counts = np.bincount(block * (_NONE + 1) + column, minlength=n * (_NONE + 1))
    counts = counts.reshape(n, _NONE + 1)
    return {name: counts[:, i] for i, name in enumerate(FEATURES)}
