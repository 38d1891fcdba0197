"""position: where the block is in the page, counted in blocks (thesis
4.3); the beginning and the end of a page are mostly navigation."""

from __future__ import annotations

import numpy as np

from victor.features.context import RATIO, Context

FEATURES = {"position": RATIO}


def compute(ctx: Context) -> dict[str, list]:
    n = len(ctx.blocks)
    return {"position": np.arange(n) / n}
