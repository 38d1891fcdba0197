"""main-group.* (extra): where the block stands relative to the page's
main div (td) group, the group holding the most words outside links
(groups.py). On an article page that group is the body text; the
headline usually comes just before it, comments and related links after.

Values: `in` the block belongs to the main group; `within` it sits in a
group nested inside the main group's element (between the main group's
first and last block); `before`, `after` otherwise.
"""

from __future__ import annotations

import numpy as np

from victor.features.context import CATEGORY, Context

FEATURES = {"main-group.div": CATEGORY, "main-group.td": CATEGORY}
_PLACES = np.array(["before", "within", "after", "in"], dtype=object)


def _places(of_block: np.ndarray, unlinked: np.ndarray) -> np.ndarray:
    """On a page whose every word is in a link (a menu, a list of links) no
    group has a word outside links; the main group is then the first group
    that has blocks at all, since group 0 (blocks outside any div or td)
    may have none."""
    if not len(of_block):
        return _PLACES[:0]
    present = np.bincount(of_block, minlength=len(unlinked)) > 0
    main = int(np.argmax(np.where(present, unlinked, -1.0)))
    at = np.flatnonzero(of_block == main)
    i = np.arange(len(of_block))
    place = np.where(i < at[0], 0, np.where(i > at[-1], 2, 1))
    return _PLACES[np.where(of_block == main, 3, place)]


def compute(ctx: Context) -> dict[str, np.ndarray]:
    div, td = ctx.div_groups, ctx.td_groups
    return {"main-group.div": _places(np.asarray(div.of_block), div.unlinked),
            "main-group.td": _places(np.asarray(td.of_block), td.unlinked)}
