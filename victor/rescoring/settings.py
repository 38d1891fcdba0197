"""A config's `second-pass:` key, checked once when the config is loaded
(victor/config.py), so that a bad value stops with one line naming the
config file rather than a traceback on the first page:

    second-pass:
      model: general-second-pass   # victor/models/general-second-pass.lgbm, or a path
      page-bar: [0.2, 0.4]         # each page's own bar, held between these two
      early-stop: 4                # LightGBM's prediction early stopping margin, or null
      favor:                       # optional: --favor's bars, each both keep and add
        precision: 0.6
        recall: 0.15

or, in place of `page-bar`, one bar for every page:

      keep: 0.5                    # a kept block stays at this probability or more
      add: 0.4                     # a dropped block comes back at this or more
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from victor.decoding import FAVOR_BARS
from victor.errors import VictorError

MODEL_SUFFIX = ".lgbm"
_KEYS = ("model", "page-bar", "keep", "add", "early-stop", "favor")


@dataclass(frozen=True)
class SecondPassSettings:
    model: Path
    # Either each page's own bar (victor.rescoring.page_bar), held between
    # these two, or the fixed bars `keep` and `add`; never both.
    page_bar: tuple[float, float] | None = None
    keep: float | None = None
    add: float | None = None
    early_stop: float | None = None
    # `--favor`'s bar on the trees' probability, by setting: it replaces
    # the config's bars. A setting not named here moves the first pass's
    # calibrated probability instead (victor.decoding.favored).
    favor: dict[str, float] = field(default_factory=dict)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def checked(raw: Any, path: Path, locate: Callable[[str], Path]) -> SecondPassSettings:
    """The settings of a `second-pass:` mapping; `locate` turns the model's
    name or path into a file (a bare name is the package's own model)."""
    def bad(why: str) -> VictorError:
        return VictorError(f"{path}: key 'second-pass': {why}")

    if not isinstance(raw, dict):
        raise bad("must be a mapping with model, page-bar or keep and add, early-stop and favor")
    for key in raw:
        if key not in _KEYS:
            raise bad(f"unknown key {key!r}; known keys: {', '.join(_KEYS)}")
    model = raw.get("model")
    if not isinstance(model, str) or not model:
        raise bad("'model' must be a second-pass model's name or path")
    page_bar = raw.get("page-bar")
    bars: dict[str, float | None] = {"keep": None, "add": None}
    if page_bar is not None:
        if not (isinstance(page_bar, list) and len(page_bar) == 2
                and all(_number(v) and 0 <= v <= 1 for v in page_bar)
                and page_bar[0] <= page_bar[1]):
            raise bad("'page-bar' must be two probabilities, the lower first")
        page_bar = (float(page_bar[0]), float(page_bar[1]))
        for key in bars:
            if raw.get(key) is not None:
                raise bad(f"'{key}' and 'page-bar' exclude each other: name one")
    else:
        for key in bars:
            value = raw.get(key)
            if not _number(value) or not 0 <= value <= 1:
                raise bad(f"'{key}' must be a probability between 0 and 1 "
                          f"(or give page-bar instead)")
            bars[key] = float(value)
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
    return SecondPassSettings(locate(model), page_bar, bars["keep"], bars["add"],
                              None if margin is None else float(margin),
                              {name: float(value) for name, value in favor.items()})
