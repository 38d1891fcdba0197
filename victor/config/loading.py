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

from victor.config.crf_params import check_params
from victor.config.second_pass import SecondPassSettings, checked as second_pass_checked
from victor.errors import VictorError
from victor.settings import BY_KEY, DECODING, SETTINGS, TOP_KEYS, bad_value, default

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
    """A checked config. The decoding keys' meanings, kinds and defaults
    are the one table's (victor/settings.py), each under the key's name
    with `_` for `-`."""

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
    crf: dict[str, float]
    perplexity_model: Path | None = None
    keep_above: float | None = default("keep-above")
    fallback_share: float = default("fallback-share")
    fallback_cap: float = default("fallback-cap")
    never_empty_share: float = default("never-empty-share")
    unit_bar: float | None = default("unit-bar")
    list_bar: float | None = default("list-bar")
    repeat_words: int | None = default("repeat-words")
    repeat_blocks: int = default("repeat-blocks")
    repeat_block_words: int = default("repeat-block-words")
    line_share: float | None = default("line-share")
    line_words: int | None = default("line-words")
    favor: dict[str, float] = field(default_factory=lambda: default("favor"))
    comments_drop: float = default("comments-drop")
    second_pass: SecondPassSettings | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


def field_name(key: str) -> str:
    """The Config field of a decoding key."""
    return key.replace("-", "_")


# The top-level keys a config must give (the second pass checks its own).
_REQUIRED = tuple(s.key for s in SETTINGS if s.required and "." not in s.key)


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
        raw = yaml.safe_load(data)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise VictorError(f"{path}:{where} not valid YAML: {getattr(e, 'problem', e)}")
    if not isinstance(raw, dict):
        raise VictorError(f"{path}: a config must be a mapping of keys to values")
    base = raw.pop("base", None)
    if base is None:
        return raw
    if not isinstance(base, str):
        raise VictorError(f"{path}: key 'base': must be the name or path of a config")
    base_path = resolve(base) if "/" not in base else _locate(base, path, CONFIG_DIR, ".yaml")
    if base_path.resolve() in seen or base_path.resolve() == path.resolve():
        raise VictorError(f"{path}: key 'base': {base} extends itself")
    merged = _read(base_path, seen + (path.resolve(),))
    # A config's template and model are its own (by default of its own name).
    merged.pop("template", None)
    merged.pop("model", None)
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
    def bad(key: str, why: str) -> VictorError:
        return VictorError(f"{path}: key '{key}': {why}")

    for key, value in raw.items():
        if key not in TOP_KEYS:
            raise bad(key, f"unknown key; known keys: {', '.join(TOP_KEYS)}")
        why = bad_value(key, value)
        if why is not None:
            raise bad(key, why)
    for key in _REQUIRED:
        if key not in raw:
            raise VictorError(f"{path}: missing required key '{key}'")
    decoding = {}
    for key in DECODING:
        value = raw.get(key, default(key))
        if isinstance(value, dict):
            value = {k: float(v) for k, v in value.items()}
        elif value is not None and BY_KEY[key].kind in ("probability", "share"):
            value = float(value)
        decoding[field_name(key)] = value
    values: dict[str, tuple[float, ...]] = {}
    for feat, lst in raw.get("values", {}).items():
        if (not isinstance(lst, list) or not lst
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in lst)
                or sorted(lst) != lst):
            raise bad(f"values.{feat}", "must be a non-empty ascending list of numbers")
        values[str(feat)] = tuple(lst)
    scales: dict[str, int] = {}
    for feat, steps in raw.get("scales", {}).items():
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
            raise bad(f"scales.{feat}", "must be a whole number of steps, at least 1")
        scales[str(feat)] = steps
    regexp: dict[str, tuple[re.Pattern, ...]] = {}
    for name, patterns in raw.get("regexp", {}).items():
        if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
            raise bad(f"regexp.{name}", "must be a list of regular expressions (strings)")
        compiled = []
        for i, p in enumerate(patterns, 1):
            try:
                compiled.append(re.compile(p))
            except re.error as e:
                raise bad(f"regexp.{name}", f"pattern {i} does not compile: {e}")
        regexp[str(name)] = tuple(compiled)
    crf = dict(raw.get("crf", {}))
    check_params(crf, f"{path}: key 'crf'")
    for i, f in enumerate(raw["crf-features"]):
        if not isinstance(f, str):
            raise bad("crf-features", f"item {i + 1} must be a feature name")
    for i, t in enumerate(raw["tag-delete"]):
        if not isinstance(t, str):
            raise bad("tag-delete", f"item {i + 1} must be a tag name")

    from victor.reading.parser import PARSERS

    parser = raw.get("parser", default("parser"))
    if parser not in PARSERS:
        raise bad("parser", f"unknown parser {parser!r}; choose one of {', '.join(PARSERS)}")
    template_path = _locate(raw.get("template", path.stem), path, TEMPLATE_DIR, ".tpl")
    model_path = _locate(raw.get("model", path.stem), path, MODEL_DIR, "")
    lm = raw.get("perplexity-model")
    second = raw.get("second-pass")
    if second is not None:
        second = second_pass_checked(second, path)
    return Config(
        name=path.stem,
        path=path,
        digest=digest,
        parser=parser,
        tag_delete=frozenset(t.lower() for t in raw["tag-delete"]),
        template=template_path,
        model=model_path,
        crf_features=tuple(raw["crf-features"]),
        values=values,
        scales=scales,
        regexp=regexp,
        crf=crf,
        perplexity_model=_locate(lm, path, MODEL_DIR, "") if lm else None,
        **decoding,
        second_pass=second,
        raw=raw,
    )


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

