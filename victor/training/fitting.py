"""Fitting the CRF to examples, and where a model may be written
(victor/training/pipeline.py trains the whole model)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

from victor import crf, features
from victor.config import MODEL_DIR, Config, portable
from victor.errors import VictorError
from victor.settings import key_of
from victor.training.dataset import Example


def fit(examples: Sequence[Example], config: Config, params: dict,
        on_iteration: Callable[[int, float], None] | None = None) -> crf.CRF:
    """A CRF of the config's template fitted to the examples, in memory."""
    template = crf.load_template(config.template)
    check_template(template, config)
    template = replace(template, source=portable(Path(template.source)))
    estimator = crf.CRF(template, on_iteration=on_iteration,
                        **crf.check_params(params, "crf settings"))
    return estimator.fit([e.features for e in examples], [e.labels for e in examples],
                         [e.group.site for e in examples])


def check_template(template: crf.Template, config: Config) -> None:
    """The config's feature list is the one switch of a feature: a template
    line naming a feature the config does not select is an error, not a
    line that silently emits nothing. (`learn --disable` leaves selected
    features out of the examples, and their lines then emit nothing.)"""
    selected = features.select_features(config)
    for line in template.lines:
        for ref in line:
            if not any(ref.matches(name) for name in selected):
                raise VictorError(f"{template.source}: {ref.pattern} is not among the features "
                                  f"{config.path.name} selects ({key_of('crf_features')}); add "
                                  "it there or take the line out")


def check_model_target(path: Path, overwrite: bool, replace_shipped: bool) -> None:
    """Before hours of training, that the model folder may be written
    there: a shipped model is replaced only when asked for in so many
    words, any other model only with `overwrite`, anything that is not a
    model folder never. Missing parent folders are made only when the
    model is saved (victor.model.save), as `victor clean -o` makes its
    folder: a run that fails leaves none behind."""
    from victor.model import RECORD

    shipped = path.resolve().parent == MODEL_DIR.resolve()
    if path.exists():
        if not (path / RECORD).is_file():
            raise VictorError(f"{path}: exists and is no Victor model folder (a model is a "
                              f"folder with its {RECORD}); choose another -o")
        if shipped and not replace_shipped:
            raise VictorError(f"{path}: a model shipped with Victor; write yours elsewhere with "
                              "-o FOLDER, or give --replace-shipped-model to replace it")
        if not shipped and not overwrite:
            raise VictorError(f"{path}: exists; give --overwrite to replace it, or another -o")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:  # made when the model is saved
        folder = folder.parent
    if not folder.is_dir():
        raise VictorError(f"{path}: cannot write model ({folder} is a file, not a folder)")
