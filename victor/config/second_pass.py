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
from typing import Any

from victor.config.checking import plain, value_of
from victor.settings import SECOND_PASS_DECODING, SECOND_PASS_TRAINING, field_name, level


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


def settings_of(raw: dict[str, Any]) -> SecondPassSettings:
    """The settings of a checked `second-pass:` mapping
    (victor/config/checking.py holds it to the table)."""
    return SecondPassSettings(**_given(raw, "second-pass"))


def _given(raw: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The keys of `raw` that are set, as their fields' values; its one
    table-kind key holds an article's bars."""
    out: dict[str, Any] = {}
    for s in level(prefix):
        value = raw.get(s.name)
        if value is not None:
            out[field_name(s.key)] = (ArticleBars(**_given(value, s.key)) if s.kind == "table"
                                      else value_of(s.key, value))
    return out


def _recorded(settings: Any, prefix: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """The `keys` of `settings` that are set, under the config's names."""
    out: dict[str, Any] = {}
    for s in level(prefix):
        value = getattr(settings, field_name(s.key))
        if s.name in keys and value is not None:
            out[s.name] = (_recorded(value, s.key, tuple(t.name for t in level(s.key)))
                           if s.kind == "table" else plain(value))
    return out


def decoding(settings: SecondPassSettings) -> dict[str, Any]:
    """What cleaning reads, under the config's keys: a model records it."""
    return _recorded(settings, "second-pass", SECOND_PASS_DECODING)


def training(settings: SecondPassSettings) -> dict[str, Any]:
    """What training reads, under the config's keys: a model records it."""
    return _recorded(settings, "second-pass", SECOND_PASS_TRAINING)
