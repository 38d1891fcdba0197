"""Fitting a model to examples, and writing it with what it needs to be
used: the settings its features were computed with and the pages it saw."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Callable, Mapping, Sequence

from victor import crf, features
from victor.config import MODEL_DIR, ROOT, Config, decoding_settings, settings
from victor.errors import VictorError
from victor.training.dataset import Example


def train(examples: Sequence[Example], config: Config, model_path: str | os.PathLike,
          params: dict, on_iteration: Callable[[int, float], None] | None = None,
          disabled: Sequence[str] = (), notes: Mapping[str, object] | None = None) -> dict:
    """Fits a model and writes it with what it was trained with and on;
    returns the metadata written. The examples' features are the config's
    less the `disabled` ones, which the model records so that cleaning with
    it computes the same. `notes` are more keys for the metadata, such as
    how the parameters were chosen (victor.training.search)."""
    metadata = {
        "config": config.name,
        "config_path": _portable(config.path),
        "config_sha256": config.digest,
        "settings": settings(config),
        "decoding": decoding_settings(config),
        "training_pages": [e.name for e in examples],
        **({"disabled": list(disabled)} if disabled else {}),
        **(notes or {}),
    }
    return fit(examples, config, params, on_iteration).save(model_path, metadata)


def fit(examples: Sequence[Example], config: Config, params: dict,
        on_iteration: Callable[[int, float], None] | None = None) -> crf.CRF:
    """A CRF of the config's template fitted to the examples, in memory."""
    template = crf.load_template(config.template)
    check_template(template, config)
    template = replace(template, source=_portable(Path(template.source)))
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
                                  f"{config.path.name} selects (crf-features); add it there "
                                  "or take the line out")


def _portable(path: Path) -> str:
    """A path inside the project as relative to it, so that shipped model
    metadata does not name the machine it was trained on."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def check_model_target(path: Path, overwrite: bool, replace_shipped: bool) -> None:
    """Before hours of training, that the model may be written there: a
    shipped model is replaced only when asked for in so many words, any
    other model file only with `overwrite`, and no folders are made (a
    mistyped -o would leave them behind)."""
    shipped = path.resolve().parent == MODEL_DIR.resolve()
    if path.exists():
        if shipped and not replace_shipped:
            raise VictorError(f"{path}: a model shipped with Victor; write yours elsewhere with "
                              "-o FILE, or give --replace-shipped-model to replace it")
        if not shipped and not overwrite:
            raise VictorError(f"{path}: exists; give --overwrite to replace it, or another -o")
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        raise VictorError(f"{path}: cannot write model ({folder} is a file, not a folder)")
    if not folder.exists():
        raise VictorError(f"{path}: cannot write model (no folder {folder}; make it first)")
