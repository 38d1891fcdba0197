"""What is kept or dropped as one: code blocks, data tables, lists and line
boxes whole (`whole`, `whole_boxes`), a page's text given twice once
(`drop_repeats`), and the punctuation between two kept pieces of one
paragraph (`bridge`)."""

from __future__ import annotations

from typing import Mapping, Sequence

from victor.decoding.widening import content_label
from victor.labels import OTHER
from victor.reading.text import words as words_of

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
    more than it gained (docs/notes/output.md, "Lists"). The
    probability is the CRF's own, as for the config's `keep_above`; a bar of None leaves
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


def drop_repeats(texts: Sequence[str], labels: Sequence[str], words: int | None,
                 blocks: int, block_words: int) -> list[str]:
    """The labels with each run of kept blocks that only repeat earlier
    kept text, word for word, dropped when its blocks of `block_words` or
    more hold at least `words` words and number `blocks` or more (the
    config's `repeat_words`, `repeat_blocks`, `repeat_block_words`), so
    that a quoted post or a repeated caption stays, and a code listing's
    line numbers and closing braces, which repeat on any page of code,
    count for nothing;
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
            if n >= block_words:
                run_words += n
                run_blocks += 1
            continue
        if run_words >= words and run_blocks >= blocks:
            for j in run:
                out[j] = OTHER
        run, run_words, run_blocks = [], 0, 0
        if said is not None:
            seen.add(said)
    return out


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
    decoding never empties a page with text (`fallback`)."""
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
