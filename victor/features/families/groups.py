"""div-group.word-ratio, td-group.word-ratio (thesis 4.2): the share of the
page's words, outside links, that the block's group holds. A group is the
set of blocks whose nearest enclosing div (td) is the same: the one big
content area of a layout holds most words, menus and ads hold few."""

from __future__ import annotations

from victor.features.context import RATIO, Context

FEATURES = {"div-group.word-ratio": RATIO, "td-group.word-ratio": RATIO}


def compute(ctx: Context) -> dict[str, list]:
    div, td = ctx.div_groups, ctx.td_groups
    return {"div-group.word-ratio": div.ratio[div.of_block],
            "td-group.word-ratio": td.ratio[td.of_block]}
