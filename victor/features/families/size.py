"""size.* (extra): how many words the block's box and the boxes beside it
hold (the "sizes of elements" and neighbouring DOM nodes of the CRF form
features, Gibson, Wellner and Lubar). A box is the block's nearest
block-level container (spans.py). An article paragraph is a large box
between large boxes; a teaser or a caption is a small box among small
ones, whatever the size of the block's own words.

- size.container: words of the block's box;
- size.before, size.after: words of the box that ends just before the
  block's box begins (starts just after it ends), counted outside the
  block's box when it encloses it; 0 at the page's edges.
"""

from __future__ import annotations

import numpy as np

from victor.features.context import COUNT, Context
from victor.features.spans import nearest_ranges, running

FEATURES = {"size.container": COUNT, "size.before": COUNT, "size.after": COUNT}


def compute(ctx: Context) -> dict[str, np.ndarray]:
    n = len(ctx.blocks)
    lo, hi = nearest_ranges(ctx)
    w = running(np.asarray(ctx.words, float))
    inside = w[hi + 1] - w[lo]
    prev = np.maximum(lo - 1, 0)  # the block before the box
    before = np.where(lo > 0, w[lo] - w[lo[prev]], 0.0)
    nxt = np.minimum(hi + 1, n - 1)  # the block after the box
    after = np.where(hi < n - 1, w[hi[nxt] + 1] - w[hi + 1], 0.0)
    return {"size.container": inside, "size.before": before, "size.after": after}
