"""The second pass (issue 31, docs/second-pass.md): after the CRF's labels
are decoded, gradient-boosted trees decide again, block by block, what is
content, from what the first pass thought of the whole page.

The CRF sees a block and its neighbours. Held-out pages showed what it
cannot see: a block far from the page's densest run of likely content, in a
container whose other blocks are unlikely, shaped like the items of a
teaser list. Trees over page-level features of the first pass's
probabilities (features.py) and the first pass's own feature columns gave,
on pages of sites neither pass saw, WCXB +0.017 bag-of-words F1, Dragnet
+0.028 and CleanEval +0.011 LCS word F1 at 100 trees of 31 leaves
(docs/second-pass.md, "What a shippable second pass costs").

The stage is plain functions over a page's first-pass Result:

    second = load(config.second_pass)               # once, with the config
    q = probabilities(result, second)               # a block's P(content)
    labels = decide(result.labels, result.marginals, q, result.texts, second.settings, favor)

LightGBM is imported by `load` alone, so that a config without
`second-pass:` (cleaneval) never pays for the import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from victor.decoding import content_label
from victor.decoding.calibration import content_probabilities
from victor.errors import VictorError, import_extra
from victor.labels import OTHER
from victor.rescoring.features import (FIRST_PREFIX, PAGE_FEATURES, fast_features,
                                       first_columns)
from victor.rescoring.settings import SecondPassSettings

# LightGBM's prediction early stopping looks at the raw score every this
# many trees (the research's setting, research/second_pass.py `early_stop`).
EARLY_STOP_EVERY = 10


@dataclass(frozen=True)
class SecondPass:
    """A loaded second pass: its boosters (the same trees' settings, each of
    another random draw), the first-pass columns they read after
    PAGE_FEATURES (from the model's own feature names, so that a model and
    the columns it is fed cannot drift apart), and the config's settings
    (its bars, `--favor`'s bars and the early-stopping margin)."""

    boosters: tuple[Any, ...]  # lightgbm.Booster
    first: tuple[str, ...]
    settings: SecondPassSettings

    def predict_options(self) -> dict[str, Any]:
        return predict_options(self.settings.early_stop)


def predict_options(early_stop: float | None) -> dict[str, Any]:
    """LightGBM's prediction parameters: one thread (a batch runs one
    cleaner a process), and with a margin, a block whose raw score is
    already past margin / 2 either way skips the remaining trees (half the
    trees' time for Dragnet -0.0001 at margin 4, docs/second-pass.md)."""
    options: dict[str, Any] = {"num_threads": 1}
    if early_stop is not None:
        options.update(pred_early_stop=True, pred_early_stop_freq=EARLY_STOP_EVERY,
                       pred_early_stop_margin=early_stop)
    return options


def load(settings: SecondPassSettings) -> SecondPass:
    """The config's second pass with its trees read from the model file;
    a one-line VictorError when LightGBM is missing, the file cannot be
    read, or its features are not the ones this stage computes."""
    lightgbm = import_extra("lightgbm", None, "the config's second pass")
    path = settings.model
    if not path.is_file():
        raise VictorError(f"{path}: no such second-pass model (train one with "
                          "learn.py --second-pass)")
    try:
        boosters = tuple(lightgbm.Booster(model_str=part) for part in split_models(
            path.read_text(encoding="utf-8")))
    except (lightgbm.basic.LightGBMError, UnicodeDecodeError, ValueError) as e:
        first_line = str(e).strip().splitlines()[0] if str(e).strip() else "unreadable"
        raise VictorError(f"{path}: not a LightGBM model ({first_line})") from None
    names = boosters[0].feature_name()
    first = names[len(PAGE_FEATURES):]
    if (tuple(names[:len(PAGE_FEATURES)]) != PAGE_FEATURES
            or not all(name.startswith(FIRST_PREFIX) for name in first)
            or any(b.feature_name() != names for b in boosters)):
        raise VictorError(f"{path}: its features are not the second pass's page features "
                          "(victor/rescoring/features.py); retrain it")
    return SecondPass(boosters, tuple(name[len(FIRST_PREFIX):] for name in first), settings)


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
    any one does with the next draw (docs/second-pass.md, "Steadier
    trees")."""
    return np.mean([b.predict(x, **options) for b in boosters], axis=0)


def matrix(result, first: Sequence[str]) -> np.ndarray:
    """The trees' input for a first-pass Result: PAGE_FEATURES of the page,
    from its blocks, its CRF content probabilities before calibration (what
    the trees were trained on) and its decoded labels, then the first pass's
    columns `first`."""
    p = np.asarray(content_probabilities(result.marginals), dtype=np.float64)
    own = fast_features(page_paths(result.columns, result.page.blocks), result.texts, p,
                        result.labels)
    if not first:
        return own
    return np.hstack([own, first_columns(result.columns, list(first))])


def page_paths(columns, blocks) -> np.ndarray:
    """Each block's path number: the features stage's (Columns.paths),
    or, when no selected feature needed them, the same numbers made here."""
    if columns.paths is not None:
        return columns.paths
    # here, not at the top: victor.config reads this package's settings,
    # and the features' context reads victor.config
    from victor.features.context import paths

    return np.asarray(paths(blocks, class_words=False).templates, np.int64)


def probabilities(result, second: SecondPass) -> np.ndarray:
    """Each block's second-pass probability of being content."""
    if not result.labels:
        return np.zeros(0)
    return mean_probability(second.boosters, matrix(result, second.first),
                            second.predict_options())


def decide(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
           q: Sequence[float], texts: Sequence[str], settings: SecondPassSettings,
           favor: str | None = None) -> list[str]:
    """The labels decided again by the config's bars (`--favor`'s where the
    config gives one for `favor`), the one place the cleaner, the folds and
    the benchmark decide a page after the trees."""
    return relabel(labels, marginals, q, *bars(settings, favor, q, texts))


def bars(settings: SecondPassSettings, favor: str | None, q: Sequence[float],
         texts: Sequence[str]) -> tuple[float, float]:
    """(keep, add) for a page: `--favor`'s bar where the config gives one,
    else the config's bars, each lowered to the page's own bar (page_bar)
    where the config names a `page-floor`."""
    bar = settings.favor.get(favor) if favor is not None else None
    if bar is not None:
        return bar, bar
    if settings.page_floor is None:
        return settings.keep, settings.add
    words = np.fromiter(map(len, map(str.split, texts)), dtype=np.float64, count=len(texts))
    own = page_bar(np.asarray(q, dtype=np.float64), words, settings.page_floor, settings.keep)
    return min(own, settings.keep), min(own, settings.add)


def page_bar(q: np.ndarray, words: np.ndarray, low: float, high: float) -> float:
    """The bar that keeps the set of blocks of the highest expected word F1
    on this page, taking the trees' probabilities `q` at their word: kept
    the k most likely blocks, F1 is about 2 * sum(q * words over those k)
    over (their words + sum(q * words over the page)). One bar for every
    page is too high where the content is small among many middling
    blocks (a product's few lines, a listing's short entries); WCXB's
    score is a mean over pages, and a page's own bar gained it 0.0035 of
    bag-of-words F1 on held-out sites (docs/second-pass.md, "A bar for
    each page").

    Held between `low` and `high`: a bar raised above the config's own
    dropped headlines, which word F1 barely sees. Blocks under `low`
    count for nothing in the page's expected content: that is where the
    trees' early stopping leaves boilerplate, at a probability that is a
    margin, not a frequency, and counted it lowered the bar on pages of
    much boilerplate (Dragnet's articles kept their comments). A page the
    trees expect no content on gets `high`."""
    counted = np.where(q >= low, q, 0.0)
    expected = float(np.dot(counted, words))
    if expected <= 0:
        return high
    order = np.argsort(-q, kind="stable")
    f1 = 2 * np.cumsum(counted[order] * words[order]) / (np.cumsum(words[order]) + expected)
    return float(min(max(q[order][int(np.argmax(f1))], low), high))

def relabel(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
            q: Sequence[float], keep: float, add: float) -> list[str]:
    """The labels decided again by two bars on the second pass's probability
    `q`: a block the first pass kept stays (with its label) while q is at
    least `keep`; a block it dropped comes back at `add` or more. Two bars,
    not one, because the research's nested scan chose them apart (every
    site fold chose keep 0.35, add 0.3 on the other folds' pages). A block
    that comes back takes its most probable content label from the CRF's
    marginals (victor.decoding.content_label), as keep-above's blocks do,
    where the research made it a paragraph: the text is the same, and a
    heading stays a heading.

    Bars that would keep no block of a page leave its labels as they were:
    decoding never empties a page with text (victor.decoding.floor), and
    the second pass must not either."""
    out: list[str] = []
    for lab, m, x in zip(labels, marginals, q):
        if lab != OTHER:
            out.append(lab if x >= keep else OTHER)
        elif x >= add:
            out.append(content_label(m, bool(out) and out[-1] != OTHER))
        else:
            out.append(OTHER)
    return out if any(lab != OTHER for lab in out) else list(labels)
