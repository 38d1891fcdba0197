"""text-density.* (extra): words per line as the text would wrap at 80
columns (Kohlschütter, Fankhauser and Nejdl's text density). Sentences of
an article fill their lines with some ten to fourteen words; a menu, a
byline or a row of links is one short line of a few. A text shorter than
a line counts as one line, so there the density is its word count.

- text-density.block: of the block itself;
- text-density.container: of its nearest block-level container as a
  whole (see spans.py), the unit a reader sees as one paragraph or box.
"""

from __future__ import annotations

import numpy as np

from victor.features.context import COUNT, Context
from victor.features.spans import nearest_ranges, running

FEATURES = {"text-density.block": COUNT, "text-density.container": COUNT}
LINE = 80  # characters a line, as Kohlschütter et al. wrap text


def _density(words: np.ndarray, chars: np.ndarray) -> np.ndarray:
    return words / np.maximum(1.0, chars / LINE)


def compute(ctx: Context) -> dict[str, np.ndarray]:
    words = np.asarray(ctx.words, float)
    chars = np.fromiter(map(len, ctx.texts), float, len(ctx.texts))
    lo, hi = nearest_ranges(ctx)
    w, c = running(words), running(chars)
    return {"text-density.block": _density(words, chars),
            "text-density.container": _density(w[hi + 1] - w[lo], c[hi + 1] - c[lo])}
