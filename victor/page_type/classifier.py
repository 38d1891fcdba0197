"""The page-type classifier: a LightGBM multiclass booster over the
signals (victor/page_type/page_signals.py), its classes TYPES."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from victor.boosters import Booster, BoosterError
from victor.errors import VictorError
from victor.page_type.page_signals import SIGNALS, row, signals

if TYPE_CHECKING:
    from victor.reading.page import Page

TYPES = ("article", "collection", "documentation", "forum", "listing", "product", "service")


@dataclass(frozen=True)
class PageTypeModel:
    """A loaded page-type classifier: a LightGBM multiclass booster over
    SIGNALS, its classes TYPES."""

    booster: Any  # victor.boosters.Booster (lightgbm.Booster in training)

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        """Each row's probability of each of TYPES, one thread (a batch
        runs one cleaner a process)."""
        return np.asarray(self.booster.predict(np.atleast_2d(rows), num_threads=1))


def load(text: str, source: str) -> PageTypeModel:
    """The classifier of a model file's `text` (checked against its
    recorded size and hash already: victor/model/); a one-line
    VictorError naming `source` when LightGBM is missing, the text is no
    LightGBM model, or it reads other signals or types than these."""
    try:
        booster = Booster(text, "the model's page-type classifier")
    except BoosterError as e:
        first_line = str(e).strip().splitlines()[0] if str(e).strip() else "unreadable"
        raise VictorError(f"{source}: not a LightGBM model ({first_line})") from None
    if tuple(booster.feature_name()) != SIGNALS or booster.num_model_per_iteration() != len(TYPES):
        raise VictorError(f"{source}: its signals or types are not the page type's "
                          "(victor/page_type/); retrain it")
    return PageTypeModel(booster)


def type_probabilities(model: PageTypeModel, page: Page, paths: np.ndarray, url: str = "",
                       words: np.ndarray | None = None) -> dict[str, float]:
    """How likely the classifier thinks `page` is of each of TYPES: the
    decision reads the article's, and a corpus builder may sort pages by
    the rest (the jsonl record's `page_type`). `words` as for `signals`."""
    p = model.probabilities(row(signals(page, paths, url, words)))[0]
    return {kind: float(q) for kind, q in zip(TYPES, p)}
