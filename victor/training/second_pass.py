"""Training the second pass (victor/second_pass/) on held-out first passes.

The trees must learn from first-pass probabilities like the ones they will
see: those of pages the CRF had not been trained on. `victor learn` has
them from its site folds (victor.training.crossval: each page's content
probabilities before calibration and its labels decoded as far as the
trees read them, `victor.decoding.widened`, from the fold's model that did
not see the page). Each page is read again here as the cleaner reads it
(its blocks, the first pass's feature columns), and must line up with the
fold's prediction block for block.

The boosters' settings are the recipe's (the config's `second-pass:` key,
victor/config/second_pass.py): rounds, seeds (the boosters' probabilities
are averaged), the first-pass columns left out, LightGBM's parameters.
Blocks are weighted by their words, as word F1 counts them.
"""

from __future__ import annotations

import importlib.metadata
import time
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from victor import features, page_type
from victor.annotation import load_training_page
from victor.config import Config
from victor.errors import VictorError, import_extra
from victor.labels import OTHER
from victor.second_pass import (TYPE_COLUMNS, blended, mean_probability, page_paths,
                                predict_options, with_types)
from victor.second_pass.features import fast_features, feature_names, first_columns
from victor.config.second_pass import SecondPassSettings
from victor.training.dataset import Example
from victor.training.page_type import declared


@dataclass
class RunPage:
    """One page's held-out first pass, as the second pass trains on it."""

    name: str
    page_features: np.ndarray  # PAGE_FEATURES, a row a block
    columns: object            # the first pass's Columns
    content: np.ndarray        # gold: any label but o
    words: np.ndarray          # each block's words, its weight
    # The page-type classifier's input (victor.page_type.row) and the page's
    # type where its NAME.json gives one, else "" (victor/training/page_type.py).
    signals: np.ndarray
    page_type: str
    # Its probability of each type from a page-type classifier of the other
    # folds (victor.training.page_type.cross_fitted_types), which the
    # page-type boosters read; None where none was made.
    held_type: Mapping[str, float] | None = None


def run_page(anno: str, saved: dict[str, list], config: Config,
             selected: Sequence[str]) -> RunPage:
    """A page read as the cleaner reads it, with a held-out first pass of
    it (`saved`: its content probabilities, its labels as the trees read
    them, and the gold labels it was scored against)."""
    page, truth = load_training_page(anno, config)
    if truth != saved["truth"]:
        raise VictorError(f"{anno}: its blocks do not line up with its first pass's "
                          f"({len(truth)} blocks here, {len(saved['truth'])} there)")
    texts = [b.text for b in page.blocks]
    words = np.fromiter(map(len, map(str.split, texts)), dtype=np.float64, count=len(texts))
    columns = features.columns(page, config, None, selected)
    paths = page_paths(columns, page.blocks)
    own = fast_features(paths, texts, np.asarray(saved["content"], dtype=np.float64),
                        saved["labels"], words)
    kind, url = declared(anno)
    return RunPage(anno, own, columns,
                   np.array([lab != OTHER for lab in truth], dtype=np.float32),
                   np.maximum(words, 1).astype(np.float32),
                   page_type.row(page_type.signals(page, paths, url)), kind)


def first_names(pages: Sequence[RunPage], settings: SecondPassSettings) -> list[str]:
    """The first pass's columns the trees read: every column any page has,
    but those the settings leave out, sorted."""
    return sorted({n for pg in pages for n in pg.columns.names} - set(settings.left_out))


def _boosters(pages: Sequence[RunPage], names: Sequence[str], settings: SecondPassSettings,
              threads: int) -> tuple[list, list, int]:
    """The settings' boosters over `pages` (the trees' matrix: PAGE_FEATURES,
    then the first-pass columns `names`), blocks weighted by their words,
    each of another seed; the page-type boosters, which read TYPE_COLUMNS
    after those; and the number of blocks."""
    lightgbm = import_extra("lightgbm", None, "training the second pass")
    X = np.vstack([matrix(pg, names) for pg in pages])
    y = np.concatenate([pg.content for pg in pages])
    weight = np.concatenate([pg.words for pg in pages])

    def boosters(x: np.ndarray, columns: list[str], seeds: int) -> list:
        # A Dataset a seed: its bins are drawn with the seed too.
        return [lightgbm.train({**settings.trees, "verbose": -1, "seed": seed,
                                "num_threads": threads},
                               lightgbm.Dataset(x, y, weight=weight, feature_name=columns,
                                                free_raw_data=True), settings.rounds)
                for seed in range(seeds)]

    plain = boosters(X, feature_names(names), settings.seeds)
    typed = []
    if settings.page_type_seeds:
        X = np.vstack([with_types(matrix(pg, names), pg.held_type) for pg in pages])
        typed = boosters(X, feature_names(names) + list(TYPE_COLUMNS), settings.page_type_seeds)
    return plain, typed, len(X)


def matrix(pg: RunPage, names: Sequence[str]) -> np.ndarray:
    return np.hstack([pg.page_features, first_columns(pg.columns, list(names))])


def first_pass_pages(predictions: Sequence, examples: Mapping[str, Example], config: Config,
                     disabled: Sequence[str] = ()) -> list[RunPage]:
    """Each held-out page read again, with its first pass: `predictions`
    are the folds' (victor.training.crossval.Prediction: the page's `name`,
    its .anno; its `widened` labels, what the trees read; its `content`
    probabilities before calibration). `disabled`: the features the CRF
    was trained without (learn --disable), which the cleaner leaves out of
    the columns the trees read as well."""
    selected = features.select_features(config, disabled)
    return [run_page(p.name, {"content": p.raw_content, "labels": p.widened,
                              "truth": examples[p.name].labels}, config, selected)
            for p in predictions]


def trained_trees(pages: Sequence[RunPage], settings: SecondPassSettings,
                  threads: int = 1) -> tuple[str, dict]:
    """The second pass's boosters over every page's held-out first pass, as
    the model file's text (LightGBM text models one after another), and
    the note a model records of them."""
    started = time.perf_counter()
    names = first_names(pages, settings)
    plain, typed, blocks = _boosters(pages, names, settings, threads)
    boosters = plain + typed
    note = {"pages": len(pages), "blocks": blocks, "weight": "words",
            "features": feature_names(names),
            **({"page-type-boosters": len(typed)} if typed else {}),
            "lightgbm": importlib.metadata.version("lightgbm"),
            "seconds": round(time.perf_counter() - started, 1)}
    return "".join(b.model_to_string() for b in boosters), note


def cross_fitted(pages: Sequence[RunPage], fold: Sequence[int], settings: SecondPassSettings,
                 threads: int = 1) -> list[np.ndarray]:
    """Each page's second-pass probabilities from trees trained, as a
    model's are, on the other folds' pages only: the second pass measured
    on pages of sites neither pass saw. `fold` is each page's first-pass
    fold, so that both passes hold out the same sites. (A small leak, as in
    stacking generally: the first-pass model that scored a training page of
    fold j was trained on the other folds, the test fold among them.)"""
    names = first_names(pages, settings)
    options = predict_options(settings)
    out: list[np.ndarray] = [np.zeros(0)] * len(pages)
    for k in sorted(set(fold)):
        plain, typed, _ = _boosters([pg for pg, f in zip(pages, fold) if f != k], names,
                                    settings, threads)
        for i, f in enumerate(fold):
            if f == k:
                x = matrix(pages[i], names)
                out[i] = blended(mean_probability(plain, x, options),
                                 (mean_probability(typed, with_types(x, pages[i].held_type),
                                                   options) if typed else None),
                                 settings.page_type_share)
    return out


def held_out(predictions: Sequence, examples: Mapping[str, Example], fold: Mapping[str, int],
             config: Config, threads: int = 1,
             disabled: Sequence[str] = ()
             ) -> tuple[list[np.ndarray], list[dict[str, float] | None]]:
    """Each held-out page's second-pass probabilities (`config`'s trees'
    settings cross-fitted on the folds of its first pass, first_pass_pages),
    and its probability of each page type from a
    page-type classifier cross-fitted on the same folds where the config's
    decision reads one (the article bars, readers' sections), else None."""
    settings = config.second_pass
    if settings is None:
        raise VictorError(f"config {config.name} has no second pass")
    pages = first_pass_pages(predictions, examples, config, disabled)
    folds = [fold[p.name] for p in predictions]
    types = with_held_types(pages, folds, settings, threads)
    q = cross_fitted(pages, folds, settings, threads=threads)
    return q, types if settings.reads_page_type else [None] * len(pages)


def with_held_types(pages: Sequence[RunPage], folds: Sequence[int],
                    settings: SecondPassSettings,
                    threads: int = 1) -> list[dict[str, float] | None]:
    """Each page's probability of every type from a page-type classifier
    cross-fitted on the first pass's `folds`, set as the page's held_type
    for the page-type boosters to train on, where the settings read the
    page's type at all; else Nones."""
    if not (settings.reads_page_type or settings.page_type_seeds):
        return [None] * len(pages)
    from victor.training.page_type import cross_fitted_types

    types = cross_fitted_types(np.vstack([pg.signals for pg in pages]),
                               [pg.page_type for pg in pages], folds, threads)
    for pg, kind in zip(pages, types):
        pg.held_type = kind
    return types
