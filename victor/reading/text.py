"""Tokenisation shared by the features, the perplexity model, the gold
alignment and the evaluation, so that all of them count the same words.

Its one home: tokens, words and sentences of a string (`tokens`, `words`,
`sentences`), and the same counts for all blocks of a page at once
(`text_stats`). The features need the counts of every block, and looping
over every character of a page in Python would cost more than the rest of
the feature table together, so `text_stats` counts them with numpy over
the page's text as one array of code points; it follows the definitions
above it: tokens are separated by whitespace, a word is a run of \\w
characters, and a token ends a sentence when it ends with terminal
punctuation and then only closing quotes or brackets.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import numpy as np

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


# --- the counts of every block of a page at once ---------------------------

# Character classes of char.*: letters, decimal digits, Unicode punctuation
# (P*), whitespace, anything else.
ALPHA, NUM, PUNCT, WHITE, OTHER = range(5)
# Token classes of token.*, by whether a token has letters and digits.
WORD_TOKEN, NUM_TOKEN, MIX_TOKEN, OTHER_TOKEN = range(4)
# Between blocks, never inside one (block text is collapsed); whitespace.
_SEPARATOR = "\n"
# A character's properties in one byte: its class in the low bits, then
# flags.
_CLASS_BITS, _WORD_CHAR, _CLOSER, _TERMINAL, _LOWER, _WIDE = 7, 8, 16, 32, 64, 128


@dataclass(slots=True)
class TextStats:
    chars: np.ndarray  # blocks x 5: characters by class ALPHA..OTHER
    tokens: np.ndarray  # blocks x 4: tokens by class WORD_TOKEN..OTHER_TOKEN
    token_count: np.ndarray  # tokens a block
    words: np.ndarray  # runs of \w characters a block
    sentence_ends: np.ndarray  # tokens ending a sentence, a block
    ends_sentence: np.ndarray  # bool: the block's last token ends a sentence
    begins_lower: np.ndarray  # bool: the block's first \w character is lower-case
    letters: list[str]  # the block's letters in order, for comparing blocks


def _properties(c: str) -> int:
    if c.isalpha():
        cls = ALPHA
    elif c.isdecimal():
        cls = NUM
    elif c.isspace():
        cls = WHITE
    else:
        cls = PUNCT if unicodedata.category(c)[0] == "P" else OTHER
    return (cls | _WORD_CHAR * (c.isalnum() or c == "_") | _CLOSER * (c in CLOSING_MARKS)
            | _TERMINAL * (c in SENTENCE_TERMINALS) | _LOWER * c.islower() | _WIDE * (c in WIDE_TERMINALS))


def _ascii_properties() -> np.ndarray:
    table = np.array([_properties(chr(i)) for i in range(128)], np.uint8)
    table.flags.writeable = False
    return table


_ASCII = _ascii_properties()


def _classify(cp: np.ndarray) -> np.ndarray:
    """The properties of every code point: ASCII from a table, the distinct
    others looked up once each."""
    props = _ASCII.take(cp, mode="clip")  # code points above 127 read as 127
    high = np.flatnonzero(cp > 127)
    if len(high):
        distinct, inverse = np.unique(cp[high], return_inverse=True)
        table = np.array([_properties(chr(c)) for c in distinct.tolist()], np.uint8)
        props[high] = table[inverse]
    return props


def text_stats(texts: list[str]) -> TextStats:
    """Counts of every block; each text must be non-empty and collapsed."""
    n = len(texts)
    if not n:
        none = np.zeros(0, np.int64)
        return TextStats(np.zeros((0, 5), np.int64), np.zeros((0, 4), np.int64), none, none,
                         none, none.astype(bool), none.astype(bool), [])
    cp = np.frombuffer((_SEPARATOR.join(texts) + _SEPARATOR).encode("utf-32-le"), np.uint32)
    props = _classify(cp)
    cls = props & _CLASS_BITS
    sizes = np.fromiter(map(len, texts), np.int64, n) + 1  # with the separator
    block = np.repeat(np.arange(n), sizes)  # of each character
    chars = np.bincount(block * 5 + cls, minlength=5 * n).reshape(n, 5)
    chars[:, WHITE] -= 1  # the separator

    gap = cls == WHITE
    starts = ~gap
    starts[1:] &= gap[:-1]
    first = np.flatnonzero(starts)  # the first character of each token
    ends = ~gap
    ends[:-1] &= gap[1:]
    last = np.flatnonzero(ends)
    token_block = block[first]
    token_count = np.bincount(token_block, minlength=n)
    # Gaps have neither letters nor digits, so a token's stretch may take
    # in the gap after it. Digits are few: find their tokens by search.
    is_alpha = cls == ALPHA
    has_letter = np.logical_or.reduceat(is_alpha, first)
    has_digit = np.zeros(len(first), bool)
    has_digit[np.searchsorted(first, np.flatnonzero(cls == NUM), side="right") - 1] = True
    kind = np.where(has_letter, np.where(has_digit, MIX_TOKEN, WORD_TOKEN),
                    np.where(has_digit, NUM_TOKEN, OTHER_TOKEN))
    tokens = np.bincount(token_block * 4 + kind, minlength=4 * n).reshape(n, 4)

    word = (props & _WORD_CHAR).astype(bool)
    word_start = word.copy()
    word_start[1:] &= ~word[:-1]
    word_start = np.flatnonzero(word_start)
    word_block = block[word_start]
    words = np.bincount(word_block, minlength=n)
    # The first word character of a block, if it has one.
    first_word = np.searchsorted(word_block, np.arange(n))
    has_word = first_word < len(word_block)
    has_word[has_word] = word_block[first_word[has_word]] == np.arange(n)[has_word]
    begins_lower = np.zeros(n, bool)
    begins_lower[has_word] = props[word_start[first_word[has_word]]] & _LOWER != 0

    # A token ends a sentence when its last character that is no closing
    # quote or bracket is terminal punctuation (victor.reading.text.sentences).
    end = last.copy()
    back = (props[end] & _CLOSER != 0) & (end > first)
    while back.any():  # as many rounds as a token has closing characters
        end[back] -= 1
        back &= (props[end] & _CLOSER != 0) & (end > first)
    ends_token = props[end] & _TERMINAL != 0
    sentence_ends = np.bincount(token_block[ends_token], minlength=n)
    # Inside a token, a wide terminal followed by text ends a sentence too.
    wide = np.flatnonzero(props[:-1] & _WIDE)
    if len(wide):
        after = props[wide + 1]
        inner = wide[(after & (_WIDE | _CLOSER) == 0) & (after & _CLASS_BITS != WHITE)]
        sentence_ends += np.bincount(block[inner], minlength=n)
    ends_sentence = ends_token[np.cumsum(token_count) - 1]

    letter_text = cp[is_alpha].tobytes().decode("utf-32-le")
    cut = np.concatenate(([0], np.cumsum(chars[:, ALPHA]))).tolist()
    letters = [letter_text[a:b] for a, b in zip(cut, cut[1:])]
    return TextStats(chars, tokens, token_count, words, sentence_ends, ends_sentence,
                     begins_lower, letters)
