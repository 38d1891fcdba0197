"""kind.*: path.blocks and path.span over element kinds (context.kind),
where a kind merges paths: a shop grid's 39 items, each with classes of its
own, are 39 one-block paths but one kind of 39 blocks. 0 where the kind is
its path: with the figures repeated there, the CRF read path.* twice and
learnt to keep blog comment threads (docs/notes/general.md, "Tried, not kept")."""

from __future__ import annotations

import numpy as np

from victor.features.context import COUNT, RATIO, Context

FEATURES = {"kind.blocks": COUNT, "kind.span": RATIO}


def compute(ctx: Context) -> dict[str, np.ndarray]:
    kinds = np.asarray(ctx.paths.kinds, np.int64) + 1
    templates = np.asarray(ctx.paths.templates, np.int64) + 1
    n = len(kinds)
    if n == 0:
        return {"kind.blocks": np.zeros(0), "kind.span": np.zeros(0)}
    blocks = np.bincount(kinds)
    width = int(templates.max()) + 1
    paths_in = np.bincount(np.unique(kinds * width + templates) // width, minlength=len(blocks))
    first, last = np.full(len(blocks), n), np.full(len(blocks), -1)
    np.minimum.at(first, kinds, np.arange(n))
    np.maximum.at(last, kinds, np.arange(n))
    merges = paths_in[kinds] > 1
    return {"kind.blocks": np.where(merges, blocks[kinds], 0).astype(float),
            "kind.span": np.where(merges, ((last - first + 1) / n)[kinds], 0.0)}
