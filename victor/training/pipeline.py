"""Training the whole pipeline a recipe names, from annotated pages: what
`victor learn --config NAME -o MODEL FILES...` runs.

    the site folds    K CRFs, each trained on the other folds' pages, give
                      every page a held-out first pass (crossval)
    the calibration   a temperature fitted on those held-out blocks
    the second pass   where the recipe has one: trees trained on every
                      page's held-out first pass, as they will see pages
                      the CRF never saw (second_pass)
    the page type     where its decision reads one (the article bars, readers'
                      sections above 0): a classifier
                      of the pages whose NAME.json gives their type
                      (page_type)
    the CRF           trained on every page

The folds are the same for the calibration and the trees. The result is a
model in memory (victor.model.TrainedModel) with its record; victor.model
writes it.
"""

from __future__ import annotations

import platform
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np

from victor import crf, page_type, second_pass
from victor.config import Config, portable, recipe
from victor.errors import VictorError
from victor.model import FORMAT, TrainedModel
from victor.training import crossval, temperature
from victor.training.dataset import Example
from victor.training.fitting import check_template, fit
from victor.training.folds import DEFAULT_FOLDS
from victor.training.page_type import trained_classifier
from victor.training.second_pass import (RunPage, first_pass_pages, trained_trees,
                                         with_held_types)

@dataclass
class Progress:
    """Where training says how far it is: `stage` hears a line at each
    step, `iteration` each L-BFGS iteration of the CRF being trained."""

    stage: Callable[[str], None] = lambda line: None
    iteration: Callable[[int, float], None] | None = None
    started: float = field(default_factory=time.perf_counter)


def train(examples: Sequence[Example], config: Config, params: dict, *,
          folds: int = DEFAULT_FOLDS, split: str = "site", jobs: int = 1,
          disabled: Sequence[str] = (), notes: Mapping[str, object] | None = None,
          progress: Progress | None = None,
          on_folds: Callable[[list[crossval.FoldResult]], None] | None = None) -> TrainedModel:
    """The recipe's whole pipeline trained on `examples` (their features
    computed without the `disabled` ones), `params` the CRF's (the config's
    crf, or learn's command line over it). `folds` 0 trains the CRF alone,
    uncalibrated: only for a recipe without a second pass. `notes` go into
    the record's `training`, such as how the parameters were chosen
    (victor.training.search). `on_folds` hears the folds' held-out first
    passes once they are done, so that `learn --cross-validate K -o MODEL`
    reports the held-out figures of the very folds the model is made from
    instead of training them twice."""
    progress = progress or Progress()
    made_from = checked_recipe(config, params, folds)
    seconds: dict[str, float] = {}
    calibration = note = text = kind_text = kind_note = None
    if folds:
        crossval.folds(list(examples), folds, split)  # too few sites: say so before training
        started = time.perf_counter()
        results = _folds(examples, config, params, folds, split, jobs, progress)
        if on_folds is not None:
            on_folds(results)
        calibration = temperature.calibrate(results, examples, split)
        seconds["folds"] = round(time.perf_counter() - started, 1)
        progress.stage("calibration: " + temperature.calibration_report(calibration))
        if config.second_pass is not None:
            started = time.perf_counter()
            text, note, pages = _trees(results, examples, config, jobs, disabled, progress)
            note["folds"] = folds
            seconds["second-pass"] = round(time.perf_counter() - started, 1)
            if config.second_pass.reads_page_type:
                kind_text, kind_note = _page_type(pages, jobs, progress)
    started = time.perf_counter()
    progress.stage(f"CRF: training on all {len(examples)} pages")
    fitted = fit(examples, config, params, progress.iteration).model_
    seconds["crf"] = round(time.perf_counter() - started, 1)
    progress.stage(f"CRF: {fitted.metadata['iterations']} iterations in {seconds['crf']:.0f} s")
    crf_record = {k: v for k, v in fitted.metadata.items()
                  if k not in ("model_bytes", "model_sha256")}
    if calibration is not None:
        crf_record["calibration"] = calibration
    if disabled:
        crf_record["disabled"] = list(disabled)
    record = {
        "format": FORMAT,
        "config": config.name,
        "config_path": portable(config.path),
        "config_sha256": config.digest,
        "recipe": made_from,
        "files": {},
        "crf": crf_record,
        **({"second-pass": note} if note is not None else {}),
        **({"page-type": kind_note} if kind_note is not None else {}),
        "training": {"pages": [e.name for e in examples], "folds": folds, "split": split,
                     "seconds": {**seconds,
                                 "total": round(time.perf_counter() - progress.started, 1)},
                     "python": platform.python_version(), **(notes or {})},
    }
    model = crf.model.assemble(fitted.data, crf_record, None)
    trees = (None if text is None
             else second_pass.load(text, config.second_pass, "the trees just trained"))
    kinds = (None if kind_text is None
             else page_type.load(kind_text, "the page-type classifier just trained"))
    return TrainedModel(None, record, config, model, trees, text, {}, kinds, kind_text)


def _trees(results: list[crossval.FoldResult], examples: Sequence[Example], config: Config,
           jobs: int, disabled: Sequence[str],
           progress: Progress) -> tuple[str, dict, list[RunPage]]:
    """The second pass's trees, trained on every page's held-out first pass
    from the folds' `results`: their file's text, their note, and the pages
    as read for them."""
    started = time.perf_counter()
    by_name = {e.name: e for e in examples}
    predictions = [p for r in results for p in r.predictions]
    pages = first_pass_pages(predictions, by_name, config, disabled)
    # the page-type boosters learn from each page's type as a classifier of
    # the other folds reads it, as the trees learn from its held-out first pass
    with_held_types(pages, [r.fold for r in results for _ in r.predictions],
                    config.second_pass, jobs)
    progress.stage(f"second pass: {len(pages)} pages' held-out first pass read in "
                   f"{time.perf_counter() - started:.0f} s; training {config.second_pass.seeds} "
                   + (f"and {config.second_pass.page_type_seeds} page-type "
                      if config.second_pass.page_type_seeds else "")
                   + f"boosters of {config.second_pass.rounds} rounds")
    text, note = trained_trees(pages, config.second_pass, jobs)
    progress.stage(f"second pass: {note['blocks']} blocks in {note['seconds']:.0f} s")
    return text, note, pages


def _page_type(pages: Sequence[RunPage], jobs: int, progress: Progress) -> tuple[str, dict]:
    """The page-type classifier over the pages read for the trees (their
    signals, and their type where their NAME.json gives one)."""
    text, note = trained_classifier(np.vstack([pg.signals for pg in pages]),
                                    [pg.page_type for pg in pages], jobs)
    progress.stage(f"page type: the shipped general model's classifier ({note['pages']} "
                   "WCXB pages): no training page's NAME.json gives its type" if "from" in note
                   else f"page type: {note['pages']} pages of a known type in "
                        f"{note['seconds']:.0f} s")
    return text, note


def checked_recipe(config: Config, params: dict, folds: int) -> dict:
    """The recipe a model of `config` trained with `params` on `folds`
    records, once its template reads and names only features the config
    selects: what is wrong with the recipe is said before any page is read."""
    check_template(crf.load_template(config.template), config)
    if config.second_pass is not None and folds < 2:
        raise VictorError(f"{config.path}: its second pass learns from held-out first passes: "
                          "give --calibrate K, K at least 2")
    return recipe(config, params)


def _folds(examples: Sequence[Example], config: Config, params: dict, k: int, split: str,
           jobs: int, progress: Progress) -> list[crossval.FoldResult]:
    """The K site folds' held-out first passes, without the second pass
    (crossval.score_fold)."""
    progress.stage(f"{k} site folds: {k} CRFs, each on the other folds' pages"
                   + (f", {jobs} at a time" if jobs > 1 else ""))
    started = time.perf_counter()

    def done(result: crossval.FoldResult) -> None:
        progress.stage(f"fold {result.fold}/{k}: {result.pages} held-out pages, word F1 "
                       f"{result.words.f1:.3f} of the CRF alone "
                       f"({time.perf_counter() - started:.0f} s so far)")

    with tempfile.TemporaryDirectory(prefix="victor-cv-") as workdir:
        return crossval.cross_validate(list(examples), config, k, params, workdir, jobs, split,
                                       on_fold=done, on_iteration=progress.iteration)
