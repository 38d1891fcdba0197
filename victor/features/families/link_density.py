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
    words_in, linked_in = ctx.words_below
    whole_page = _share(int((ctx.words * ctx.in_link).sum()), int(ctx.words.sum()))
    container = [whole_page if el < 0 else _share(linked_in[el], words_in[el])
                 for el in ctx.paths.nearest]
    groups = ctx.div_groups
    linked = groups.words - groups.unlinked
    group_share = np.divide(linked, groups.words, out=np.zeros(len(linked)),
                            where=groups.words > 0)
    return {"link-density.container": container,
            "link-density.div-group": group_share[groups.of_block]}
