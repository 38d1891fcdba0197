"""From the CRF's best path and marginals to the labels a page is cleaned
with: the one home of that decision, which cleaning (victor.cleaner) and
cross-validation (victor.training.crossval) share so that the figures measure what
users get.

Two widenings of the best path, both measured on pages of web sites the
model had not seen (docs/general.md, "Decoding"):

- `keep_likely`: a block the path labels o but whose content probability
  is at least the config's `keep-above` is kept too. Viterbi picks the one
  most probable labelling of the whole page, and on pages unlike the
  training pages that path drops runs of blocks each of which the model
  thinks fairly likely content: the cards of a listing, a product's
  specifications, the items of a collection.
- `floor`: when the path keeps no block at all, the page's most probable
  blocks are kept, so that a page with text never comes out empty.

Then `whole`: a code block and a data table are kept or dropped as one,
never a table's header without its rows or half of a listing; and the
items a list's likely content leaves out come back, so that a kept list
is the page's list, not some of its items.

Then `drop_repeats`: a page that carries its text twice (a hidden tab, a
mobile or print copy of the article) gives it once. Last, `bridge`: the
punctuation between two kept pieces of one paragraph is kept with them.

`decide` lists every step in order, the second pass's bars among them
(`decided_again`; the trees' probabilities come from the caller, who holds
the trees: victor.second_pass). The cleaner, cross-validation, the
second pass's training and the benchmarks all call it; what differs
between them is an argument.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

import numpy as np

from victor.decoding.calibration import content_probabilities
from victor.labels import OTHER
from victor.reading.layout import is_data_table, line_box
from victor.reading.text import words as words_of

if TYPE_CHECKING:  # victor.config and second_pass.settings read FLOOR_SHARE and FAVOR_BARS
    from victor.config import Config
    from victor.reading.parser import Element
    from victor.reading.blocks import Block
    from victor.second_pass.settings import SecondPassSettings

# The floor (see `floor`): when the CRF labels no block of a page as
# content, the blocks whose content probability reaches a share of the
# page's highest are kept (the config's `empty-page-share`, FLOOR_SHARE when it
# names none), and any block at FLOOR_CAP or above. On the 1,296 WCXB
# pages, which neither the article nor the cleaneval model saw, every share
# from 1 down to 0 did better than no floor and 0 did best: keeping every
# block of such a page (docs/robustness.md). A model that has seen pages
# like the page hesitates less blindly, and its site-grouped folds chose a
# share above 0 (docs/general.md, "Decoding").
FLOOR_SHARE = 0.0
FLOOR_CAP = 0.5


def content_label(marginal: Mapping[str, float], after_content: bool) -> str:
    """What a block kept against the best path is kept as: its most
    probable label but o, so that a heading stays a heading and a list item
    an item. A continuation only continues content: after a block that is
    not kept, `c` would glue the block onto whatever was kept before it, so
    there the most probable of p, h and l is taken instead."""
    allowed = [k for k in marginal if k != OTHER and (after_content or k != "c")]
    return max(allowed, key=marginal.__getitem__)


def _kept(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
          keep: Sequence[bool]) -> list[str]:
    """The path's labels where `keep` is false, else the block's content
    label in light of the block before it as finally labelled."""
    out: list[str] = []
    for lab, m, k in zip(labels, marginals, keep):
        out.append(content_label(m, bool(out) and out[-1] != OTHER) if k else lab)
    return out


def floor(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
          share: float = FLOOR_SHARE, cap: float = FLOOR_CAP) -> list[str] | None:
    """Labels that keep the page's most probable content when the CRF keeps
    none of it; None when it keeps some, or the page has no block.

    On a page unlike its training pages a model hesitates: every block's
    content probability (1 - P(o)) stays under one half, so Viterbi labels
    them all o, though the page has text a reader came for (a Korean news
    page: 0.006 at most, on the article's own text). Measured against
    people's gold on held-out pages, keeping blocks beats keeping nothing,
    and keeping all of them beat keeping the most probable ones
    (docs/robustness.md, `python3 -m benchmarks.floor`)."""
    if not marginals or any(lab != OTHER for lab in labels):
        return None
    raw_content = content_probabilities(marginals)
    bar = min(share * max(raw_content), cap)
    return _kept([OTHER] * len(marginals), marginals, [p >= bar for p in raw_content])


def keep_likely(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
                keep_above: float) -> list[str]:
    """The path's labels, and a content label for every block it labels o
    whose content probability is at least `keep_above`. The probability is
    the CRF's own, before calibration: the setting was chosen on it and
    must not move when a model is recalibrated."""
    raw_content = content_probabilities(marginals)
    return _kept(labels, marginals, [lab == OTHER and p >= keep_above
                                     for lab, p in zip(labels, raw_content)])


def decode(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
           keep_above: float | None, empty_page_share: float = FLOOR_SHARE) -> tuple[list[str], bool]:
    """The labels a page is cleaned with, and whether they are the floor's
    (the path kept nothing, which a corpus builder may want to know: the
    jsonl record's `fallback`). `keep_above` None keeps the path as it
    is, for a config of a user's that has none; `empty_page_share` is the
    config's `empty-page-share`."""
    floored = floor(labels, marginals, empty_page_share)
    if floored is not None:
        return floored, True
    if keep_above is None:
        return list(labels), False
    return keep_likely(labels, marginals, keep_above), False


# What `--favor` moves the labels by where the config's second pass names
# no bars of its own for it (a config without a second pass, such as
# cleaneval; victor/second_pass/settings.py), on the calibrated content
# probability (the one the jsonl record shows): `precision` drops content
# blocks under its bar, `recall` keeps blocks at or above its bar that the
# decoding dropped. Chosen on the general config's held-out labels of the 5 site
# folds over every page (text output, LCS word precision / recall):
# precision 0.5 moves CleanEval 0.944 / 0.922 -> 0.959 / 0.872, Dragnet
# 0.858 / 0.964 -> 0.912 / 0.935, WCXB 0.850 / 0.937 -> 0.877 / 0.904; recall
# 0.3 moves them to 0.934 / 0.941, 0.800 / 0.976 and 0.830 / 0.950
# (docs/output.md, "Precision or recall").
FAVOR_BARS = {"precision": 0.5, "recall": 0.3}


def favored(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
            calibrated: Sequence[float], favor: str | None) -> list[str]:
    """The labels moved toward precision or recall (`FAVOR_BARS`), on the
    calibrated content probability. None leaves them as they are."""
    if favor is None:
        return list(labels)
    bar = FAVOR_BARS[favor]
    if favor == "precision":
        return above_threshold(labels, calibrated, bar)
    return _kept(labels, marginals,
                 [lab == OTHER and p >= bar for lab, p in zip(labels, calibrated)])


def above_threshold(labels: Sequence[str], calibrated: Sequence[float],
                    threshold: float) -> list[str]:
    """The user's `--threshold`, applied after decoding: content blocks
    whose calibrated content probability is under it become o. It only
    takes away, and it may empty a page on purpose; on the calibrated scale
    because that is the one a user reads in the jsonl output."""
    return [lab if lab == OTHER or p >= threshold else OTHER
            for lab, p in zip(labels, calibrated)]


def whole(texts: Sequence[str], labels: Sequence[str], raw_content: Sequence[float],
          found_units: list[list[int]], unit_bar: float | None,
          found_lists: list[list[int]], list_bar: float | None) -> list[str]:
    """Code blocks and data tables (`found_units`, Layout.units) kept or
    dropped whole, then lists' dropped items (`found_lists`) brought back,
    each by its blocks' content probability weighted by their words. A unit
    at `unit_bar` or more is kept whole, its dropped blocks as paragraphs,
    and any other dropped whole. A list at `list_bar` or more gets its
    dropped items back as items; lists are only added to, never dropped:
    dropping the lists under the bar whole, as code and tables are, lost
    WCXB 0.010 of bag-of-words F1 (docs/output.md, "Lists"). The
    probability is the CRF's own, as for `keep-above`; a bar of None leaves
    the labels as they are. On block texts and a found layout, so that the
    cleaner and the folds of cross-validation (which keep no tree) decide
    alike."""
    labels = _decided(texts, labels, raw_content, unit_bar, found_units, "p", True)
    return _decided(texts, labels, raw_content, list_bar, found_lists, "l", False)


def _likely(texts: Sequence[str], unit: list[int], raw_content: Sequence[float]) -> float:
    """A unit's content probability: its blocks', weighted by their words,
    so that a long line outweighs a lone bullet or number."""
    weights = [len(texts[i].split()) for i in unit]
    return sum(w * raw_content[i] for w, i in zip(weights, unit)) / max(sum(weights), 1)


def _decided(texts: Sequence[str], labels: Sequence[str], raw_content: Sequence[float],
             share: float | None, found: list[list[int]], restored: str,
             drop: bool) -> list[str]:
    """The labels with each unit of `found` whose content probability
    (`_likely`) reaches `share` kept whole, its dropped blocks labelled
    `restored`, and with `drop` each other unit dropped whole."""
    out = list(labels)
    if share is None:
        return out
    for unit in found:
        if _likely(texts, unit, raw_content) >= share:
            for i in unit:
                if out[i] == OTHER:
                    out[i] = restored
        elif drop:
            for i in unit:
                out[i] = OTHER
    return out


_LISTS = frozenset({"ul", "ol", "dl"})


# A repeated run must hold at least this many kept blocks of REPEAT_WORDS
# words or more, so that a quoted post or a repeated caption stays; and
# shorter blocks count for nothing, as a code listing's line numbers and
# closing braces repeat on any page of code. On the held-out labels, runs
# of 3 to 8 blocks did alike at 200 words (docs/output.md, "Text given
# twice").
REPEAT_BLOCKS = 5
REPEAT_WORDS = 3


def drop_repeats(texts: Sequence[str], labels: Sequence[str], words: int | None) -> list[str]:
    """The labels with each run of kept blocks that only repeat earlier
    kept text, word for word, dropped when its blocks of REPEAT_WORDS or
    more hold at least `words` words and number REPEAT_BLOCKS or more;
    blocks dropped between them do not break a run. Such a run is the
    page's layout, not what it says (a hidden tab, a mobile or print copy
    of the article), and each collection's gold has it once; a single
    repeated line or a quote is left alone, as CleanEval's forum threads
    keep their quoted posts. None: each block as decoded."""
    out = list(labels)
    if words is None:
        return out
    seen: set[str] = set()
    run: list[int] = []
    run_words = run_blocks = 0
    # A block's text has its spaces normalised already (the block
    # splitter's), so case is all that is left to set aside.
    for i in [*(i for i, lab in enumerate(labels) if lab != OTHER), None]:
        said = texts[i].lower() if i is not None else None
        if said is not None and said in seen:
            run.append(i)
            n = said.count(" ") + 1
            if n >= REPEAT_WORDS:
                run_words += n
                run_blocks += 1
            continue
        if run_words >= words and run_blocks >= REPEAT_BLOCKS:
            for j in run:
                out[j] = OTHER
        run, run_words, run_blocks = [], 0, 0
        if said is not None:
            seen.add(said)
    return out




@dataclass(frozen=True)
class Layout:
    """What the decision reads of a page's blocks besides their text, found
    once from the blocks: cross-validation keeps no tree, so an annotated
    page carries its layout (victor.training.dataset.Example), and the
    cleaner finds it from the page it has just read."""

    # The blocks of each code block (<pre>) and data table, by the outermost
    # such element they sit in.
    units: list[list[int]]
    # The blocks of each list (ul, ol, dl) of more than one block, by the
    # innermost list they sit in: a nested list is judged apart from the
    # list around it, as a menu's sub-menu may be.
    lists: list[list[int]]
    # Each block's line box (victor.reading.layout.line_box: the paragraph,
    # item or cell its text flows in) as a number blocks of one box share;
    # -1 for text straight in <body>.
    boxes: list[int]
    # The readers' section each block stands in, "comments", "reviews" or
    # "": the one of the outermost box that names one (`SECTIONS`); empty in
    # a layout pickled before layouts carried it.
    sections: tuple[str, ...] = ()


def layout(blocks: Sequence[Block]) -> Layout:
    boxes = [b.box for b in blocks]
    if None in boxes:  # blocks pickled before they carried their box
        numbers: dict[int, int] = {}
        boxes = [-1 if box is None else numbers.setdefault(id(box), len(numbers))
                 for box in (line_box(b.containers) for b in blocks)]
    found_units, found_lists, found_sections = _in_containers(blocks)
    return Layout(found_units, found_lists, boxes, found_sections)


def _in_containers(blocks) -> tuple[list[list[int]], list[list[int]], tuple[str, ...]]:
    """A Layout's units, lists and sections from one walk of the blocks'
    containers. Each element's answers (the outermost code block or data
    table, the innermost list, the readers' section it stands in) are its
    parent's or its own, found once a page: a block costs a look-up or
    two, not a look at each of its containers, and the three share the
    look-ups."""
    within: dict[Element, tuple[Element | None, Element | None, str]] = {}
    unit_blocks: dict[Element, list[int]] = {}
    list_blocks: dict[Element, list[int]] = {}
    found_sections = []
    for b in blocks:
        path = b.containers
        k = len(path)
        while k and path[k - 1] not in within:  # the innermost container answered
            k -= 1
        unit, inner_list, section = within[path[k - 1]] if k else (None, None, "")
        for el in path[k:]:
            tag = el.tag
            if unit is None and (tag == "pre" or tag == "table" and is_data_table(el)):
                unit = el
            if tag in _LISTS:
                inner_list = el
            if not section and tag in _SECTION_BOXES and el.attrs:
                section = _section(el.attrs)
            within[el] = (unit, inner_list, section)
        if unit is not None:
            unit_blocks.setdefault(unit, []).append(b.id)
        if inner_list is not None:
            list_blocks.setdefault(inner_list, []).append(b.id)
        found_sections.append(section)
    return (list(unit_blocks.values()),
            [unit for unit in list_blocks.values() if len(unit) > 1], tuple(found_sections))


# Readers' sections: a box of these tags whose id or one of whose classes
# names one. Comments: a name that begins with comment, respond, disqus,
# repl or discussion (WordPress's `comments-area`, `commentlist` and
# `#respond`, Disqus's `#disqus_thread`, `replies`), so that a post that
# `has-comments` or code's `hljs-comment` is none. Reviews: a name with
# `review` anywhere in it (`product-reviews`, `yotpo-reviews`,
# `customerReviews`) but `preview`.
_SECTION_BOXES = frozenset("div section ol ul li article aside footer dl table form".split())
_COMMENTS = re.compile(r"^(?:comment|respond|disqus|repl|discussion)")
_SECTION_WORDS = re.compile("comment|respond|disqus|repl|discussion|review")
_REVIEWS = re.compile(r"(?<!p)review")
# The page type on which each section is no part of the main content,
# and the second pass's key that gives the type's probability from which
# it goes (victor.second_pass.settings).
SECTIONS = {"comments": ("article", "comment_sections"), "reviews": ("product", "review_sections")}


def _section(attrs: Mapping[str, str]) -> str:
    """Most boxes name no section: one search of the class and id
    together for any of the patterns' words rules them out, where a
    search of each name cost twice as much."""
    classes, ident = attrs.get("class", ""), attrs.get("id", "")
    if not _SECTION_WORDS.search(f"{classes} {ident}".lower()):
        return ""
    names = classes.lower().split()
    names.append(ident.lower())
    if any(_COMMENTS.match(name) for name in names):
        return "comments"
    if any(_REVIEWS.search(name) for name in names):
        return "reviews"
    return ""


def without_sections(labels: Sequence[str], found: Sequence[str], settings: "SecondPassSettings",
                     page_type: Mapping[str, float] | None) -> list[str]:
    """The labels with every block of a readers' section dropped where the
    page is of the type it does not belong to: comments on an article,
    reviews on a product, at the type's probability (the page-type
    classifier's, `page_type`) from the config's bar on, or on every page
    where the bar is 0. Comments are the body of a forum and reviews a
    page of their own, and the trees keep both (they read like
    paragraphs): most of what the default config kept beyond Dragnet's
    article gold, and of WCXB's products (docs/second-pass.md, "Readers'
    sections")."""
    gone = set()
    for name, (kind, key) in SECTIONS.items():
        at = getattr(settings, key)
        if at is not None and (at == 0 or page_type is not None and page_type[kind] >= at):
            gone.add(name)
    if not gone or not found:
        return list(labels)
    return [OTHER if section in gone else label for label, section in zip(labels, found)]


def bridge(texts: Sequence[str], boxes: Sequence[int], labels: Sequence[str]) -> list[str]:
    """The labels with every run of dropped blocks that holds no word (a
    comma, a bracket, a `|`) kept as a continuation where it lies between
    two kept blocks of one paragraph (the same line box, `Layout.boxes`).
    An inline element ends a block, so the ", " between two `<code>` names
    of a sentence is a block of its own; the CRF sees nothing of content in
    it and drops it, and the output then ran the names together ("FOR NO
    KEY UPDATEFOR UPDATE", "Full Storycomments: none)"). A run with a word
    in it stays the CRF's decision."""
    out = list(labels)
    last = None  # the last kept block
    for i, lab in enumerate(labels):
        if lab == OTHER:
            continue
        if (last is not None and i - last > 1 and boxes[i] != -1
                and all(boxes[j] == boxes[i] for j in range(last, i))
                and not any(words_of(texts[j]) for j in range(last + 1, i))):
            out[last + 1:i] = ["c"] * (i - last - 1)
        last = i
    return out


def whole_boxes(texts: Sequence[str], labels: Sequence[str],
                marginals: Sequence[Mapping[str, float]], boxes: Sequence[int],
                share: float | None, most: int | None = None) -> list[str]:
    """Each line box (`Layout.boxes`: a paragraph, heading, item or cell)
    that the labels keep part of, kept whole when its kept blocks hold
    `share` of its words or more, else dropped whole. An inline element
    ends a block, so a sentence is several blocks, each labelled on its
    own: decided apart, a sentence lost its full stop after a link, a
    product's name or a keyword in `<code>` from its middle, or its first
    words, and a reader sees wrong text where a word score sees little.
    A box of over `most` words is left as its blocks were decided: one
    `<p>` or `<div>` around a whole page is no paragraph. None: each block
    as decided. A page it would leave with no block keeps its labels:
    decoding never empties a page with text (`floor`)."""
    out = list(labels)
    if share is None:
        return out
    state: dict[int, int] = {}  # a box's blocks: 1 some kept, 2 some dropped, 3 both
    for box, lab in zip(boxes, out):
        if box != -1:
            state[box] = state.get(box, 0) | (2 if lab == OTHER else 1)
    members: dict[int, list[int]] = {}
    for i, box in enumerate(boxes):
        if state.get(box) == 3:
            members.setdefault(box, []).append(i)
    verdict: dict[int, bool] = {}
    for box, unit in members.items():
        kept = [out[i] != OTHER for i in unit]
        total = kept_words = 0
        for i, k in zip(unit, kept):
            n = len(words_of(texts[i]))
            total += n
            kept_words += n if k else 0
            if most is not None and total > most:
                break
        else:
            verdict[box] = kept_words >= share * total
    if not verdict:
        return out
    for i, box in enumerate(boxes):
        whole_box = verdict.get(box)
        if whole_box is None:
            continue
        if not whole_box:
            out[i] = OTHER
        elif out[i] == OTHER:
            out[i] = content_label(marginals[i], i > 0 and out[i - 1] != OTHER)
    return out if any(lab != OTHER for lab in out) else list(labels)

@dataclass
class Decision:
    """A page's labels, whether they are the floor's (the path kept
    nothing: the jsonl record's `fallback`), and the second pass's
    probabilities of its blocks where the config has one."""

    labels: list[str]
    fallback: bool
    second: np.ndarray | None = None


Trees = Callable[[list[str]], Sequence[float]]


def widened(path: Sequence[str], marginals: Sequence[Mapping[str, float]],
            texts: Sequence[str], found: Layout, config: "Config") -> tuple[list[str], bool]:
    """`decide`'s first steps: the best path widened (`decode`), then code,
    tables and lists kept whole. These are the labels the second pass's
    trees read, in the cleaner and when they are trained
    (victor.training.second_pass), so they have a name of their own."""
    labels, fallback = decode(path, marginals, config.keep_above, config.empty_page_share)
    return whole(texts, labels, content_probabilities(marginals), found.units,
                 config.unit_bar, found.lists, config.list_bar), fallback


def decide(path: Sequence[str], marginals: Sequence[Mapping[str, float]],
           texts: Sequence[str], found: Layout, config: "Config", *,
           trees: Trees | None = None, favor: str | None = None,
           threshold: float | None = None, temperature: float = 1.0,
           bridged: bool = False, page_type: Mapping[str, float] | None = None) -> Decision:
    """Every step from the CRF's best path and marginals to the labels a
    page is cleaned with, in order: the one list of them. `config` gives
    the decoding keys; `trees` turns the labels so far into the second
    pass's probabilities (required when the config has a second pass);
    `favor` and `threshold` are the user's options, on probabilities
    calibrated at the model's `temperature`; `bridged` adds the output's
    own last step, which adds no word and so is left out where labels are
    scored against a person's (half the blocks it keeps are o in theirs:
    docs/output.md, "Words run together"). `page_type` is each type's
    probability from the model's page-type classifier (victor.page_type),
    where it has one: the second pass's `article-bars` and readers'
    sections read it."""
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
    labels = favored(labels, marginals, calibrated, favor)
    labels = whole(texts, labels, raw_content, found.units, config.unit_bar,
                   found.lists, config.list_bar)
    labels = whole_boxes(texts, labels, marginals, found.boxes, config.line_share,
                         config.line_words)
    if second is not None:
        labels = without_sections(labels, found.sections, second, page_type)
    if threshold is not None:  # the user's own cut, block by block, as asked
        labels = above_threshold(labels, calibrated, threshold)
    labels = drop_repeats(texts, labels, config.repeat_words)
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

# --- the second pass's bars ---------------------------------------------------

def decided_again(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
                  q: Sequence[float], texts: Sequence[str], settings: "SecondPassSettings",
                  favor: str | None = None,
                  page_type: Mapping[str, float] | None = None) -> list[str]:
    """The labels decided again on the second pass's probabilities `q` by
    the config's bars (`--favor`'s where the config gives one for
    `favor`; the article bars where the page's probability of being an
    article (`page_type`'s) reaches theirs)."""
    return relabel(labels, marginals, q, *bars(settings, favor, q, texts, page_type),
                   stays=settings.first_pass_stays)


def bars(settings: "SecondPassSettings", favor: str | None, q: Sequence[float],
         texts: Sequence[str],
         page_type: Mapping[str, float] | None = None) -> tuple[float, float]:
    """(keep, add) for a page: `--favor`'s bar where the config gives one,
    else the config's bars, each lowered to the page's own bar (page_bar)
    where the config names a `lowest-page-bar`. A page whose probability
    of being an article (from `page_type`, the page-type classifier's; None
    where the model has none) is at least `article-bars`' `above` takes those
    bars instead: the article config's on the pages that are articles,
    which one bar for every page could not give both articles and listings
    (docs/second-pass.md, "Page types")."""
    bar = settings.favor.get(favor) if favor is not None else None
    if bar is not None:
        return bar, bar
    keep, add, lowest = settings.keep, settings.add, settings.lowest_page_bar
    chosen = settings.article_bars
    if chosen is not None and page_type is not None and page_type["article"] >= chosen.above:
        keep, add, lowest = chosen.keep, chosen.add, chosen.lowest_page_bar
    if lowest is None:
        return keep, add
    words = np.fromiter(map(len, map(str.split, texts)), dtype=np.float64, count=len(texts))
    own = page_bar(np.asarray(q, dtype=np.float64), words, lowest, keep)
    return min(own, keep), min(own, add)


def page_bar(q: np.ndarray, words: np.ndarray, low: float, high: float) -> float:
    """The bar that keeps the set of blocks of the highest expected word F1
    on this page, taking the trees' probabilities `q` at their word: kept
    the k most likely blocks, F1 is about 2 * sum(q * words over those k)
    over (their words + sum(q * words over the page)). One bar for every
    page is too high where the content is small among many middling
    blocks (a product's few lines, a listing's short entries); WCXB's
    score is a mean over pages, and a page's own bar gained it 0.0035 of
    bag-of-words F1 on held-out sites (docs/second-pass.md, "A bar for
    each page").

    Held between `low` and `high`: a bar raised above the config's own
    dropped headlines, which word F1 barely sees. Blocks under `low`
    count for nothing in the page's expected content: that is where the
    trees' early stopping leaves boilerplate, at a probability that is a
    margin, not a frequency, and counted it lowered the bar on pages of
    much boilerplate (Dragnet's articles kept their comments). A page the
    trees expect no content on gets `high`."""
    counted = np.where(q >= low, q, 0.0)
    expected = float(np.dot(counted, words))
    if expected <= 0:
        return high
    order = np.argsort(-q, kind="stable")
    f1 = 2 * np.cumsum(counted[order] * words[order]) / (np.cumsum(words[order]) + expected)
    return float(min(max(q[order][int(np.argmax(f1))], low), high))

def relabel(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
            q: Sequence[float], keep: float, add: float,
            stays: float | None = None) -> list[str]:
    """The labels decided again by two bars on the second pass's probability
    `q`: a block the first pass kept stays (with its label) while q is at
    least `keep`; a block it dropped comes back at `add` or more. Two bars,
    not one, because the research's nested scan chose them apart (every
    site fold chose keep 0.35, add 0.3 on the other folds' pages). A block
    that comes back takes its most probable content label from the CRF's
    marginals (`content_label`), as keep-above's blocks do,
    where the research made it a paragraph: the text is the same, and a
    heading stays a heading.

    Bars that would keep no block of a page leave its labels as they were:
    decoding never empties a page with text (`floor`), and
    the second pass must not either.

    A kept block whose CRF content probability is `stays` or more stays
    whatever q is. The trees learn from the other sites' first passes, and
    on a few long pages they dropped thousands of words the CRF was sure
    of (CleanEval 15, a 13,000-word report, lost 3,811 of them in one draw
    of the site folds and none in two others: docs/second-pass.md, "What
    the first pass is sure of")."""
    sure = (np.asarray(content_probabilities(marginals)) >= stays if stays is not None
            else np.zeros(len(labels), dtype=bool))
    out: list[str] = []
    for lab, m, x, kept in zip(labels, marginals, q, sure):
        if lab != OTHER:
            out.append(lab if x >= keep or kept else OTHER)
        elif x >= add:
            out.append(content_label(m, bool(out) and out[-1] != OTHER))
        else:
            out.append(OTHER)
    return out if any(lab != OTHER for lab in out) else list(labels)
