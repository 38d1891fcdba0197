"""nearest-text (extra): how many blocks away the nearest running text is,
a block of at least TEXT_WORDS words outside links (0: the block is one).
Bylines, captions, subheadings and links inside an article are short but
stand next to paragraphs; the entries of a menu or a footer are short and
far from any. Left and right both count: a heading comes before its text,
a signature after it."""

from __future__ import annotations

import numpy as np

from victor.features.context import COUNT, Context

FEATURES = {"nearest-text": COUNT}
# About a sentence: fewer words outside links are a menu entry, a title or
# a line of metadata as often as text.
TEXT_WORDS = 15


def compute(ctx: Context) -> dict[str, np.ndarray]:
    n = len(ctx.blocks)
    text = np.flatnonzero(ctx.words * ~ctx.in_link >= TEXT_WORDS)
    if not len(text):
        return {"nearest-text": np.full(n, n, float)}
    i = np.arange(n)
    right = np.searchsorted(text, i)  # the first text block at or after i
    after = text[np.minimum(right, len(text) - 1)] - i
    before = i - text[np.maximum(right - 1, 0)]
    after = np.where(after >= 0, after, n)
    before = np.where(before >= 0, before, n)
    return {"nearest-text": np.minimum(after, before).astype(float)}
