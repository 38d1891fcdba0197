"""Tokenisation shared by the features, the perplexity model, the gold
alignment and the evaluation, so that all of them count the same words."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", re.UNICODE)
# What ends a sentence in the scripts of the web, not in English alone: the
# full stop, question and exclamation marks, the ellipsis, their full-width
# CJK forms, the Arabic question mark and full stop, the Devanagari danda,
# the Armenian and Ethiopic full stops.
SENTENCE_TERMINALS = ".!?\u2026\u3002\uff01\uff1f\uff61\u061f\u06d4\u0964\u0965\u0589\u1362"
# Closing quotes and brackets that may follow the terminal.
CLOSING_MARKS = "\"')]\u201d\u2019\u00bb\u300d\u300f\uff09\u3011"
# Chinese and Japanese put no space after a sentence: their full-width
# terminals end one wherever text follows them directly.
WIDE_TERMINALS = "\u3002\uff01\uff1f\uff61"
# A sentence ends at a run of terminals (possibly followed by closing
# marks) when whitespace or the end of the text follows, and at a run of
# wide terminals followed by text. The thesis counts sentences this
# naively too; abbreviations are not detected.
_T, _C, _W = (re.escape(x) for x in (SENTENCE_TERMINALS, CLOSING_MARKS, WIDE_TERMINALS))
_SENTENCE_END = re.compile(f"[{_T}]+[{_C}]*(?=\\s|$)|[{_W}]+(?=[^\\s{_C}{_W}])")


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
