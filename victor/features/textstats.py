"""The counts the content features share, for all blocks of a page at once.

Characters, tokens, words and sentence ends are counted with numpy over
the page's text as one array of code points: looping over 16,000
characters a page in Python would cost more than the rest of the feature
table together. The definitions are those of victor.text, so that the
features count what the rest of Victor counts: tokens are separated by
whitespace, a word is a run of \\w characters, and a token ends a
sentence when it ends with . ! or ? and then only closing quotes or
brackets.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import numpy as np

from victor.text import CLOSING_MARKS, SENTENCE_TERMINALS, WIDE_TERMINALS

# Character classes of char.*: letters, decimal digits, Unicode punctuation
# (P*), whitespace, anything else.
ALPHA, NUM, PUNCT, WHITE, OTHER = range(5)
# Token classes of token.*, by whether a token has letters and digits.
WORD_TOKEN, NUM_TOKEN, MIX_TOKEN, OTHER_TOKEN = range(4)
# Between blocks, never inside one (block text is collapsed); whitespace.
_SEPARATOR = "\n"
_CLOSERS = CLOSING_MARKS
_TERMINALS = SENTENCE_TERMINALS
# A character's properties in one byte: its class in the low bits, then
# flags.
_CLASS_BITS, _WORD, _CLOSER, _TERMINAL, _LOWER, _WIDE = 7, 8, 16, 32, 64, 128


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
    return (cls | _WORD * (c.isalnum() or c == "_") | _CLOSER * (c in _CLOSERS)
            | _TERMINAL * (c in _TERMINALS) | _LOWER * c.islower() | _WIDE * (c in WIDE_TERMINALS))


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

    word = (props & _WORD).astype(bool)
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
    # quote or bracket is terminal punctuation (victor.text.sentences).
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
