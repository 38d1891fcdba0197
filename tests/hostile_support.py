"""What the hostile-corpus tests share: the corpus (tests/hostile/), a case
of it cleaned, and measures of what a cleaning kept."""

from __future__ import annotations

from collections import Counter

from repo_data import ROOT

from victor.cleaner import Cleaner
from victor.reading.text import words

HOSTILE = ROOT / "tests" / "hostile"


def clean(cleaner: Cleaner, name: str):
    path = HOSTILE / name
    return cleaner.clean(path.read_bytes(), str(path))


def shared_words(text: str, reference: str) -> float:
    """The share of the reference's words (with repeats) that the text has."""
    ref = Counter(words(reference))
    return sum((Counter(words(text)) & ref).values()) / sum(ref.values())


def assert_nothing_invented(result) -> None:
    """Every letter and digit of the text is one of the page's blocks': words
    may join where inline tags split a word without a space between."""
    def letters(text: str) -> Counter:
        return Counter(c for c in text if c.isalnum())
    assert not letters(result.text()) - letters(" ".join(result.texts))
