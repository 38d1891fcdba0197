"""tag-path.* (extra): the innermost elements around the block, in order
(the tag path of the CRF form features, Gibson, Wellner and Lubar). The
container.* flags say whether a kind of element is anywhere above the
block; the path says how they nest: a link in a list item of a menu
(`ul/li/a`) is not a link in a paragraph (`div/p/a`).

- tag-path.parent: the element the block's text sits in directly;
- tag-path.3: the three innermost, outermost first, joined by `/`.
A block directly in <body> has the path `body`.
"""

from __future__ import annotations

from victor.features.context import CATEGORY, Context

FEATURES = {"tag-path.parent": CATEGORY, "tag-path.3": CATEGORY}
EXTRA = "tag-path"


def compute(ctx: Context) -> dict[str, list[str]]:
    # One path per element, shared by every block it holds directly.
    memo: dict[int, str] = {}
    parent, three = [], []
    for b in ctx.blocks:
        path = b.containers
        if not path:
            parent.append("body")
            three.append("body")
            continue
        key = id(path[-1])
        s = memo.get(key)
        if s is None:
            s = memo[key] = "/".join(el.tag for el in path[-3:])
        parent.append(path[-1].tag)
        three.append(s)
    return {"tag-path.parent": parent, "tag-path.3": three}
