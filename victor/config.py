"""Configs: one YAML file says everything a run depends on.

A config is loaded once, checked strictly (a misspelt key silently ignored
would train a different model than the user meant), and passed down to
every stage. `--config NAME` means the package's `victor/configs/NAME.yaml`;
a path to a file works too. A config may extend another (`base: NAME`) and
state only how it differs: its mappings (values, scales, regexp, crf) add
to or replace the base's entries, any other key replaces the base's.

A config is a recipe: `victor learn` reads it to train a model, and the
model records it (`recipe`). At cleaning time a config names its model
(`model:`, by default the shipped one of its own name), and the model's
record is what cleaning follows (victor/model.py): a config whose keys
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

from victor.crf.params import check_params
from victor.decoding import FALLBACK_SHARE
from victor.errors import VictorError
from victor.second_pass import settings as second_pass_settings

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
ROOT = Path(__file__).resolve().parent.parent


def portable(path: Path) -> str:
    """A path inside the project as relative to it, so that a shipped
    model's record does not name the machine it was trained on."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Config:
    name: str
    path: Path
    # sha256 of the config's mapping (with its base's): a model records it.
    digest: str
    parser: str
    tag_delete: frozenset[str]
    template: Path
    model: Path  # the model folder (victor/model.py)
    crf_features: tuple[str, ...]
    values: dict[str, tuple[float, ...]]
    scales: dict[str, int]
    regexp: dict[str, tuple[re.Pattern, ...]]
    crf: dict[str, float]
    perplexity_model: Path | None = None
    # victor.decoding.keep_likely: blocks the best path drops but the CRF
    # gives at least this content probability are kept; None: the path alone.
    keep_above: float | None = None
    # victor.decoding.fallback: on a page the path keeps nothing of, the blocks
    # with at least this share of the page's highest content probability.
    fallback_share: float = FALLBACK_SHARE
    # victor.decoding.whole: a code block or data table is kept whole
    # when its blocks' word-weighted content probability reaches this, else
    # dropped whole; None: each block as decoded.
    unit_bar: float | None = None
    # victor.decoding.whole: a list's dropped items come back when its
    # content probability reaches this; None leaves lists to the labels.
    list_bar: float | None = None
    # victor.decoding.drop_repeats: a run of kept blocks that repeats the
    # page's earlier kept text is dropped from this many words; None: kept.
    repeat_words: int | None = None
    # victor.decoding.whole_boxes: a paragraph, heading, item or cell the
    # labels keep part of is kept whole when its kept blocks hold this share
    # of its words, else dropped whole; None: each block as decided.
    line_share: float | None = None
    # ... unless it holds more words than this (one box around a page).
    line_words: int | None = None
    # victor/second_pass/: trees that decide again after decoding, and how
    # they are trained; None: none.
    second_pass: second_pass_settings.SecondPassSettings | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


# key: (type check, description used in the error message)
_KEYS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "parser": (str, "a parser name"),
    "tag-delete": (list, "a list of tag names"),
    "template": (str, "a template name or path"),
    "model": (str, "a model's name or folder"),
    "crf-features": (list, "a list of feature names"),
    "base": (str, "the name or path of the config this one extends"),
    "values": (dict, "a mapping of feature names to ascending number lists"),
    "scales": (dict, "a mapping of feature names to step counts"),
    "regexp": (dict, "a mapping of names to lists of regular expressions"),
    "crf": (dict, "a mapping with c1, c2, max-iterations, far-other-share, min-sites"),
    "perplexity-model": ((str, type(None)), "a language model path or null"),
    "keep-above": ((int, float, type(None)), "a probability between 0 and 1, or null"),
    "fallback-share": ((int, float), "a share between 0 and 1"),
    "unit-bar": ((int, float, type(None)), "a probability between 0 and 1, or null"),
    "list-bar": ((int, float, type(None)), "a probability between 0 and 1, or null"),
    "repeat-words": ((int, type(None)), "a number of words, at least 1, or null"),
    "line-share": ((int, float, type(None)), "a share between 0 and 1, or null"),
    "line-words": ((int, type(None)), "a number of words, at least 1, or null"),
    "second-pass": ((dict, type(None)), "a mapping of the second pass's bars and training "
                                         "settings (victor/second_pass/settings.py), or null"),
}
_REQUIRED = ("tag-delete", "crf-features")

def unknown_keys(decoding: dict[str, Any]) -> list[str]:
    """The keys of a model record's `decoding` mapping that no config has
    (those of an earlier Victor, renamed since), as `second-pass.KEY` for
    the second pass's."""
    out = [key for key in decoding if key not in _KEYS]
    second = decoding.get("second-pass")
    if isinstance(second, dict):
        out += [f"second-pass.{key}" for key in second if key not in second_pass_settings.DECODING_KEYS]
    return out


def with_known_keys(decoding: dict[str, Any], config: Config) -> dict[str, Any]:
    """A recorded `decoding` mapping without the keys no config has, and
    `config`'s value for every key it then lacks: what `victor learn
    --from-model` re-saves a model of an earlier Victor from (it records
    `config`'s decoding anyway)."""
    ours = decoding_settings(config)
    out = {**ours, **{k: v for k, v in decoding.items() if k in _KEYS}}
    second, own = decoding.get("second-pass"), ours.get("second-pass")
    if isinstance(second, dict) and isinstance(own, dict):
        out["second-pass"] = {**own, **{k: v for k, v in second.items()
                                        if k in second_pass_settings.DECODING_KEYS}}
    return out


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
    """A Config from a mapping, checked once, whole: `path` names it in
    the errors."""
    def bad(key: str, why: str) -> VictorError:
        return VictorError(f"{path}: key '{key}': {why}")

    for key, value in raw.items():
        if key not in _KEYS:
            raise bad(key, f"unknown key; known keys: {', '.join(_KEYS)}")
        kind, what = _KEYS[key]
        if not isinstance(value, kind):
            raise bad(key, f"must be {what}, not {type(value).__name__}")
    for key in _REQUIRED:
        if key not in raw:
            raise VictorError(f"{path}: missing required key '{key}'")

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
    keep_above = raw.get("keep-above")
    if isinstance(keep_above, bool) or (keep_above is not None and not 0 <= keep_above <= 1):
        raise bad("keep-above", "must be a probability between 0 and 1, or null")
    fallback_share = raw.get("fallback-share", FALLBACK_SHARE)
    if isinstance(fallback_share, bool) or not 0 <= fallback_share <= 1:
        raise bad("fallback-share", "must be a share between 0 and 1")
    shares = {}
    for key in ("unit-bar", "list-bar", "line-share"):
        share = raw.get(key)
        if isinstance(share, bool) or (share is not None and not 0 <= share <= 1):
            what = "share" if key == "line-share" else "probability"
            raise bad(key, f"must be a {what} between 0 and 1, or null")
        shares[key] = None if share is None else float(share)
    counts = {}
    for key in ("repeat-words", "line-words"):
        count = raw.get(key)
        if isinstance(count, bool) or (count is not None and count < 1):
            raise bad(key, "must be a number of words, at least 1, or null")
        counts[key] = count
    crf = dict(raw.get("crf", {}))
    check_params(crf, f"{path}: key 'crf'")
    for i, f in enumerate(raw["crf-features"]):
        if not isinstance(f, str):
            raise bad("crf-features", f"item {i + 1} must be a feature name")
    for i, t in enumerate(raw["tag-delete"]):
        if not isinstance(t, str):
            raise bad("tag-delete", f"item {i + 1} must be a tag name")

    from victor.reading.parser import PARSERS, DEFAULT_PARSER

    parser = raw.get("parser", DEFAULT_PARSER)
    if parser not in PARSERS:
        raise bad("parser", f"unknown parser {parser!r}; choose one of {', '.join(PARSERS)}")
    template_path = _locate(raw.get("template", path.stem), path, TEMPLATE_DIR, ".tpl")
    model_path = _locate(raw.get("model", path.stem), path, MODEL_DIR, "")
    lm = raw.get("perplexity-model")
    second = raw.get("second-pass")
    if second is not None:
        second = second_pass_settings.checked(second, path)
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
        keep_above=None if keep_above is None else float(keep_above),
        fallback_share=float(fallback_share),
        unit_bar=shares["unit-bar"],
        list_bar=shares["list-bar"],
        repeat_words=counts["repeat-words"],
        line_share=shares["line-share"],
        line_words=counts["line-words"],
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


def settings(config: Config) -> dict[str, Any]:
    """What a model's features depend on, resolved from the config: a model
    records it (`recipe`, victor/model.py), and cleaning with a config whose
    settings differ is refused, since the same feature names would then
    carry other values than the model learnt. Comments and
    layout of the YAML file do not count; the CRF's own parameters and the
    model path do not either, as they do not change what a block looks
    like."""
    recorded = {
        "parser": config.parser,
        "tag-delete": sorted(config.tag_delete),
        "crf-features": list(config.crf_features),
        "values": {k: list(v) for k, v in sorted(config.values.items())},
        "scales": dict(sorted(config.scales.items())),
        "regexp": {k: [p.pattern for p in v] for k, v in sorted(config.regexp.items())},
    }
    if config.perplexity_model is not None:
        # The perplexity feature's values are those of this language model:
        # a model cleaning alone (--model) must score with it, not the
        # shipped one. A model of the package's own folder by its name, so
        # that the record does not name the machine.
        lm = config.perplexity_model.resolve()
        recorded["perplexity-model"] = lm.name if lm.parent == MODEL_DIR.resolve() else str(lm)
    return recorded


def decoding_settings(config: Config) -> dict[str, Any]:
    """How a config decides the CRF's labels (victor/decoding/), under the
    keys of the config file: a model records it, and cleaning follows the
    model's record."""
    out: dict[str, Any] = {"fallback-share": config.fallback_share}
    for key, value in (("keep-above", config.keep_above), ("unit-bar", config.unit_bar),
                       ("list-bar", config.list_bar), ("repeat-words", config.repeat_words),
                       ("line-share", config.line_share), ("line-words", config.line_words)):
        if value is not None:  # a key left out of the config is left out of the record
            out[key] = value
    out["second-pass"] = (None if config.second_pass is None
                          else second_pass_settings.decoding(config.second_pass))
    return out


def crf_params(params: dict[str, Any]) -> dict[str, Any]:
    """The CRF's training parameters as a model records them: checked, in
    the config's spelling (max-iterations), sorted."""
    return {k.replace("_", "-"): v for k, v in sorted(check_params(params, "crf").items())}


def recipe(config: Config, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything a model is made from that its config says, grouped as
    the model records it (victor/model.py): the features' settings, the
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
