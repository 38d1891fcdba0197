"""The second pass's trees (issue 31, docs/notes/second-pass.md): after the CRF's labels
are decoded, gradient-boosted trees decide again, block by block, what is
content, from what the first pass thought of the whole page.

The CRF sees a block and its neighbours. Held-out pages showed what it
cannot see: a block far from the page's densest run of likely content, in a
container whose other blocks are unlikely, shaped like the items of a
teaser list. Trees over page-level features of the first pass's
probabilities (features.py) and the first pass's own feature columns gained
on every collection, on pages of sites neither pass saw (docs/notes/second-pass.md,
"What a shippable second pass costs", has the figures).

The stage is plain functions over a page's first-pass Result:

    second = load(text, settings, source)           # once, with the model (victor/model/)
    q = probabilities(second, columns, blocks, marginals, labels, page_type)   # P(content)

and the bars that decide on `q` are the decision's (victor.decoding.decide).

LightGBM is imported by `load` alone, so that a config without
`second-pass:` (cleaneval) never pays for the import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from victor.decoding.calibration import content_probabilities
from victor.boosters import Booster
from victor.errors import VictorError
from victor.second_pass.features import (FIRST_PREFIX, PAGE_FEATURES, fast_features,
                                       first_columns)
from victor.config.second_pass import SecondPassSettings
from victor.page_type import TYPES
from victor.settings import key_of

if TYPE_CHECKING:
    from victor.columns import Columns
    from victor.reading.blocks import Block

# The columns after the first pass's that the page-type boosters read: the
# page-type classifier's probability of each type, the same on every block.
TYPE_COLUMNS = tuple(f"type.{kind}" for kind in TYPES)


@dataclass(frozen=True)
class SecondPass:
    """A loaded second pass: its boosters (the same trees' settings, each of
    another random draw), the first-pass columns they read after
    PAGE_FEATURES (from the model's own feature names, so that a model and
    the columns it is fed cannot drift apart), the boosters that read
    TYPE_COLUMNS after those, and the config's settings (its bars,
    `--favor`'s bars, the page-type boosters' share and the early-stopping
    margin)."""

    boosters: tuple[Any, ...]  # victor.boosters.Booster (lightgbm.Booster in training)
    first: tuple[str, ...]
    settings: SecondPassSettings
    typed: tuple[Any, ...] = ()

    def predict_options(self) -> dict[str, Any]:
        return predict_options(self.settings)


def predict_options(settings: SecondPassSettings) -> dict[str, Any]:
    """LightGBM's prediction parameters: one thread (a batch runs one
    cleaner a process), and with a margin, a block whose raw score is
    already past margin / 2 either way skips the remaining trees (what it saves and
    costs: docs/notes/second-pass.md)."""
    options: dict[str, Any] = {"num_threads": 1}
    if settings.early_stop is not None:
        options.update(pred_early_stop=True, pred_early_stop_freq=settings.early_stop_every,
                       pred_early_stop_margin=settings.early_stop)
    return options


def load(text: str, settings: SecondPassSettings, source: str) -> SecondPass:
    """A second pass of the trees of a model file's `text` (checked against
    its recorded size and hash already: victor/model/) and the model's
    settings; a one-line VictorError naming `source` when LightGBM is
    missing, the text is no LightGBM model, or its features are not the
    ones this stage computes."""
    try:
        boosters = tuple(Booster(part, "the config's second pass")
                         for part in split_models(text))
    except ValueError as e:  # BoosterError, or no model in the text
        first_line = str(e).strip().splitlines()[0] if str(e).strip() else "unreadable"
        raise VictorError(f"{source}: not a LightGBM model ({first_line})") from None
    names = boosters[0].feature_name()
    first = names[len(PAGE_FEATURES):]
    reads_type = [list(b.feature_name()) == list(names) + list(TYPE_COLUMNS) for b in boosters]
    plain = tuple(b for b, t in zip(boosters, reads_type) if not t)
    typed = tuple(b for b, t in zip(boosters, reads_type) if t)
    if (tuple(names[:len(PAGE_FEATURES)]) != PAGE_FEATURES
            or not all(name.startswith(FIRST_PREFIX) for name in first)
            or any(list(b.feature_name()) != list(names) for b in plain)):
        raise VictorError(f"{source}: its features are not the second pass's page features "
                          "(victor/second_pass/features.py); retrain it")
    if settings.page_type_share and not typed:
        raise VictorError(f"{source}: the config's {key_of('page_type_share', 'second-pass')} "
                          "asks for boosters that read the page type, and these trees have "
                          f"none; retrain them with {key_of('page_type_seeds', 'second-pass')}")
    return SecondPass(plain, tuple(name[len(FIRST_PREFIX):] for name in first), settings, typed)


def split_models(text: str) -> list[str]:
    """A second-pass model file's boosters: LightGBM text models one after
    another, each opening with its line `tree`."""
    parts = [part for part in re.split(r"(?m)^(?=tree$)", text) if part.strip()]
    if not parts or not all(part.startswith("tree\n") for part in parts):
        raise ValueError("no LightGBM text model in it")
    return parts


def mean_probability(boosters: Sequence[Any], x: np.ndarray,
                     options: Mapping[str, Any]) -> np.ndarray:
    """The boosters' mean probability: trees of several random draws
    (LightGBM's row and column sampling) agree better with each other than
    any one does with the next draw (docs/notes/second-pass.md, "Steadier
    trees")."""
    return np.mean([b.predict(x, **options) for b in boosters], axis=0)


def matrix(columns: Columns, blocks: Sequence[Block], marginals: Sequence[Mapping[str, float]], labels: Sequence[str],
           first: Sequence[str]) -> np.ndarray:
    """The trees' input for a page's first pass: PAGE_FEATURES of the page,
    from its blocks, its CRF content probabilities before calibration (what
    the trees were trained on) and its decoded labels, then the first pass's
    columns `first`."""
    p = np.asarray(content_probabilities(marginals), dtype=np.float64)
    own = fast_features(page_paths(columns, blocks), [b.text for b in blocks], p, labels,
                        columns.words)
    if not first:
        return own
    return np.hstack([own, first_columns(columns, list(first))])


def page_paths(columns: Columns, blocks: Sequence[Block]) -> np.ndarray:
    """Each block's path number: the features stage's (Columns.paths),
    or, when no selected feature needed them, the same numbers made here."""
    if columns.paths is not None:
        return columns.paths
    # here, not at the top: victor.config reads this package's settings,
    # and the features' context reads victor.config
    from victor.features.context import paths

    return np.asarray(paths(blocks, class_words=False).templates, np.int64)


def with_types(x: np.ndarray, page_type: Mapping[str, float] | None) -> np.ndarray:
    """The trees' input with TYPE_COLUMNS after it: the page's probability
    of each type on every block (missing where no classifier named one)."""
    kinds = [np.nan if page_type is None else page_type[kind] for kind in TYPES]
    return np.hstack([x, np.tile(np.asarray(kinds, dtype=np.float64), (len(x), 1))])


def blended(plain: np.ndarray, typed: np.ndarray | None, share: float) -> np.ndarray:
    """The trees' probability: the page-type boosters' mean at `share`,
    the others' at the rest."""
    return plain if typed is None or not share else (1 - share) * plain + share * typed


def probabilities(second: SecondPass, columns: Columns, blocks: Sequence[Block],
                  marginals: Sequence[Mapping[str, float]],
                  labels: Sequence[str],
                  page_type: Mapping[str, float] | None = None) -> np.ndarray:
    """Each block's second-pass probability of being content, from the
    first pass's feature `columns` and `marginals`, its `labels` so far and,
    for the page-type boosters, the classifier's `page_type`."""
    if not labels:
        return np.zeros(0)
    x = matrix(columns, blocks, marginals, labels, second.first)
    options = second.predict_options()
    share = second.settings.page_type_share
    typed = (mean_probability(second.typed, with_types(x, page_type), options)
             if second.typed and share else None)
    return blended(mean_probability(second.boosters, x, options), typed, share)
