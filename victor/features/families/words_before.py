"""words-before (extra): the share of the page's words in the blocks before
this one. The thesis's position counts blocks, and a menu of sixty
one-word entries moves it as far as an article of sixty paragraphs; in
words, the navigation at the top of a page is a thin slice, and where the
main text begins and ends shows as a steep rise."""

from __future__ import annotations

import numpy as np

from victor.features.context import RATIO, Context

FEATURES = {"words-before": RATIO}


def compute(ctx: Context) -> dict[str, np.ndarray]:
    words = np.asarray(ctx.words, float)
    total = words.sum()
    before = np.cumsum(words) - words
    return {"words-before": before / total if total else np.zeros(len(words))}
