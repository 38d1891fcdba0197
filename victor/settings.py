"""The one table of settings: every key a config may hold, declared once
with its kind (which gives its type and range), its default, a line of
meaning and the stage that reads it. Config loading checks a file against
it (victor/config/checking.py, by each key's kind and the keys it bears
on), the model's recipe records what it lists
(victor/config/recipe.py), the second pass's settings take their keys from
it (victor/config/second_pass.py), `--favor` its choices, and
docs/settings.md its table (`markdown`, held to the page by a test).

Keys under `second-pass` are named `second-pass.KEY`. A default of None
is a key that is off unless given; the keys of group "decoding" and
"second-pass" are what cleaning follows, and a model records every one of
them that is on, so that a model cleans as it was made whatever later
defaults say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# kind: (the Python types a value may have, what the error message calls it)
KINDS: dict[str, tuple[tuple[type, ...], str]] = {
    "probability": ((int, float), "a probability between 0 and 1"),
    "share": ((int, float), "a share between 0 and 1"),
    "words": ((int,), "a number of words, at least 1"),
    "blocks": ((int,), "a number of blocks, at least 1"),
    "count": ((int,), "a whole number, at least 1"),
    "count0": ((int,), "a whole number, 0 or more"),
    "margin": ((int, float), "a positive margin"),
    "bars": ((dict,), "a mapping of precision and recall to probabilities"),
    "name": ((str,), "a name"),
    "parser": ((str,), "a name"),
    "path": ((str,), "a name or path"),
    "config": ((str,), "the name or path of a config"),
    "names": ((list,), "a list of names"),
    "tags": ((list,), "a list of tag names"),
    "value-lists": ((dict,), "a mapping of features to ascending lists of numbers"),
    "steps": ((dict,), "a mapping of features to numbers of steps"),
    "patterns": ((dict,), "a mapping of names to lists of regular expressions"),
    "crf-parameters": ((dict,), "a mapping of the CRF's parameters to numbers"),
    "parameters": ((dict,), "a mapping of LightGBM's parameter names to numbers or names"),
    "table": ((dict,), "a mapping of its keys (docs/settings.md)"),
}
# The kinds whose value is a mapping that an absent key leaves empty.
EMPTY_MAPPINGS = ("value-lists", "steps", "patterns", "crf-parameters")
# The `--favor` settings: each moves the labels toward one of the two.
FAVOR = ("precision", "recall")


@dataclass(frozen=True)
class Setting:
    key: str
    kind: str
    default: Any  # None: off unless given
    meaning: str
    stage: str  # the module that reads it
    group: str  # "features", "training", "decoding", "second-pass" (cleaning) or "trees" (training)
    null: bool = False  # whether a config may write null for "off"
    required: bool = False  # whether a config (with its base) must give it
    # What a model made with another value of it needs beside its CRF, so
    # that `victor learn --from-model` cannot make it without training where
    # the model lacks it: "trees", whose inputs are the labels it decides
    # (trees trained on labels decided otherwise do not fit), or
    # "page-type", the classifier it reads; "" for neither.
    needs: str = ""
    # Keys of its own mapping it may not exceed, and one that must be set
    # (not null, not 0) where it is: how keys bear on each other.
    at_most: tuple[str, ...] = ()
    requires: str = ""
    # A path's package folder and file ending, where a bare name means a
    # file of the package's own (victor/templates/NAME.tpl); "own": its
    # default is the config's own name, and a config does not take it from
    # its base.
    folder: str = ""
    suffix: str = ""
    own: bool = False

    @property
    def name(self) -> str:
        """The key as its own mapping names it (`keep` of `second-pass.keep`)."""
        return self.key.rpartition(".")[2]

    @property
    def what(self) -> str:
        """The value's description in an error message."""
        return KINDS[self.kind][1] + (", or null" if self.null else "")


SETTINGS: tuple[Setting, ...] = (
    # What a block looks like to the CRF: the model's features depend on them.
    Setting("base", "config", None, "the config this one extends, by name or path; its "
            "mappings add to the base's, other keys replace", "victor.config", "files",
            folder="configs", suffix=".yaml"),
    Setting("parser", "parser", "lexbor", "the HTML parser (docs/parsers.md)",
            "victor.reading.parser", "features"),
    Setting("tag-delete", "tags", None, "elements removed with their content before the "
            "page is split into blocks", "victor.reading.preclean", "features",
            required=True),
    Setting("template", "path", None, "the CRF's feature template (default: the config's "
            "own name)", "victor.crf.template", "files", folder="templates", suffix=".tpl",
            own=True),
    Setting("model", "path", None, "the model folder cleaning uses (default: the config's "
            "own name)", "victor.model", "files", folder="models", own=True),
    Setting("crf-features", "names", None, "the features the CRF sees: names or family "
            "wildcards", "victor.features.selection", "features", required=True),
    Setting("values", "value-lists", None, "each count feature's ascending value list",
            "victor.features.discretise", "features"),
    Setting("scales", "steps", None, "each share feature's number of steps",
            "victor.features.discretise", "features"),
    Setting("regexp", "patterns", None, "named lists of regular expressions a short block is "
            "searched for", "victor.features.families", "features"),
    Setting("perplexity-model", "path", None, "the n-gram language model of the perplexity "
            "feature", "victor.perplexity", "features", null=True, folder="models"),
    Setting("crf", "crf-parameters", None, "the CRF's training parameters: c1, c2, max-iterations, "
            "far-other-share, min-sites", "victor.crf.estimator", "training"),
    # How the CRF's labels are decided (victor/decoding/decision.py lists the steps).
    Setting("keep-above", "probability", None, "a block the best path drops is kept at this "
            "content probability (the CRF's own) or more", "victor.decoding.widening",
            "decoding", null=True, needs="trees"),
    Setting("fallback-share", "share", 0.0, "on a page the best path keeps nothing of, the "
            "blocks at this share of the page's highest content probability are kept",
            "victor.decoding.widening", "decoding", needs="trees"),
    Setting("fallback-cap", "probability", 0.5, "... and any block at this content "
            "probability or more", "victor.decoding.widening", "decoding"),
    Setting("never-empty-share", "share", 0.0, "on a page of text the whole decision keeps "
            "nothing of, even with its comment sections back, the blocks at this share of the "
            "page's highest content probability (and any at fallback-cap) are kept",
            "victor.decoding.decision", "decoding"),
    Setting("unit-bar", "probability", None, "a code block or data table is kept whole at "
            "this word-weighted content probability, else dropped whole",
            "victor.decoding.units", "decoding", null=True, needs="trees"),
    Setting("list-bar", "probability", None, "a list's dropped items come back at this "
            "content probability", "victor.decoding.units", "decoding", null=True,
            needs="trees"),
    Setting("repeat-words", "words", None, "a run of kept blocks that repeats the page's "
            "earlier kept text goes from this many words", "victor.decoding.units",
            "decoding", null=True),
    Setting("repeat-blocks", "blocks", 5, "... and this many blocks, so that a quoted post "
            "or a repeated caption stays", "victor.decoding.units", "decoding"),
    Setting("repeat-block-words", "words", 3, "... counting only blocks of this many words "
            "or more (a listing's line numbers and braces repeat on any page of code)",
            "victor.decoding.units", "decoding"),
    Setting("line-share", "share", None, "a paragraph, heading, item or cell the labels keep "
            "part of is kept whole when its kept blocks hold this share of its words, else "
            "dropped whole", "victor.decoding.units", "decoding", null=True),
    Setting("line-words", "words", None, "... unless it holds more words than this",
            "victor.decoding.units", "decoding", null=True),
    Setting("favor", "bars", {"precision": 0.5, "recall": 0.3}, "--favor's bar on the "
            "calibrated content probability where the second pass names none: precision "
            "drops content under it, recall keeps what is at it or above",
            "victor.decoding.widening", "decoding"),
    Setting("comments-drop", "probability", 0.3, "with --comments drop, comment sections "
            "go from every page that is a forum at less than this probability (a forum's posts "
            "are its content)", "victor.decoding.page_layout", "decoding"),
    Setting("second-pass", "table", None, "the second pass's trees: the keys below",
            "victor.second_pass", "second-pass", null=True),
    # The second pass: its bars (cleaning) and how its trees are trained.
    Setting("second-pass.keep", "probability", None, "a kept block stays at this trees' "
            "probability or more", "victor.decoding.bars", "second-pass", required=True),
    Setting("second-pass.add", "probability", None, "a dropped block comes back at this "
            "or more", "victor.decoding.bars", "second-pass", required=True),
    Setting("second-pass.lowest-page-bar", "probability", None, "a page may lower both bars "
            "to its own, down to this", "victor.decoding.bars", "second-pass", null=True,
            at_most=("keep", "add")),
    Setting("second-pass.article-bars", "table", None, "the bars of a page the page-type "
            "classifier calls an article: the keys below", "victor.decoding.bars",
            "second-pass", null=True, needs="page-type"),
    Setting("second-pass.article-bars.above", "probability", None, "a page is an article's "
            "at this article probability or more", "victor.decoding.bars", "second-pass",
            required=True),
    Setting("second-pass.article-bars.keep", "probability", None, "its keep bar",
            "victor.decoding.bars", "second-pass", required=True),
    Setting("second-pass.article-bars.add", "probability", None, "its add bar",
            "victor.decoding.bars", "second-pass", required=True),
    Setting("second-pass.article-bars.lowest-page-bar", "probability", None, "its lowest page "
            "bar", "victor.decoding.bars", "second-pass", null=True, at_most=("keep", "add")),
    Setting("second-pass.comment-sections", "probability", None, "a comment section's blocks "
            "go on a page that is an article at this probability or more (0: every page)",
            "victor.decoding.page_layout", "second-pass", null=True, needs="page-type"),
    Setting("second-pass.review-sections", "probability", None, "the same for reviews on a "
            "product", "victor.decoding.page_layout", "second-pass", null=True,
            needs="page-type"),
    Setting("second-pass.first-pass-stays", "probability", None, "a block the first pass "
            "kept at this CRF content probability or more stays, whatever the trees say",
            "victor.decoding.bars", "second-pass", null=True),
    Setting("second-pass.page-type-share", "share", None, "the page-type boosters' share of "
            "the trees' probability", "victor.second_pass.trees", "second-pass", null=True,
            needs="page-type", requires="page-type-seeds"),
    Setting("second-pass.early-stop", "margin", None, "LightGBM's prediction early-stopping "
            "margin; null: every tree", "victor.second_pass.trees", "second-pass", null=True,
            requires="early-stop-every"),
    Setting("second-pass.early-stop-every", "count", None, "... looked at every this many "
            "trees", "victor.second_pass.trees", "second-pass", null=True),
    Setting("second-pass.favor", "bars", None, "--favor's bars on the trees' probability, "
            "each both keep and add", "victor.decoding.bars", "second-pass", null=True),
    Setting("second-pass.rounds", "count", None, "trees a booster",
            "victor.training.second_pass", "trees", required=True),
    Setting("second-pass.seeds", "count", None, "boosters, each of another seed, their mean "
            "taken", "victor.training.second_pass", "trees", required=True),
    Setting("second-pass.page-type-seeds", "count0", None, "boosters that also read the page "
            "type's probabilities", "victor.training.second_pass", "trees", null=True),
    Setting("second-pass.left-out", "names", None, "first-pass columns the trees do not read",
            "victor.training.second_pass", "trees", null=True),
    Setting("second-pass.trees", "parameters", None, "LightGBM's parameters (each booster's "
            "seed is its number)",
            "victor.training.second_pass", "trees", required=True),
)

BY_KEY = {s.key: s for s in SETTINGS}


def level(prefix: str = "") -> tuple[Setting, ...]:
    """The keys of one mapping: the top of a config (""), or a table-kind
    key's own ("second-pass")."""
    return tuple(s for s in SETTINGS if s.key.rpartition(".")[0] == prefix)


def field_name(key: str) -> str:
    """The attribute a key's value is held under (`keep_above` of
    `keep-above`, `keep` of `second-pass.keep`)."""
    return key.rpartition(".")[2].replace("-", "_")


def key_of(field: str, prefix: str = "") -> str:
    """The key a `Config` (or second-pass settings') field holds, for
    messages: code names a setting by its field, and the key's own name is
    written once, in the table."""
    return next(s.key for s in level(prefix) if field_name(s.key) == field)


TOP_KEYS = tuple(s.key for s in level())
# What cleaning reads of the second pass (a model records it in its
# decoding), and what training reads.
SECOND_PASS_DECODING = tuple(s.name for s in level("second-pass") if s.group == "second-pass")
SECOND_PASS_TRAINING = tuple(s.name for s in level("second-pass") if s.group == "trees")
# The top-level keys that decide the labels: a model records them.
DECODING = tuple(s.key for s in level() if s.group == "decoding")
# What a model's features depend on: a model records them, and cleaning
# with other values is refused.
FEATURE_KEYS = tuple(s.key for s in level() if s.group == "features")
# The keys a model made with another value of takes training for where it
# lacks their need (Setting.needs; victor/model/recipe_check.py).
TREE_INPUT_KEYS = tuple(s.key for s in SETTINGS if s.needs == "trees")
PAGE_TYPE_KEYS = tuple(s.key for s in SETTINGS if s.needs == "page-type")


def default(key: str) -> Any:
    value = BY_KEY[key].default
    return dict(value) if isinstance(value, dict) else value


def markdown() -> str:
    """The table as docs/settings.md shows it."""
    rows = ["| key | kind | default | meaning | read by |", "|---|---|---|---|---|"]
    for s in SETTINGS:
        shown = "-" if s.default is None else (
            ", ".join(f"{k} {v}" for k, v in s.default.items()) if isinstance(s.default, dict)
            else str(s.default))
        kind = s.kind + (" or null" if s.null else "")
        meaning = (s.meaning + (" (required)" if s.required else "")
                   + (f" (at most {' and '.join(s.at_most)})" if s.at_most else "")
                   + (f" (needs {s.requires})" if s.requires else ""))
        rows.append(f"| `{s.key}` | {kind} | {shown} | {meaning} | `{s.stage}` |")
    return "\n".join(rows) + "\n"
