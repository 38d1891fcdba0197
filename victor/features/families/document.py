"""document.*: the same value on every block of a page (thesis 4.3). They
let the CRF weigh other features by the kind of page: a long article, a
short index page, or a fragmented forum whose largest group of text is
small."""

from __future__ import annotations

import numpy as np

from victor.features.context import COUNT, RATIO, Context

FEATURES = {
    "document.word-count": COUNT,
    "document.sentence-count": COUNT,
    "document.block-count": COUNT,
    "document.max-div-group": RATIO,
    "document.max-td-group": RATIO,
}


def compute(ctx: Context) -> dict[str, list]:
    n = len(ctx.blocks)
    return {
        "document.word-count": np.full(n, ctx.words.sum()),
        "document.sentence-count": np.full(n, ctx.sentences.sum()),
        "document.block-count": np.full(n, n),
        "document.max-div-group": np.full(n, ctx.div_groups.ratio.max()),
        "document.max-td-group": np.full(n, ctx.td_groups.ratio.max()),
    }
