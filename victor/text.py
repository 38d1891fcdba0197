"""Tokenisation shared by the features, the perplexity model, the gold
alignment and the evaluation, so that all of them count the same words."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", re.UNICODE)
# A sentence ends at . ! or ? (possibly repeated, possibly followed by closing
# quotes or brackets) when whitespace or the end of the text follows. The
# thesis counts sentences this naively too; abbreviations are not detected.
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*(?=\s|$)")


def collapse(text: str) -> str:
    """Whitespace runs (including no-break spaces) become one space."""
    return " ".join(text.split())


def tokens(text: str) -> list[str]:
    """Whitespace-separated tokens, as the thesis's token.* features define them."""
    return text.split()


def words(text: str) -> list[str]:
    """Lower-cased runs of letters and digits: punctuation, case and spacing
    differences between a page and a person's transcript of it vanish."""
    return _WORD.findall(text.lower())


def sentences(text: str) -> list[str]:
    """Naive sentence split on terminal punctuation; a text without any
    terminal punctuation is one sentence (or none if it is empty)."""
    out = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        piece = text[start:m.end()].strip()
        if piece:
            out.append(piece)
        start = m.end()
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return out
