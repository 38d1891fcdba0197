"""link-density.* (extra): the share of words inside <a> around the block.
Menus, tag clouds and related-article lists are mostly links; paragraphs
of an article are mostly not.

- link-density.container: over the block's nearest block-level container
  (a <p>, <li>, <td>, <div>, ... with everything inside it; the whole page
  for a block in none).
- link-density.div-group: over the block's div group (see groups.py).

The block's own share would be 0 or 1 and say what container.a says, as
every tag ends a block; the div group is the wider view that adds to it.
"""

from __future__ import annotations

import numpy as np

from victor.features.context import RATIO, Context

FEATURES = {"link-density.container": RATIO, "link-density.div-group": RATIO}


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def compute(ctx: Context) -> dict[str, list]:
    blocks = ctx.blocks
    # Words before block i: the words of blocks i..j are a difference.
    all_before = [0, *np.cumsum(ctx.words).tolist()]
    linked_before = [0, *np.cumsum(ctx.words * ctx.in_link).tolist()]
    whole_page = _share(linked_before[-1], all_before[-1])
    share: dict[int, float] = {}
    container = []
    for i, el in enumerate(ctx.paths.nearest):
        if el is None:
            container.append(whole_page)
            continue
        s = share.get(id(el))
        if s is None:
            # The blocks inside an element are consecutive: those whose path
            # has it at the same depth.
            path = blocks[i].containers
            k = len(path) - 1
            while path[k] is not el:
                k -= 1
            lo = hi = i
            while lo > 0 and len(p := blocks[lo - 1].containers) > k and p[k] is el:
                lo -= 1
            while hi + 1 < len(blocks) and len(p := blocks[hi + 1].containers) > k and p[k] is el:
                hi += 1
            s = share[id(el)] = _share(linked_before[hi + 1] - linked_before[lo],
                                       all_before[hi + 1] - all_before[lo])
        container.append(s)
    groups = ctx.div_groups
    linked = groups.words - groups.unlinked
    group_share = np.divide(linked, groups.words, out=np.zeros(len(linked)),
                            where=groups.words > 0)
    return {"link-density.container": container,
            "link-density.div-group": group_share[groups.of_block]}
