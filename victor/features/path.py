"""path.word-share (extra): the share of the page's words, outside links,
held by the blocks that sit where this block sits: the same elements with
the same classes from <body> down. Templates repeat: every post of a
forum, every entry of a blog, every paragraph of an article sits on one
path, every entry of a menu on another. A div group (groups.py) sees one
post at a time and finds it small; the path sees all posts together and
finds them the bulk of the page, while a menu stays small however many
entries it has.

Ids are left out of the path: they are often numbered per post
(`post-1093`) and would make every post a path of its own.
"""

from __future__ import annotations

from victor.blocks import Block
from victor.features.context import RATIO, Context

FEATURES = {"path.word-share": RATIO}
EXTRA = "path"


def path_numbers(blocks: list[Block]) -> list[int]:
    """One number per distinct path of (tag, class) pairs; -1 for blocks
    directly in <body>. An element's number is found once and shared by the
    blocks and elements inside it."""
    numbers: dict[tuple[int, str, str], int] = {}
    of_element: dict[int, int] = {}
    out = []
    for b in blocks:
        path = b.containers
        k = len(path)  # elements path[:k] are numbered already
        while k and id(path[k - 1]) not in of_element:
            k -= 1
        number = of_element[id(path[k - 1])] if k else -1
        for el in path[k:]:
            key = (number, el.tag, el.attrs.get("class", ""))
            number = of_element[id(el)] = numbers.setdefault(key, len(numbers))
        out.append(number)
    return out


def compute(ctx: Context) -> dict[str, list]:
    paths = ctx._groups(path_numbers(ctx.blocks))
    return {"path.word-share": paths.ratio[paths.of_block]}
