"""A config against a model's record: cleaning follows the record, so a
config given with a model must agree with it key for key (`check_recipe`),
and a model with other decoding keys is made without training where its
parts allow (`with_decoding`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from victor.config import Config, from_record, portable, recipe
from victor.errors import VictorError
from victor.model.folder import RECORD, TrainedModel
from victor.settings import PAGE_TYPE_KEYS, TREE_INPUT_KEYS, key_of

_UNSET = object()
# The recipe's groups (victor.config.recipe), and how their keys are named
# in a config file. Cleaning reads the first three; the other two say how
# the model was trained, and a config given with a model at cleaning time
# is not held to them, as nothing of them applies then.
_GROUPS = (("settings", ""), ("template", "template"), ("decoding", ""), ("crf", "crf."),
           ("second-pass", "second-pass."))
CLEANING = ("settings", "template", "decoding")


@dataclass(frozen=True)
class Difference:
    group: str  # of the recipe (victor.config.recipe)
    name: str   # as in the config file: a key of victor/settings.py, or one inside its mapping
    here: Any   # the config's
    there: Any  # the model's record's


def differences(config: Config, recorded: dict[str, Any],
                groups: tuple[str, ...] = CLEANING) -> list[Difference]:
    """Every key of `config`'s recipe, in `groups`, whose value is not the
    one of the `recorded` recipe."""
    wanted = recipe(config)
    out: list[Difference] = []
    for group, prefix in _GROUPS:
        if group not in groups:
            continue
        a, b = wanted.get(group, _UNSET), recorded.get(group, _UNSET)
        if isinstance(a, dict) and isinstance(b, dict):
            out.extend(Difference(group, *c) for c in _compared(a, b, prefix))
        elif a != b:
            out.append(Difference(group, prefix.rstrip(".") or group, a, b))
    return out


def _compared(a: dict, b: dict, prefix: str) -> list[tuple[str, Any, Any]]:
    out = []
    for key in [*a, *(k for k in b if k not in a)]:
        x, y = a.get(key, _UNSET), b.get(key, _UNSET)
        if isinstance(x, dict) and isinstance(y, dict):
            out.extend(_compared(x, y, f"{prefix}{key}."))
        elif x != y:
            out.append((f"{prefix}{key}", x, y))
    return out


def _needs_training(d: Difference, model: TrainedModel, config: Config) -> bool:
    """Whether a model with the config's value takes training: a feature
    setting or the template does, and so does a second pass the model has
    no trees for, a key that reads the page-type classifier the model
    lacks, and a decoding key its trees read the labels of (Setting.needs
    in victor/settings.py)."""
    if d.group != "decoding":
        return True
    if d.name == "second-pass":
        return config.second_pass is not None
    if (d.name == key_of("page_type_share", "second-pass")
            and isinstance(d.here, (int, float)) and d.here):
        return model.trees is None or not model.trees.typed
    if d.name.startswith(PAGE_TYPE_KEYS):
        return (model.page_type is None and config.second_pass is not None
                and config.second_pass.reads_page_type)
    return (model.trees is not None and config.second_pass is not None
            and d.name in TREE_INPUT_KEYS)


def _shown(value: Any) -> str:
    if value is _UNSET:
        return "unset"
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _differs(d: Difference, model: TrainedModel, more: int = 0) -> str:
    others = f" (and {more} more key{'s' * (more > 1)})" if more else ""
    return (f"key '{d.name}' is {_shown(d.here)} here but {_shown(d.there)} in the model "
            f"{model.name}{others}")


def _retrain(config: Config) -> str:
    return f"victor learn --config {config.path} -o NEW_FOLDER FILES.anno"


def check_recipe(model: TrainedModel, config: Config) -> None:
    """Refuses, in one line, a config that differs from the record of the
    model it is given with: cleaning follows the record, so a key that
    differs would silently not apply."""
    changed = differences(config, model.recipe)
    if not changed:
        return
    if any(_needs_training(d, model, config) for d in changed):
        how = f"or retrain: {_retrain(config)}"
    else:
        how = (f"or make a model with it, without training: victor learn --config "
               f"{config.path} --from-model {model.folder} -o NEW_FOLDER")
    raise VictorError(f"{config.path}: {_differs(changed[0], model, len(changed) - 1)}; "
                      "cleaning follows the model's record: give the model alone (--model), "
                      f"set the key to the model's value, {how}")


def with_decoding(model: TrainedModel, config: Config) -> TrainedModel:
    """The model with `config`'s decoding keys, made in memory without
    training: the same CRF, calibration and trees, and a record whose
    recipe's decoding is the config's (its training settings stay the ones
    the parts were trained with). Refused in one line where the config's
    features or template differ, where it asks for trees the model has none
    of, or changes how the labels its trees read are decoded
    (TREE_INPUT_KEYS)."""
    for d in differences(config, model.recipe):
        if _needs_training(d, model, config):
            raise VictorError(f"{config.path}: {_differs(d, model)}, and a model with it "
                              f"takes training: {_retrain(config)}")
    second = config.second_pass is not None
    # The classifier goes with the bars that read it: the article model,
    # whose bars are the article bars for every page, has none.
    kinds = second and config.second_pass.reads_page_type
    kept = {"crf", *(["second-pass"] if second else []), *(["page-type"] if kinds else [])}
    new_recipe = {**model.recipe, "decoding": recipe(config)["decoding"],
                  "second-pass": model.recipe["second-pass"] if second else None}
    record = {**model.record, "config": config.name, "config_path": portable(config.path),
              "config_sha256": config.digest, "recipe": new_recipe,
              "files": {part: entry for part, entry in model.record["files"].items()
                        if part in kept},
              "made_from": {"model": model.record.get("config"),
                            "decoding": model.recipe["decoding"]}}
    if not second:
        record.pop("second-pass", None)
    new_config = from_record(new_recipe, Path(model.name) / RECORD, config.name, config.digest)
    trees = replace(model.trees, settings=new_config.second_pass) if second else None
    return TrainedModel(None, record, new_config, model.crf, trees,
                        model.trees_text if second else None,
                        {part: path for part, path in model.sources.items()
                         if part in record["files"]},
                        model.page_type if kinds else None,
                        model.page_type_text if kinds else None)
