"""A trained CRF, and the checks a CRF file passes before it is used.

A CRF saved alone (CRF.save) travels as two files: crfsuite's MODEL and
MODEL.json beside it, which says what it was trained with (template,
config, settings) and the size and hash of MODEL, so that a truncated or
swapped file is refused rather than silently misread. In a model folder
(victor/model/) its metadata is the folder's record's `crf`, and the
record gives the file's size and hash (`opened`)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np
import pycrfsuite

from victor.crf.expansion import ATTRIBUTE_KEYS
from victor.crf.modelfile import MAGIC, Weights, read_weights
from victor.crf.tagger import Tagger
from victor.crf.template import Template, parse_template
from victor.errors import VictorError
from victor.labels import LABELS

if TYPE_CHECKING:
    from victor.columns import Columns


@dataclass
class Model:
    """A trained CRF with the template it was trained with. `path` is None
    for a model fitted in memory and not yet saved."""

    path: Path | None
    metadata: dict
    labels: tuple[str, ...]
    template: Template
    weights: Weights = field(repr=False)
    # crfsuite's model file; None in a model folder's CRF once loaded
    # (victor.model.load), which victor.model.part_bytes reads again.
    data: bytes | None = field(repr=False)
    tagger: Tagger = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.tagger = Tagger(self.weights, self.template)

    def tag(self, feature_dicts: Sequence[dict[str, str]]) -> tuple[list[str], list[dict[str, float]]]:
        return self.tagger.tag(feature_dicts)

    def scores(self, feature_dicts: Sequence[dict[str, str]]) -> np.ndarray:
        return self.tagger.scores(feature_dicts)

    def column_scores(self, columns: Columns) -> np.ndarray:
        return self.tagger.column_scores(columns)

    def best_labels(self, scores: np.ndarray) -> list[str]:
        return self.tagger.best_labels(scores)

    def marginals(self, scores: np.ndarray) -> list[dict[str, float]]:
        return self.tagger.marginals(scores)

    @property
    def temperature(self) -> float:
        """What the content probability's log-odds are divided by
        (victor/decoding/calibration.py); 1 for a model never calibrated."""
        return temperature_of(self.metadata, str(self.path or "the fitted model"))


def temperature_of(metadata: dict, source: str) -> float:
    """The calibration temperature a model's metadata records, checked."""
    value = metadata.get("calibration", {}).get("temperature", 1.0) \
        if isinstance(metadata.get("calibration", {}), dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1000:
        raise VictorError(f"{source}: calibration temperature {value!r} in its metadata is not "
                          "a positive number; retrain (victor learn --calibrate K)")
    return float(value)


def metadata_path(model_path: Path) -> Path:
    return model_path.with_name(model_path.name + ".json")


def read_metadata(path: str | os.PathLike) -> dict:
    """MODEL.json beside a model: what it was trained with and on."""
    path = Path(path)
    meta_path = metadata_path(path)
    try:
        metadata = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise VictorError(f"{meta_path}: model metadata not found; retrain {path}") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise VictorError(f"{meta_path}: unreadable model metadata ({e}); retrain {path}") from None
    if not isinstance(metadata, dict) or not isinstance(metadata.get("template"), dict):
        raise VictorError(f"{meta_path}: not Victor model metadata; retrain {path}")
    return metadata


def load_model(path: str | os.PathLike, expected_config: object = None,
               expected_settings: dict | None = None) -> Model:
    """Opens a model a CRF estimator saved, refusing anything crfsuite might
    crash on or silently misread: the file must match the size and hash its
    metadata recorded, and open with labels. With `expected_config`, the
    metadata's `config` must equal it, and with `expected_settings`
    (victor.config.settings) the settings it was trained with, so that a
    model is not used with features computed another way."""
    path = Path(path)
    meta_path = metadata_path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise VictorError(f"{path}: model file not found; train one first") from None
    except OSError as e:
        raise VictorError(f"{path}: cannot read model ({e.strerror})") from None
    metadata = read_metadata(path)

    if len(data) != metadata.get("model_bytes") or not data.startswith(MAGIC):
        raise VictorError(f"{path}: truncated or corrupt model file ({len(data)} bytes, "
                          f"{metadata.get('model_bytes')} expected); retrain")
    if hashlib.sha256(data).hexdigest() != metadata.get("model_sha256"):
        raise VictorError(f"{path}: model file does not match its metadata "
                          f"(corrupt, or replaced without {meta_path.name}); retrain")
    if expected_config is not None and metadata.get("config") != expected_config:
        raise VictorError(f"{path}: trained for config {metadata.get('config')!r}, "
                          f"not {expected_config!r}; retrain or choose the matching model")
    if expected_settings is not None and "settings" in metadata:
        changed = differences(metadata["settings"], expected_settings)
        if changed:
            shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
            raise VictorError(f"{path}: the config's {shown} differ from what the model was "
                              "trained with; undo the change or retrain")
    return opened(data, metadata, path, meta_path)


def opened(data: bytes, metadata: dict, path: Path, meta_path: Path) -> Model:
    """A Model of a model file's bytes, checked already against the size
    and hash its record gives, and the metadata `meta_path` holds: what
    crfsuite might crash on or silently misread is refused here."""
    if not data.startswith(MAGIC):
        raise VictorError(f"{path}: not a crfsuite model file; retrain")
    if metadata.get("attribute_keys") != ATTRIBUTE_KEYS:
        raise VictorError(f"{meta_path}: model names its attributes by "
                          f"{metadata.get('attribute_keys')!r}, this Victor by "
                          f"{ATTRIBUTE_KEYS!r}; retrain {path}")
    temperature_of(metadata, str(meta_path))
    tagger = pycrfsuite.Tagger()
    try:
        tagger.open(str(path))
        labels = tuple(tagger.labels())
    except (ValueError, OSError) as e:
        raise VictorError(f"{path}: crfsuite cannot open the model ({e}); retrain") from None
    return assemble(data, metadata, path, labels, meta_path)


def assemble(data: bytes, metadata: dict, path: Path | None,
             labels: tuple[str, ...] | None = None, meta_path: Path | None = None) -> Model:
    """A Model from crfsuite's bytes and the metadata that goes with them
    (from `meta_path`, by default the file beside the model), once the
    labels (crfsuite's, else the file's) and the recorded template have
    been checked."""
    source = str(path) if path else "the fitted model"
    meta_source = str(meta_path or metadata_path(path)) if path else source
    weights = read_weights(data, source)
    labels = weights.labels if labels is None else labels
    if not labels or not set(labels) <= set(LABELS):
        raise VictorError(f"{source}: model has labels {list(labels)}, expected some of "
                          f"{', '.join(LABELS)}; retrain")
    try:
        template = parse_template(metadata["template"]["text"], meta_source)
    except (KeyError, TypeError):
        raise VictorError(f"{meta_source}: metadata lacks the template text; "
                          f"retrain {source}") from None
    if template.digest != metadata["template"].get("sha256"):
        raise VictorError(f"{meta_source}: template text does not match its recorded hash; "
                          f"retrain {source}")
    return Model(path, metadata, labels, template, weights, data)


def differences(recorded: dict, current: dict) -> list[str]:
    """The settings that differ, as dotted names (`values.split.p`): a
    model's recorded ones and those of the config it is asked to clean with."""
    out = []
    for key in sorted(set(recorded) | set(current)):
        a, b = recorded.get(key), current.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            out.extend(f"{key}.{k}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
        elif a != b:
            out.append(key)
    return out
