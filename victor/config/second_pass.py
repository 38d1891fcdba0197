"""A config's `second-pass:` key, checked once when the config is loaded
(victor/config/loading.py), its keys those of the one table
(victor/settings.py), so that a bad value stops with one line naming the
config file rather than a traceback on the first page. It holds the second
pass's every setting: the bars the decision cuts the trees' probability at
(cleaning), and how `victor learn` trains the trees (training). The trees
themselves are a file of the model folder (victor/model/), which records
these settings beside them.

Its keys are the table's `second-pass.KEY` rows (victor/settings.py, shown
in docs/settings.md), and the shipped configs (victor/configs/) use them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from victor.errors import VictorError
from victor.settings import SECOND_PASS_DECODING, SECOND_PASS_TRAINING, bad_value

# What the decision reads at cleaning time, and what training reads.
DECODING_KEYS = SECOND_PASS_DECODING
_ARTICLE_KEYS = ("above", "keep", "add", "lowest-page-bar")


@dataclass(frozen=True)
class ArticleBars:
    """The bars of a page the model's page-type classifier (victor/page_type/)
    calls an article with a probability of `above` or more: one bar does not
    serve every page, and an article's text stands apart from what is
    around it better than a listing's items do (docs/notes/second-pass.md, "Page
    types")."""

    above: float
    keep: float
    add: float
    lowest_page_bar: float | None = None
TRAINING_KEYS = SECOND_PASS_TRAINING
_KEYS = DECODING_KEYS + TRAINING_KEYS


@dataclass(frozen=True)
class SecondPassSettings:
    keep: float
    add: float
    early_stop: float | None = None
    # `--favor`'s bar on the trees' probability, by setting: it replaces
    # both `keep` and `add`. A setting not named here moves the first
    # pass's calibrated probability instead (victor.decoding.favored).
    favor: dict[str, float] = field(default_factory=dict)
    # Where named, each page may lower `keep` and `add` to a bar of its
    # own (victor.decoding.page_bar), down to this.
    lowest_page_bar: float | None = None
    # With `early_stop`: how often LightGBM looks at a block's raw score.
    early_stop_every: int | None = None
    # Training (victor/training/second_pass.py): trees a booster, boosters
    # (seeds 0, 1, ...), the first pass's columns left out, and LightGBM's
    # parameters, each booster's seed set apart.
    rounds: int = 0
    seeds: int = 0
    left_out: tuple[str, ...] = ()
    trees: dict[str, Any] = field(default_factory=dict)
    # Other bars for the pages the model's page-type classifier calls
    # articles; None: every page by the bars above.
    article_bars: ArticleBars | None = None
    # The probability of an article from which a comment section's blocks
    # go, and of a product from which a review section's do
    # (victor.decoding.without_sections): comments are the body of a forum
    # and no part of an article. 0: on every page; None: never.
    comment_sections: float | None = None
    review_sections: float | None = None
    # The CRF's content probability from which a block the first pass kept
    # stays whatever the trees say (victor.decoding.relabel); None: none.
    first_pass_stays: float | None = None
    # Boosters trained with the page type's seven probabilities as seven
    # more columns (seeds 0, 1, ...), and their mean's share of the trees'
    # probability at cleaning: the type tells the trees that a listing's
    # short items are its content and an article's are not, but trees that
    # read it alone drop a long page the classifier misreads (docs/notes/second-pass.md,
    # "The page type beside the trees").
    page_type_seeds: int = 0
    page_type_share: float = 0.0

    @property
    def reads_page_type(self) -> bool:
        """Whether deciding a page asks the model's page-type classifier."""
        return (self.article_bars is not None or bool(self.comment_sections)
                or bool(self.review_sections) or self.page_type_share > 0)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def checked(raw: Any, path: Path) -> SecondPassSettings:
    """The settings of a `second-pass:` mapping."""
    def bad(why: str) -> VictorError:
        return VictorError(f"{path}: key 'second-pass': {why}")

    if not isinstance(raw, dict):
        raise bad(f"must be a mapping with {', '.join(_KEYS)}")
    for key in raw:
        if key == "model":
            raise bad("'model' is no longer read: the trees are a file of the model folder "
                      "that victor learn writes (docs/models.md); take the line out")
        if key not in _KEYS:
            raise bad(f"unknown key {key!r}; known keys: {', '.join(_KEYS)}")
    bars = {}
    for key in ("keep", "add"):
        value = raw.get(key)
        if not _number(value) or not 0 <= value <= 1:
            raise bad(f"'{key}' must be a probability between 0 and 1")
        bars[key] = float(value)
    lowest = raw.get("lowest-page-bar")
    if lowest is not None and (not _number(lowest) or not 0 <= lowest <= min(bars.values())):
        raise bad("'lowest-page-bar' must be a probability no higher than keep and add, or null")
    article = _article_bars(raw.get("article-bars"), bad)
    sections = {}
    for key in ("comment-sections", "review-sections"):
        value = raw.get(key)
        if value is not None and (not _number(value) or not 0 <= value <= 1):
            raise bad(f"'{key}' must be a probability between 0 and 1 (0: on every page), "
                      "or null")
        sections[key] = None if value is None else float(value)
    stays = raw.get("first-pass-stays")
    if stays is not None and (not _number(stays) or not 0 <= stays <= 1):
        raise bad("'first-pass-stays' must be a probability between 0 and 1, or null")
    share = raw.get("page-type-share")
    if share is not None and (not _number(share) or not 0 <= share <= 1):
        raise bad("'page-type-share' must be a share between 0 and 1, or null")
    typed = raw.get("page-type-seeds")
    if typed is not None and typed != 0 and not _count(typed):
        raise bad("'page-type-seeds' must be a whole number, 0 or more")
    if share and not typed:
        raise bad("'page-type-share' needs boosters that read the page type: set "
                  "'page-type-seeds' too")
    favor = raw.get("favor") or {}
    why = bad_value("second-pass.favor", favor)
    if why is not None:
        raise bad(f"'favor': {why}")
    margin = raw.get("early-stop")
    if margin is not None and (not _number(margin) or margin <= 0):
        raise bad("'early-stop' must be a positive margin (LightGBM's "
                  "pred_early_stop_margin), or null for every tree")
    every = raw.get("early-stop-every")
    if margin is not None and not _count(every):
        raise bad("'early-stop-every' must be a number of trees, at least 1, where "
                  "early-stop is set")
    for key in ("rounds", "seeds"):
        if not _count(raw.get(key)):
            raise bad(f"'{key}' must be a whole number, at least 1")
    left_out = raw.get("left-out") or []
    if not isinstance(left_out, list) or not all(isinstance(n, str) for n in left_out):
        raise bad("'left-out' must be a list of feature names")
    trees = raw.get("trees")
    if (not isinstance(trees, dict) or not trees
            or not all(isinstance(k, str) and (_number(v) or isinstance(v, str))
                       for k, v in trees.items())):
        raise bad("'trees' must map LightGBM's parameter names to numbers or names")
    if "seed" in trees:
        raise bad("'trees': each booster's seed is its number; set 'seeds' instead")
    return SecondPassSettings(bars["keep"], bars["add"],
                              None if margin is None else float(margin),
                              {name: float(value) for name, value in favor.items()},
                              None if lowest is None else float(lowest),
                              None if margin is None else int(every),
                              int(raw["rounds"]), int(raw["seeds"]), tuple(left_out),
                              dict(trees), article, sections["comment-sections"],
                              sections["review-sections"],
                              None if stays is None else float(stays),
                              int(typed or 0), float(share or 0))


def _article_bars(raw: Any, bad) -> ArticleBars | None:
    """The `article-bars` mapping, or None where it is null or absent."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) - set(_ARTICLE_KEYS):
        raise bad(f"'article-bars' must be a mapping of {', '.join(_ARTICLE_KEYS)}, or null")
    values = {}
    for key in ("above", "keep", "add"):
        value = raw.get(key)
        if not _number(value) or not 0 <= value <= 1:
            raise bad(f"'article-bars': '{key}' must be a probability between 0 and 1")
        values[key] = float(value)
    lowest = raw.get("lowest-page-bar")
    if lowest is not None and (not _number(lowest) or not 0 <= lowest <= min(values["keep"],
                                                                           values["add"])):
        raise bad("'article-bars': 'lowest-page-bar' must be a probability no higher than its "
                  "keep and add, or null")
    return ArticleBars(values["above"], values["keep"], values["add"],
                       None if lowest is None else float(lowest))


def decoding(settings: SecondPassSettings) -> dict[str, Any]:
    """What cleaning reads, under the config's keys: a model records it."""
    out: dict[str, Any] = {"keep": settings.keep, "add": settings.add,
                           "early-stop": settings.early_stop}
    if settings.early_stop is not None:
        out["early-stop-every"] = settings.early_stop_every
    if settings.lowest_page_bar is not None:
        out["lowest-page-bar"] = settings.lowest_page_bar
    if settings.favor:
        out["favor"] = dict(settings.favor)
    bars = settings.article_bars
    if bars is not None:
        out["article-bars"] = {"above": bars.above, "keep": bars.keep, "add": bars.add,
                               "lowest-page-bar": bars.lowest_page_bar}
    if settings.comment_sections is not None:
        out["comment-sections"] = settings.comment_sections
    if settings.review_sections is not None:
        out["review-sections"] = settings.review_sections
    if settings.first_pass_stays is not None:
        out["first-pass-stays"] = settings.first_pass_stays
    if settings.page_type_share:
        out["page-type-share"] = settings.page_type_share
    return out


def training(settings: SecondPassSettings) -> dict[str, Any]:
    """What training reads, under the config's keys: a model records it."""
    return {"rounds": settings.rounds, "seeds": settings.seeds,
            **({"page-type-seeds": settings.page_type_seeds} if settings.page_type_seeds else {}),
            "left-out": list(settings.left_out), "trees": dict(sorted(settings.trees.items()))}
