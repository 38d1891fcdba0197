"""The feature vectors of a page's blocks: each family that computes a
selected feature runs once over the page, and its numbers become the
finite values the CRF reads (as columns for the tagger, as dicts or a
table for people)."""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from victor.columns import Columns
from victor.features.context import BINARY, COUNT, RATIO, Context
from victor.features.discretise import Labeller
from victor.features.registry import FAMILIES, KINDS
from victor.features.selection import select_features
from victor.reading.page import Page

if TYPE_CHECKING:  # for type hints only: a stage imported alone loads no config
    from victor.config import Config


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
    known = vars(ctx).get("paths")  # computed only when a family needed it
    counted = vars(ctx).get("text")  # likewise
    return Columns(n, names, numeric, labeller.indices(x), labeller.labels, spans, values,
                   None if known is None else np.asarray(known.templates, np.int64),
                   None if counted is None else counted.token_count)


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
