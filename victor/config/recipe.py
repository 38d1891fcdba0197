"""What a model records of its config (its recipe, victor/model/): the
features' settings, the template's hash, the CRF's training parameters,
the decoding keys of the one table (victor/settings.py) and how the second
pass's trees are trained. A config given with a model must agree with its
record key for key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from victor.config import second_pass as second_pass_settings
from victor.config.crf_params import check_params
from victor.config.checking import plain
from victor.config.loading import MODEL_DIR, Config
from victor.settings import (BY_KEY, DECODING, FEATURE_KEYS, SECOND_PASS_DECODING, TOP_KEYS,
                             field_name)


def unknown_keys(decoding: dict[str, Any]) -> list[str]:
    """The keys of a model record's `decoding` mapping that no config has
    (those of an earlier Victor, renamed since), as `second-pass.KEY` for
    the second pass's, and the keys the table gives a value to that it
    lacks (those added since): such a record must be re-saved."""
    out = [key for key in decoding if key not in TOP_KEYS]
    out += [f"no {key}" for key in DECODING if BY_KEY[key].default is not None
            and key not in decoding]
    second = decoding.get("second-pass")
    if isinstance(second, dict):
        out += [f"second-pass.{key}" for key in second
                if key not in SECOND_PASS_DECODING]
    return out


def with_known_keys(decoding: dict[str, Any], config: Config) -> dict[str, Any]:
    """A recorded `decoding` mapping without the keys no config has, and
    `config`'s value for every key it then lacks: what `victor learn
    --from-model` re-saves a model of an earlier Victor from (it records
    `config`'s decoding anyway)."""
    ours = decoding_settings(config)
    out = {**ours, **{k: v for k, v in decoding.items() if k in TOP_KEYS}}
    second, own = decoding.get("second-pass"), ours.get("second-pass")
    if isinstance(second, dict) and isinstance(own, dict):
        out["second-pass"] = {**own, **{k: v for k, v in second.items()
                                        if k in SECOND_PASS_DECODING}}
    return out


def settings(config: Config) -> dict[str, Any]:
    """What a model's features depend on, resolved from the config: a model
    records it (`recipe`, victor/model/), and cleaning with a config whose
    settings differ is refused, since the same feature names would then
    carry other values than the model learnt. Comments and
    layout of the YAML file do not count; the CRF's own parameters and the
    model path do not either, as they do not change what a block looks
    like. A file of the package's own folder is recorded by its name, so
    that the record does not name the machine: a model cleaning alone
    (--model) scores with the same language model."""
    recorded = {}
    for key in FEATURE_KEYS:
        value = getattr(config, field_name(key))
        if isinstance(value, Path):
            path = value.resolve()
            value = path.name if path.parent == MODEL_DIR.resolve() else str(path)
        if value is not None:
            recorded[key] = plain(value)
    return recorded


def decoding_settings(config: Config) -> dict[str, Any]:
    """How a config decides the CRF's labels (victor/decoding/): every
    decoding key of the table that is on, under the config file's names. A
    model records it, and cleaning follows the model's record."""
    out: dict[str, Any] = {}
    for key in DECODING:
        value = getattr(config, field_name(key))
        if value is not None:  # a key left out of the config is left out of the record
            out[key] = plain(value)
    out["second-pass"] = (None if config.second_pass is None
                          else second_pass_settings.decoding(config.second_pass))
    return out


def crf_params(params: dict[str, Any]) -> dict[str, Any]:
    """The CRF's training parameters as a model records them: checked, in
    the config's spelling (max-iterations), sorted."""
    return {k.replace("_", "-"): v for k, v in sorted(check_params(params, "crf").items())}


def recipe(config: Config, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything a model is made from that its config says, grouped as
    the model records it (victor/model/): the features' settings, the
    template's hash, the CRF's training parameters (`params` where learn's
    command line changed the config's), the decoding, and how the second
    pass's trees are trained. A config given with a model must agree with
    its record key for key."""
    from victor.crf.template import load_template

    return {
        "settings": settings(config),
        "template": load_template(config.template).digest,
        "crf": crf_params(config.crf if params is None else params),
        "decoding": decoding_settings(config),
        "second-pass": (None if config.second_pass is None
                        else second_pass_settings.training(config.second_pass)),
    }

