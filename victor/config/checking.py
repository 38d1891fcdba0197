"""A config's mapping held to the one table of settings (victor/settings.py):
every key checked by its kind and by how it bears on its neighbours, then
turned into the value the stages read. Nothing here names a key: what a
key is, is the table's."""

from __future__ import annotations

import re
from typing import Any

from victor.config.crf_params import params_problem
from victor.settings import BY_KEY, EMPTY_MAPPINGS, FAVOR, KINDS, level


def first_problem(raw: dict[str, Any], prefix: str = "") -> tuple[str, str] | None:
    """The first key of `raw` (a config's mapping, or that of the table-kind
    key `prefix`) the table refuses, as the key it is wrong at and why;
    None where every key is right."""
    rows = {s.name: s for s in level(prefix)}
    for name, value in raw.items():
        key = f"{prefix}.{name}" if prefix else str(name)
        if name not in rows:
            return key, f"unknown key; known keys: {', '.join(rows)}"
        found = problem(key, value)
        if found is None and rows[name].kind == "table" and value is not None:
            found = first_problem(value, key)
        if found is not None:
            return found
    for name, s in rows.items():
        value = raw.get(name)
        if value is None:
            if s.required:
                return s.key, "missing; a config (with its base) must give it"
            continue
        if any(_number(raw.get(other)) and value > raw[other] for other in s.at_most):
            return s.key, f"must be no higher than {' and '.join(s.at_most)}"
        if s.requires and value and not raw.get(s.requires):
            return s.key, f"needs {s.requires} set too"
    return None


def problem(key: str, value: Any) -> tuple[str, str] | None:
    """What is wrong with `value` as `key`'s (its kind's type and range, and
    the entries of a list or mapping), as the key or `KEY.ENTRY` it is
    wrong at and why; None where it is a value of `key`."""
    s = BY_KEY[key]
    if value is None:
        return None if s.null else (key, f"must be {s.what}, not NoneType")
    types, _ = KINDS[s.kind]
    if isinstance(value, bool) or not isinstance(value, types):
        return key, f"must be {s.what}, not {type(value).__name__}"
    if ((s.kind in ("probability", "share") and not 0 <= value <= 1)
            or (s.kind in ("words", "blocks", "count") and value < 1)
            or (s.kind == "count0" and value < 0) or (s.kind == "margin" and value <= 0)):
        return key, f"must be {s.what}"
    if s.kind == "parser":
        from victor.reading.parser import PARSERS

        if value not in PARSERS:
            return key, f"unknown parser {value!r}; choose one of {', '.join(PARSERS)}"
    if s.kind in ("names", "tags"):
        for i, item in enumerate(value, 1):
            if not isinstance(item, str):
                return key, f"item {i} must be a name"
    if s.kind == "crf-parameters":
        why = params_problem(value)
        return None if why is None else (key, why)
    if s.kind == "parameters":
        if not value or not all(isinstance(k, str) and (_number(v) or isinstance(v, str))
                                for k, v in value.items()):
            return key, f"must be {s.what}"
        if "seed" in value:
            return key, "each booster's seed is its number: give no seed"
    for entry, item in value.items() if isinstance(value, dict) else ():
        why = _bad_entry(s.kind, entry, item)
        if why is not None:
            return (key, why) if s.kind == "bars" else (f"{key}.{entry}", why)
    return None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _bad_entry(kind: str, entry: str, item: Any) -> str | None:
    """Why an entry of a mapping is wrong for its kind, or None."""
    if kind == "bars":
        if entry not in FAVOR:
            return f"unknown setting {entry!r}; known: {', '.join(FAVOR)}"
        if not _number(item) or not 0 <= item <= 1:
            return f"{entry} must be a probability between 0 and 1"
    if kind == "value-lists" and (not isinstance(item, list) or not item
                                  or not all(map(_number, item)) or sorted(item) != item):
        return "must be a non-empty ascending list of numbers"
    if kind == "steps" and (not isinstance(item, int) or isinstance(item, bool) or item < 1):
        return "must be a whole number of steps, at least 1"
    if kind == "patterns":
        if not isinstance(item, list) or not all(isinstance(p, str) for p in item):
            return "must be a list of regular expressions (strings)"
        for i, pattern in enumerate(item, 1):
            try:
                re.compile(pattern)
            except re.error as e:
                return f"pattern {i} does not compile: {e}"
    return None


def value_of(key: str, value: Any) -> Any:
    """A checked value as the stages read it: numbers as floats where the
    kind is a probability, names as tuples, patterns compiled."""
    kind = BY_KEY[key].kind
    if value is None:
        return {} if kind in EMPTY_MAPPINGS else None
    if kind in ("probability", "share", "margin"):
        return float(value)
    if kind in ("words", "blocks", "count", "count0"):
        return int(value)
    if kind == "bars":
        return {name: float(bar) for name, bar in value.items()}
    if kind == "tags":
        return frozenset(t.lower() for t in value)
    if kind == "names":
        return tuple(value)
    if kind == "value-lists":
        return {str(k): tuple(v) for k, v in value.items()}
    if kind == "steps":
        return {str(k): int(v) for k, v in value.items()}
    if kind == "patterns":
        return {str(k): tuple(re.compile(p) for p in v) for k, v in value.items()}
    if isinstance(value, dict):
        return dict(value)
    return value


def plain(value: Any) -> Any:
    """A stage's value as a model's record (JSON) holds it: the inverse of
    value_of, mappings and sets sorted."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items())}
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, re.Pattern):
        return value.pattern
    return value
