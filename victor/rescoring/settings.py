"""A config's `second-pass:` key, checked once when the config is loaded
(victor/config.py), so that a bad value stops with one line naming the
config file rather than a traceback on the first page:

    second-pass:
      model: general-second-pass   # victor/models/general-second-pass.lgbm, or a path
      keep: 0.4                    # a kept block stays at this probability or more
      add: 0.35                    # a dropped block comes back at this or more
      page-floor: 0.2              # optional: a page may lower both to its own bar, to this
      early-stop: 4                # LightGBM's prediction early stopping margin, or null
      favor:                       # optional: --favor's bars, each both keep and add
        precision: 0.6
        recall: 0.15
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from victor.decoding import FAVOR_BARS
from victor.errors import VictorError

MODEL_SUFFIX = ".lgbm"
_KEYS = ("model", "keep", "add", "page-floor", "early-stop", "favor")


@dataclass(frozen=True)
class SecondPassSettings:
    model: Path
    keep: float
    add: float
    early_stop: float | None = None
    # `--favor`'s bar on the trees' probability, by setting: it replaces
    # both `keep` and `add`. A setting not named here moves the first
    # pass's calibrated probability instead (victor.decoding.favored).
    favor: dict[str, float] = field(default_factory=dict)
    # Where named, each page may lower `keep` and `add` to a bar of its
    # own (victor.decoding.page_bar), down to this.
    page_floor: float | None = None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def checked(raw: Any, path: Path, locate: Callable[[str], Path]) -> SecondPassSettings:
    """The settings of a `second-pass:` mapping; `locate` turns the model's
    name or path into a file (a bare name is the package's own model)."""
    def bad(why: str) -> VictorError:
        return VictorError(f"{path}: key 'second-pass': {why}")

    if not isinstance(raw, dict):
        raise bad("must be a mapping with model, keep, add, page-floor, early-stop and favor")
    for key in raw:
        if key not in _KEYS:
            raise bad(f"unknown key {key!r}; known keys: {', '.join(_KEYS)}")
    model = raw.get("model")
    if not isinstance(model, str) or not model:
        raise bad("'model' must be a second-pass model's name or path")
    bars = {}
    for key in ("keep", "add"):
        value = raw.get(key)
        if not _number(value) or not 0 <= value <= 1:
            raise bad(f"'{key}' must be a probability between 0 and 1")
        bars[key] = float(value)
    floor = raw.get("page-floor")
    if floor is not None and (not _number(floor) or not 0 <= floor <= min(bars.values())):
        raise bad("'page-floor' must be a probability no higher than keep and add, or null")
    favor = raw.get("favor") or {}
    if not isinstance(favor, dict):
        raise bad("'favor' must map precision and recall to probabilities")
    for name, value in favor.items():
        if name not in FAVOR_BARS:
            raise bad(f"'favor': unknown setting {name!r}; known: {', '.join(FAVOR_BARS)}")
        if not _number(value) or not 0 <= value <= 1:
            raise bad(f"'favor': {name} must be a probability between 0 and 1")
    margin = raw.get("early-stop")
    if margin is not None and (not _number(margin) or margin <= 0):
        raise bad("'early-stop' must be a positive margin (LightGBM's "
                  "pred_early_stop_margin), or null for every tree")
    return SecondPassSettings(locate(model), bars["keep"], bars["add"],
                              None if margin is None else float(margin),
                              {name: float(value) for name, value in favor.items()},
                              None if floor is None else float(floor))
