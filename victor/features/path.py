"""path.word-share (extra): the share of the page's words, outside links,
held by the blocks that sit where this block sits: the same elements with
the same classes from <body> down. Templates repeat: every post of a
forum, every entry of a blog, every paragraph of an article sits on one
path, every entry of a menu on another. A div group (groups.py) sees one
post at a time and finds it small; the path sees all posts together and
finds them the bulk of the page, while a menu stays small however many
entries it has.

The paths are numbered with the other container facts in context.paths;
ids are left out of them, as they are often numbered per post
(`post-1093`) and would make every post a path of its own.
"""

from __future__ import annotations

from victor.features.context import RATIO, Context

FEATURES = {"path.word-share": RATIO}
EXTRA = "path"


def compute(ctx: Context) -> dict[str, list]:
    paths = ctx._groups(ctx.paths.templates)
    return {"path.word-share": paths.ratio[paths.of_block]}
