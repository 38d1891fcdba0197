"""`decide`: from the CRF's best path and marginals to the labels a page
is cleaned with, the one home of that decision. Cleaning (victor.cleaner),
cross-validation (victor.training.crossval), the second pass's training
and the benchmarks all call it, so that the figures measure what users
get; what differs between them is an argument.

The steps, in order (each in its own module of victor.decoding):

1. `decode` (widening): the best path widened. A block the path labels o
   whose content probability is at least the config's `keep_above` is kept too
   (`keep_likely`): on pages unlike the training pages Viterbi drops runs
   of blocks each of which the model thinks fairly likely content (a
   listing's cards, a product's specifications). When the path keeps no
   block at all, the page's most probable blocks are kept (`fallback`), so
   that a page with text never comes out empty.
2. `whole` (units): a code block and a data table kept or dropped as one,
   and the items a list's likely content leaves out brought back, so that
   a kept list is the page's list. Steps 1-2 are `widened`: what the
   second pass's trees read.
3. `decided_again` (bars): where the config has a second pass, the labels
   decided again by its bars on the trees' probabilities.
4. `favored` (widening): the user's `--favor`, where the second pass names
   no bar of its own for it.
5. `whole` again, then `whole_boxes` (units): a line box (a paragraph,
   item or cell) kept or dropped whole.
6. `without_sections` (page_layout): readers' comments and reviews
   dropped on the page types they do not belong to.
7. `above_threshold` (widening): the user's `--threshold`.
8. `drop_repeats` (units): a page that carries its text twice gives it once.
9. `bridge` (units), the output's own last step: the punctuation between
   two kept pieces of one paragraph kept with them.
10. never empty: where the steps kept nothing of a page with text and the
   user set no threshold, the page's most probable content outside its
   comment sections where the user asked for them to go (`fallback`, as
   in step 1); else (the article config on a forum, whose posts stand in
   comment sections) the steps again with the comment sections kept, and
   failing that the page's most probable content (`fallback` at
   the config's `never_empty_share`): a shipped config never leaves such a page empty.
11. `without_unseen`: the blocks a reader does not see (Layout.unseen)
   dropped, unless they are all that was kept; the share of the kept text
   they were lowers the page's confidence.

The user's `--comments` (`comments`) moves step 6: "keep" keeps every
comment section (`with_comments`), "drop" drops them from every page
that is not likely a forum (the config's `comments_drop`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

import numpy as np

from victor.decoding.bars import decided_again
from victor.decoding.calibration import content_probabilities
from victor.decoding.page_layout import Layout, without_sections
from victor.decoding.units import bridge, drop_repeats, whole, whole_boxes
from victor.decoding.widening import above_threshold, decode, fallback, favored
from victor.labels import CONTENT, OTHER

if TYPE_CHECKING:
    from victor.config import Config

@dataclass
class Decision:
    """A page's labels, whether they are the fallback's (the path kept
    nothing: the jsonl record's `fallback`), and the second pass's
    probabilities of its blocks where the config has one."""

    labels: list[str]
    fallback: bool
    second: np.ndarray | None = None
    # The share of the kept text that was unseen and dropped (step 11).
    unseen_share: float = 0.0


Trees = Callable[[list[str]], Sequence[float]]


def widened(path: Sequence[str], marginals: Sequence[Mapping[str, float]],
            texts: Sequence[str], found: Layout, config: "Config") -> tuple[list[str], bool]:
    """`decide`'s first steps: the best path widened (`decode`), then code,
    tables and lists kept whole. These are the labels the second pass's
    trees read, in the cleaner and when they are trained
    (victor.training.second_pass), so they have a name of their own."""
    labels, fallback = decode(path, marginals, config.keep_above, config.fallback_share,
                              config.fallback_cap)
    return whole(texts, labels, content_probabilities(marginals), found.units,
                 config.unit_bar, found.lists, config.list_bar), fallback


def decide(path: Sequence[str], marginals: Sequence[Mapping[str, float]],
           texts: Sequence[str], found: Layout, config: "Config", *,
           trees: Trees | None = None, favor: str | None = None,
           threshold: float | None = None, temperature: float = 1.0,
           bridged: bool = False, page_type: Mapping[str, float] | None = None,
           comments: str | None = None) -> Decision:
    """Every step from the CRF's best path and marginals to the labels a
    page is cleaned with, in order: the one list of them. `config` gives
    the decoding keys; `trees` turns the labels so far into the second
    pass's probabilities (required when the config has a second pass);
    `favor`, `threshold` and `comments` are the user's options, the first
    two on probabilities calibrated at the model's `temperature`;
    `bridged` adds the output's own step, which adds no word and so is
    left out where labels are scored against a person's (half the blocks
    it keeps are o in theirs: docs/notes/output.md, "Words run together").
    `page_type` is each type's probability from the model's page-type
    classifier (victor.page_type), where it has one: the second pass's
    article bars and readers' sections read it."""
    config = with_comments(config, comments)
    decided = _steps(path, marginals, texts, found, config, trees, favor, threshold,
                     temperature, bridged, page_type, comments)
    if threshold is None and texts and not CONTENT.intersection(decided.labels):
        decided = _not_empty(decided, lambda: _steps(
            path, marginals, texts, found, with_comments(config, "keep"), trees, favor,
            threshold, temperature, bridged, page_type, "keep"), marginals, found, config,
            comments)
    if found.unseen:
        decided.labels, decided.unseen_share = without_unseen(decided.labels, texts,
                                                              found.unseen)
    return decided


def _not_empty(decided: Decision, with_comments_kept: Callable[[], Decision],
               marginals: Sequence[Mapping[str, float]], found: Layout, config: "Config",
               comments: str | None) -> Decision:
    """Step 10 for a page the steps kept nothing of: the first of these
    that keeps something, else `decided` as it is."""
    nothing = [OTHER] * len(marginals)
    if comments == "drop" and (fallen := fallback(
            nothing, marginals, config.fallback_share, config.fallback_cap,
            [s == "comments" for s in found.sections])):
        return Decision(fallen, True, decided.second)
    kept = with_comments_kept()
    if CONTENT.intersection(kept.labels):
        return kept
    if fallen := fallback(nothing, marginals, config.never_empty_share, config.fallback_cap):
        return Decision(fallen, True, decided.second)
    return decided


def with_comments(config: "Config", comments: str | None) -> "Config":
    """The config with its second pass's `comment_sections` bar off where
    the user's `comments` is "keep"; else the config as it is."""
    if comments not in (None, *COMMENTS):
        raise ValueError(f"comments {comments!r}: choose one of {', '.join(COMMENTS)}")
    second = config.second_pass
    if comments != "keep" or second is None:
        return config
    return replace(config, second_pass=replace(second, comment_sections=None))


# `comments`: readers' comment sections kept on every page, or dropped from
# every page the page-type classifier does not find likely a forum (a
# forum's posts are its content, and stay).
COMMENTS = ("keep", "drop")


def without_unseen(labels: list[str], texts: Sequence[str],
                   unseen: Sequence[int]) -> tuple[list[str], float]:
    """The labels with the blocks a reader does not read dropped, and the
    share of the kept text they were. Where they were all the decision
    kept, the labels stay: a page with text never comes out empty, and its
    confidence says how little to trust it."""
    dropped = [i for i in unseen if labels[i] != OTHER]
    if not dropped:
        return labels, 0.0
    # By characters: a widget's JSON is one "word" of thousands of them.
    kept = sum(len(t) for t, lab in zip(texts, labels) if lab != OTHER)
    share = sum(len(texts[i]) for i in dropped) / kept if kept else 0.0
    if len(dropped) == sum(lab != OTHER for lab in labels):
        return labels, share
    out = list(labels)
    for i in dropped:
        out[i] = OTHER
    return out, share


def _steps(path: Sequence[str], marginals: Sequence[Mapping[str, float]],
           texts: Sequence[str], found: Layout, config: "Config", trees: Trees | None,
           favor: str | None, threshold: float | None, temperature: float, bridged: bool,
           page_type: Mapping[str, float] | None, comments: str | None) -> Decision:
    """Steps 1 to 9."""
    # The CRF's own probability, before the model's calibration: the bars
    # were chosen on it. Result.content, --threshold and --favor use the
    # calibrated one.
    raw_content = content_probabilities(marginals)
    labels, fallback = widened(path, marginals, texts, found, config)
    second = config.second_pass
    q = None
    if second is not None:
        if trees is None:
            raise ValueError(f"config {config.name} has a second pass: give its trees")
        # The trees read the labels with code, tables and lists kept whole,
        # as they were trained (victor.training.second_pass).
        q = np.asarray(trees(labels), dtype=np.float64)
        labels = decided_again(labels, marginals, q, texts, second, favor, page_type)
        if favor in second.favor:
            favor = None
    calibrated = (content_probabilities(marginals, temperature)
                  if favor is not None or threshold is not None else raw_content)
    labels = favored(labels, marginals, calibrated, favor, config.favor)
    labels = whole(texts, labels, raw_content, found.units, config.unit_bar,
                   found.lists, config.list_bar)
    labels = whole_boxes(texts, labels, marginals, found.boxes, config.line_share,
                         config.line_words)
    if second is not None or comments == "drop":
        labels = without_sections(labels, found.sections, second, page_type,
                                  config.comments_drop if comments == "drop" else None)
    if threshold is not None:  # the user's own cut, block by block, as asked
        labels = above_threshold(labels, calibrated, threshold)
    labels = drop_repeats(texts, labels, config.repeat_words, config.repeat_blocks,
                          config.repeat_block_words)
    if bridged:
        labels = bridge(texts, found.boxes, labels)
    return Decision(labels, fallback, q)


def expected_f1(labels: Sequence[str], probabilities: Sequence[float],
                texts: Sequence[str]) -> float:
    """A page's expected word F1 if each block is content with its
    probability: what the model itself expects of the labels it chose, so
    that a pipeline can route the pages it is unsure of elsewhere (the
    jsonl record's `confidence`). As `page_bar` counts it: twice the kept
    blocks' expected content words over the kept words plus the page's
    expected content words. A page with no words expected and none kept
    gets 0."""
    words = np.fromiter(map(len, map(str.split, texts)), dtype=np.float64, count=len(texts))
    p = np.asarray(probabilities, dtype=np.float64) * words
    kept = np.fromiter((lab != OTHER for lab in labels), dtype=bool, count=len(labels))
    denominator = float(words[kept].sum() + p.sum())
    return 2 * float(p[kept].sum()) / denominator if denominator > 0 else 0.0
