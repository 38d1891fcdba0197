"""Scoring cleaned pages against the text a person kept, as CleanEval did.

CleanEval's text-only measure ignores the <p>/<h>/<l> markup and compares
words: the words of the extracted text and of the gold text are aligned by
their longest common subsequence (LCS), so that a word counts as found only
where it stands in the same order as in the gold. Precision is LCS over the
extracted words, recall LCS over the gold words.

Shingle scores complement it: the multiset of consecutive 4-word tuples of
either text, matched as multisets (a passage repeated twice in the gold must
be extracted twice to be fully found). They are stricter about fragments: a
stray or missing word breaks up to four shingles, and text extracted in pieces
loses the shingles that span each break.

Totals are micro-averaged: matched, extracted and gold counts are summed over
pages before dividing, so a long page weighs more than a short one, as in a
corpus built from the output. Per-page figures are kept for macro views.

A ratio with nothing to count (no extracted words for precision, no gold
words for recall) is 1.0: nothing was got wrong, or nothing could be missed.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from rapidfuzz.distance import LCSseq

from victor.errors import VictorError, read_utf8
from victor.labels import CONTENT
from victor.reading.text import words

SHINGLE_SIZE = 4


_MARKER = re.compile(r"<[phl]>", re.IGNORECASE)


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


@dataclass(frozen=True)
class Overlap:
    """How much of the extracted items match gold items, as counts so that
    pages can be summed."""

    matched: int
    extracted: int
    gold: int

    @property
    def precision(self) -> float:
        return _ratio(self.matched, self.extracted)

    @property
    def recall(self) -> float:
        return _ratio(self.matched, self.gold)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def __add__(self, other: Overlap) -> Overlap:
        return Overlap(self.matched + other.matched, self.extracted + other.extracted,
                       self.gold + other.gold)


def word_overlap(extracted: Sequence[str], gold: Sequence[str]) -> Overlap:
    """Words matched by the longest common subsequence (bit-parallel in C,
    so that a 20,000-word page is no burden)."""
    return Overlap(LCSseq.similarity(extracted, gold), len(extracted), len(gold))


def bag_overlap(extracted: Sequence[str], gold: Sequence[str]) -> Overlap:
    """Words matched as multisets, order ignored: WCXB's measure (Foley,
    2026), whose gold does not always follow the page's order. WCXB
    averages the F1 of pages (macro), not the counts."""
    return Overlap(sum((Counter(extracted) & Counter(gold)).values()), len(extracted), len(gold))


def shingles(tokens: Sequence[str], size: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    return Counter(zip(*(tokens[i:] for i in range(size))))


def shingle_overlap(extracted: Sequence[str], gold: Sequence[str],
                    size: int = SHINGLE_SIZE) -> Overlap:
    ours, theirs = shingles(extracted, size), shingles(gold, size)
    return Overlap(sum((ours & theirs).values()), sum(ours.values()), sum(theirs.values()))


@dataclass(frozen=True)
class PageScore:
    name: str
    words: Overlap
    shingles: Overlap


def score_page(name: str, extracted_text: str, gold_text: str) -> PageScore:
    """Both texts are compared on words only (victor.reading.text.words), so strip
    CleanEval markers first (parse_cleaneval)."""
    ours, theirs = words(extracted_text), words(gold_text)
    return PageScore(name, word_overlap(ours, theirs), shingle_overlap(ours, theirs))


def micro_total(scores: Iterable[PageScore]) -> PageScore:
    """The pages' counts summed, named 'total'."""
    total = PageScore("total", Overlap(0, 0, 0), Overlap(0, 0, 0))
    for s in scores:
        total = PageScore("total", total.words + s.words, total.shingles + s.shingles)
    return total


@dataclass(frozen=True)
class CleanevalPage:
    url: str
    text: str


def parse_cleaneval(content: str, source: str) -> CleanevalPage:
    """Splits CleanEval text (a first line `URL: ...`, then segments each
    opened by <p>, <h> or <l>) into its URL and its text with the markers
    replaced by line breaks. Markers may stand mid-line in the gold files."""
    first, _, rest = content.lstrip("\ufeff").partition("\n")
    if not first.strip().startswith("URL:"):
        raise VictorError(f"{source}: not CleanEval text (first line must be 'URL: ...')")
    return CleanevalPage(first.strip()[4:].strip(), _MARKER.sub("\n", rest))


def read_cleaneval(path: str | os.PathLike) -> CleanevalPage:
    content = read_utf8(path, "gold file")
    return parse_cleaneval(content, str(path))


def _check_lengths(predicted: Sequence[str], gold: Sequence[str]) -> None:
    if len(predicted) != len(gold):
        raise ValueError(f"{len(predicted)} predicted labels for {len(gold)} gold labels")


def label_accuracy(predicted: Sequence[str], gold: Sequence[str]) -> float:
    """Share of blocks given exactly their gold label (the thesis's 'full
    set' accuracy). Pool pages by concatenating their labels."""
    _check_lengths(predicted, gold)
    return _ratio(sum(p == g for p, g in zip(predicted, gold)), len(gold))


def content_accuracy(predicted: Sequence[str], gold: Sequence[str]) -> float:
    """Share of blocks put on the right side of content (p, h, l, c) versus
    noise (o): the distinction that decides what text is kept."""
    _check_lengths(predicted, gold)
    agree = sum((p in CONTENT) == (g in CONTENT) for p, g in zip(predicted, gold))
    return _ratio(agree, len(gold))
