"""Configs: one YAML file says everything a run depends on; its keys are
those of the one table of settings (victor/settings.py).

A config is loaded once, checked strictly (a misspelt key silently ignored
would train a different model than the user meant), and passed down to
every stage. `--config NAME` means the package's `victor/configs/NAME.yaml`;
a path to a file works too. A config may extend another (`base: NAME`) and
state only how it differs: its mappings (values, scales, regexp, crf) add
to or replace the base's entries, any other key replaces the base's.

A config is a recipe: `victor learn` reads it to train a model, and the
model records it (`recipe`). At cleaning time a config names its model
(`model:`, by default the shipped one of its own name), and the model's
record is what cleaning follows (victor/model/): a config whose keys
differ from the record of the model it names is refused, never half
applied.

The shipped configs, templates and models are package data, found through
importlib.resources so that they are there however Victor was installed.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from victor.config.checking import first_problem, problem, value_of
from victor.config.second_pass import SecondPassSettings, settings_of as second_pass_settings
from victor.errors import VictorError
from victor.settings import default, field_name, level

# PyYAML's safe loader, libyaml's C parser where PyYAML was built with it
# (its wheels are): the same values, read faster, and a config is read by
# every Cleaner and every worker process.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# The config used when none is named: by the commands, the API and the
# scripts.
DEFAULT_CONFIG = "general"


def _package_folder(name: str) -> Path:
    """A folder of package data as a real path: crfsuite and KenLM open
    models by file name. Wheels install unzipped, so this is the folder
    itself."""
    return Path(str(importlib.resources.files("victor").joinpath(name)))


CONFIG_DIR = _package_folder("configs")
TEMPLATE_DIR = _package_folder("templates")
MODEL_DIR = _package_folder("models")
# The folder that holds the package: in a checkout, the project's root,
# against which model metadata records the paths of the files it used.
ROOT = Path(__file__).resolve().parents[2]


def portable(path: Path) -> str:
    """A path inside the project as relative to it, so that a shipped
    model's record does not name the machine it was trained on."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Config:
    """A checked config: a field for each top-level key of the one table
    (victor/settings.py; `field_name` gives a key's field), with the value
    the stages read, and the file it came from. A key a config leaves out
    holds the table's default."""

    name: str
    path: Path
    # sha256 of the config's mapping (with its base's): a model records it.
    digest: str
    parser: str
    tag_delete: frozenset[str]
    template: Path
    model: Path  # the model folder (victor/model/)
    crf_features: tuple[str, ...]
    values: dict[str, tuple[float, ...]]
    scales: dict[str, int]
    regexp: dict[str, tuple[re.Pattern, ...]]
    perplexity_model: Path | None
    crf: dict[str, float]
    keep_above: float | None
    fallback_share: float
    fallback_cap: float
    never_empty_share: float
    unit_bar: float | None
    list_bar: float | None
    repeat_words: int | None
    repeat_blocks: int
    repeat_block_words: int
    line_share: float | None
    line_words: int | None
    favor: dict[str, float]
    comments_drop: float
    second_pass: SecondPassSettings | None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


# The key that names a config's base, and the keys a config does not take
# from its base.
_BASE = next(s.name for s in level() if s.kind == "config")
_OWN = tuple(s.name for s in level() if s.own)


def resolve(name_or_path: str | Path) -> Path:
    """`cleaneval` means victor/configs/cleaneval.yaml; anything with a slash or a
    .yaml ending is a path."""
    s = str(name_or_path)
    if "/" in s or s.endswith((".yaml", ".yml")):
        return Path(s)
    return CONFIG_DIR / f"{s}.yaml"


def load_config(name_or_path: str | Path) -> Config:
    path = resolve(name_or_path)
    raw = _read(path, ())
    return _checked(raw, path, hashlib.sha256(json.dumps(raw, sort_keys=True).encode()).hexdigest())


def _read(path: Path, seen: tuple[Path, ...]) -> dict[str, Any]:
    """The config file's mapping, merged onto its base's."""
    try:
        data = path.read_bytes()
    except OSError as e:
        known = ", ".join(sorted(p.stem for p in CONFIG_DIR.glob("*.yaml")))
        raise VictorError(f"{path}: cannot read config ({e.strerror}); known configs: {known}")
    try:
        raw = yaml.load(data, Loader=_YAML_LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise VictorError(f"{path}:{where} not valid YAML: {getattr(e, 'problem', e)}")
    if not isinstance(raw, dict):
        raise VictorError(f"{path}: a config must be a mapping of keys to values")
    base = raw.pop(_BASE, None)
    if base is None:
        return raw
    found = problem(_BASE, base)
    if found is not None:
        raise VictorError(f"{path}: key '{found[0]}': {found[1]}")
    base_path = resolve(base) if "/" not in base else _locate(base, path, CONFIG_DIR, ".yaml")
    if base_path.resolve() in seen or base_path.resolve() == path.resolve():
        raise VictorError(f"{path}: key '{_BASE}': {base} extends itself")
    merged = _read(base_path, seen + (path.resolve(),))
    for key in _OWN:
        merged.pop(key, None)
    for key, value in raw.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def from_record(recipe: dict[str, Any], source: Path, name: str, digest: str) -> Config:
    """The config a model records (`recipe`): what cleaning with the model
    follows. `source` (the model's record) names it in the errors."""
    try:
        raw = {**recipe["settings"], **recipe["decoding"], "crf": recipe["crf"],
               "model": str(source.parent)}
        if raw.get("second-pass") is not None:
            raw["second-pass"] = {**raw["second-pass"], **recipe["second-pass"]}
    except (KeyError, TypeError) as e:
        raise VictorError(f"{source}: its recipe lacks {e}; retrain the model") from None
    return replace(_checked(raw, source, digest), name=name)


def _checked(raw: dict[str, Any], path: Path, digest: str) -> Config:
    """A Config from a mapping, checked once, whole, against the table:
    `path` names it in the errors."""
    found = first_problem(raw)
    if found is not None:
        raise VictorError(f"{path}: key '{found[0]}': {found[1]}")
    fields: dict[str, Any] = {}
    for s in level():
        if s.name == _BASE:
            continue  # merged when the file was read
        value = raw.get(s.name, default(s.key))
        if s.kind == "path":
            value = value or (path.stem if s.own else None)
            value = _locate(value, path, _package_folder(s.folder), s.suffix) if value else None
        elif s.kind == "table":
            value = None if value is None else second_pass_settings(value)
        else:
            value = value_of(s.key, value)
        fields[field_name(s.key)] = value
    return Config(name=path.stem, path=path, digest=digest, raw=raw, **fields)


def _locate(value: str, config_path: Path, folder: Path, suffix: str) -> Path:
    """A bare name is a file or folder of the package's own (`cleaneval` ->
    victor/templates/cleaneval.tpl, victor/models/cleaneval/); a path is taken relative to the config file,
    so that a user's config can sit beside the user's template and model."""
    if "/" not in value:
        return folder / (value if value.endswith(suffix) else value + suffix)
    p = Path(value)
    return p if p.is_absolute() else config_path.parent / p


def shipped_configs() -> list[str]:
    """The configs of CONFIG_DIR whose model has been trained: what the
    robustness tests, the fuzzer and benchmarks.coverage run over, so that a
    config gets checked as soon as its model is there."""
    return [p.stem for p in sorted(CONFIG_DIR.glob("*.yaml"))
            if (load_config(p.stem).model / "model.json").is_file()]

