"""Which features reach the CRF: decided here, once per config, for
training, cleaning, ablation (`learn --disable`) and `--format table` alike.

The config's list of the CRF's features (victor/settings.py) names
features or patterns (`container.*`, victor.wildcards), and is the one
switch of a feature; `disabled`
patterns (learn's --disable, recorded in the model) take features out
again. The template then says how the CRF sees the selected features, and
cannot bring back one left out.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Sequence

from victor.errors import VictorError
from victor.features.context import COUNT, RATIO
from victor.features.registry import FEATURE_NAMES, KINDS, REGEXP_NAMES
from victor.settings import key_of
from victor.wildcards import expand, matches

if TYPE_CHECKING:  # for type hints only: a stage imported alone loads no config
    from victor.config import Config


def select_features(config: Config, disabled: Sequence[str] = ()) -> tuple[str, ...]:
    """The features the config sends to the CRF, in table order, less the
    `disabled` ones. Everything the selected features need from the config
    must be there, and nothing may name a feature that does not exist: a
    typo would silently change the model."""
    def bad(key: str, why: str) -> VictorError:
        return VictorError(f"{config.path}: key '{key}': {why}")

    chosen = set()
    for entry in config.crf_features:
        hits = expand(entry, FEATURE_NAMES)
        if not hits:
            raise bad(key_of("crf_features"), f"unknown feature '{entry}'{_suggest(entry)}")
        chosen.update(hits)
    selected = tuple(n for n in FEATURE_NAMES if n in chosen)
    for key, kind, table, what in ((key_of("values"), COUNT, config.values, "a list of values"),
                                   (key_of("scales"), RATIO, config.scales, "a number of steps")):
        for n in table:
            if KINDS.get(n) != kind:
                raise bad(f"{key}.{n}", f"not a feature discretised by {key}{_suggest(n)}")
        for n in selected:
            if KINDS[n] == kind and n not in table:
                raise bad(f"{key}.{n}", f"missing: the selected feature {n} needs {what}")
    patterns = key_of("regexp")
    for name in config.regexp:
        if name not in REGEXP_NAMES:
            raise bad(f"{patterns}.{name}", f"no feature uses it; known: {', '.join(REGEXP_NAMES)}")
    for n in selected:
        if n.startswith("regexp.") and n[7:] not in config.regexp:
            raise bad(f"{patterns}.{n[7:]}", f"missing: the selected feature {n} needs patterns")
    return _without(selected, disabled)


def _without(selected: tuple[str, ...], disabled: Sequence[str]) -> tuple[str, ...]:
    """A disabled name that matches no selected feature is an error: a typo
    (`duplicate.*` for `duplicate-count`) would otherwise give a run that
    silently disabled nothing."""
    for pattern in disabled:
        if not expand(pattern, selected):
            families = {n.rsplit(".", 1)[0] + ".*" for n in selected if "." in n}
            close = difflib.get_close_matches(pattern, sorted(set(selected) | families), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise VictorError(f"--disable {pattern}: the config selects no feature of that "
                              f"name{hint}")
    return tuple(n for n in selected if not any(matches(p, n) for p in disabled))


def _suggest(name: str) -> str:
    close = difflib.get_close_matches(name, FEATURE_NAMES, n=1)
    return f"; did you mean {close[0]}?" if close else "; docs/features.md lists them"
