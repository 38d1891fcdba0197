"""h1.* (extra): where the block stands relative to the page's headline,
its <h1>. Pages of every kind wrap their main content in the element that
holds the headline: a product's name, price, description and
specifications sit in the product's box with its name; an article's body
in the article with its title. Menus, breadcrumbs and a shop's banner come
before it; related products, reviews and recommendations after it and
outside that box. On WCXB's held-out pages the share of gold words rises
with how much of the headline's ancestry a block shares, from 0.02 to 0.45
on product pages and from 0.34 to 0.85 on articles (docs/general.md).

- h1.side: before, in, after the headline, or none (the page has no h1);
- h1.shared: the share of the headline's enclosing elements that also
  enclose the block (1: the block sits in the headline's own parent or
  below it; 0: they share only <body>, or the page has no h1).

The headline is the h1 that has the most words of the page's <title>,
the first of those: a page may give its logo an h1 in the header as well.
A page without an h1 takes the first h2 or h3 with half the title's
words; a page with neither has none.
"""

from __future__ import annotations

from victor.features.context import CATEGORY, RATIO, Context
from victor.text import words

FEATURES = {"h1.side": CATEGORY, "h1.shared": RATIO}
EXTRA = "h1"


def _covers(title: set[str], text: str) -> int:
    return len(title.intersection(words(text)))


def headline(ctx: Context) -> int | None:
    """The index of the headline's first block, or None. The h1 with the
    most title words, the first of those; on a page without an h1 (older
    sites give the headline an h2, or a styled div), the first block of
    an h2 or h3 that has at least half of the title's words."""
    title = set(words(ctx.page.title))
    best, best_found = None, -1
    seen: set[int] = set()
    for i, b in enumerate(ctx.blocks):
        h1 = next((c for c in b.containers if c.tag == "h1"), None)
        if h1 is None or id(h1) in seen:
            continue
        seen.add(id(h1))
        text = " ".join(x.text for x in ctx.blocks[i:i + 8]
                        if any(c is h1 for c in x.containers))
        found = _covers(title, text)
        if found > best_found:
            best, best_found = i, found
    if best is not None or not title:
        return best
    for i, b in enumerate(ctx.blocks):
        if b.tags and b.tags[-1] in ("h2", "h3") and 2 * _covers(title, b.text) >= len(title):
            return i
    return None


def compute(ctx: Context) -> dict[str, list]:
    n = len(ctx.blocks)
    at = headline(ctx)
    if at is None:
        return {"h1.side": ["none"] * n, "h1.shared": [0.0] * n}
    ancestry = ctx.blocks[at].containers
    depth = next(k for k in range(len(ancestry) - 1, -1, -1)
                 if ancestry[k].tag in ("h1", "h2", "h3"))
    h1 = ancestry[depth]
    side, shared = [], []
    for i, b in enumerate(ctx.blocks):
        inside = any(c is h1 for c in b.containers)
        side.append("in" if inside else "before" if i < at else "after")
        k = 0
        for a, c in zip(ancestry[:depth], b.containers):
            if a is not c:
                break
            k += 1
        shared.append(k / depth if depth else 0.0)
    return {"h1.side": side, "h1.shared": shared}
