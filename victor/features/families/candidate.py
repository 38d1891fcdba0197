"""candidate.* (extra): the block's place relative to the page's main body
of running text, found as readability-style extractors find it: every
paragraph of some length scores its parent element in full and its
grandparent by half (one point, one more a comma, one more per hundred
characters up to three), elements whose class or id speaks of content
gain and those that speak of comments, menus or sharing lose, and each
score is cut by the element's link density. The element with the highest
score holds the text; a CRF can weigh this page-wide view against the
block's own features instead of trusting it blindly.

- candidate.in-best: the block lies inside the best-scoring element;
- candidate.share: the best score among the block's enclosing elements
  over the page's best score.
"""

from __future__ import annotations

import re
from functools import lru_cache

from victor.features.context import BINARY, RATIO, Context
from victor.reading.parser import Element

FEATURES = {"candidate.in-best": BINARY, "candidate.share": RATIO}

_GOOD = re.compile(r"article|body|content|entry|main|page|post|text|blog|story|prose|markdown",
                   re.I)
_BAD = re.compile(r"comment|foot|sidebar|side-bar|aside|share|social|sponsor|promo|related|"
                  r"widget|nav|menu|breadcrumb|cookie|banner|masthead|newsletter|subscribe|"
                  r"popup|modal|tags|meta|advert|\bads?\b", re.I)
_TAG_PRIOR = {"div": 5, "article": 5, "main": 5, "section": 3, "pre": 3, "td": 3,
              "blockquote": 3, "address": -3, "ol": -3, "ul": -3, "dl": -3, "dd": -3,
              "dt": -3, "li": -3, "form": -3, "h1": -5, "h2": -5, "h3": -5, "h4": -5,
              "h5": -5, "h6": -5, "th": -5}
_COMMAS = re.compile("[,\u060c\u3001\uff0c]")
_MIN_CHARS = 25


def _prior(el: Element) -> float:
    return _named_prior(el.tag, el.attrs.get("class"), el.attrs.get("id"))


@lru_cache(maxsize=4096)
def _named_prior(tag: str, cls: str | None, id_: str | None) -> float:
    """Pages of a site, and elements of a page, repeat their class names:
    the two patterns run once a name."""
    score = float(_TAG_PRIOR.get(tag, 0))
    for name in (cls, id_):
        if name:
            score += 25 * (bool(_GOOD.search(name)) - bool(_BAD.search(name)))
    return score


def compute(ctx: Context) -> dict[str, list]:
    blocks = ctx.blocks
    n = len(blocks)
    nearest = ctx.paths.nearest
    # Each paragraph: the text of the blocks whose nearest block-level
    # element it is, and where it sits in their path.
    chars: dict[Element, int] = {}
    commas: dict[Element, int] = {}
    depth_of: dict[Element, int] = {}
    first_block: dict[Element, int] = {}
    # Every element blocks sit in, once: its parent and depth. Words are
    # summed on the innermost element, then carried up once an element,
    # not once a block and container.
    parent: dict[Element, Element | None] = {}
    depth: dict[Element, int] = {}
    words_in: dict[Element, int] = {}
    linked_in: dict[Element, int] = {}
    words, in_link = ctx.words.tolist(), ctx.in_link.tolist()
    for i, b in enumerate(blocks):
        el = nearest[i]
        path = b.containers
        if el is not None:
            chars[el] = chars.get(el, 0) + len(b.text)
            commas[el] = commas.get(el, 0) + len(_COMMAS.findall(b.text))
            if el not in depth_of:
                depth_of[el] = path.index(el)
                first_block[el] = i
        if not path:
            continue
        last = path[-1]
        k = len(path) - 1
        while k >= 0 and path[k] not in depth:
            depth[path[k]] = k
            parent[path[k]] = path[k - 1] if k else None
            k -= 1
        w = words[i]
        if w:
            words_in[last] = words_in.get(last, 0) + w
            if in_link[i]:
                linked_in[last] = linked_in.get(last, 0) + w
    order = sorted(depth, key=depth.__getitem__)
    for el in reversed(order):  # children before their parents
        up = parent[el]
        if up is not None:
            if el in words_in:
                words_in[up] = words_in.get(up, 0) + words_in[el]
            if el in linked_in:
                linked_in[up] = linked_in.get(up, 0) + linked_in[el]
    score: dict[Element, float] = {}
    for el, size in chars.items():
        if size < _MIN_CHARS:
            continue
        points = 1 + commas[el] + min(size // 100, 3)
        path = blocks[first_block[el]].containers
        k = depth_of[el]
        for up, weight in ((1, 1.0), (2, 0.5)):
            if k - up < 0:
                break
            anc = path[k - up]
            if anc not in score:
                score[anc] = _prior(anc)
            score[anc] += points * weight
    final = {el: s * (1 - linked_in.get(el, 0) / words_in[el]) if words_in.get(el) else s
             for el, s in score.items()}
    best_el = max(final, key=final.get, default=None)
    best = final[best_el] if best_el is not None else 0.0
    # Down the tree: the best score on each element's path from the root
    # (none scored counts as 0, which the share's floor of 0 reads alike),
    # and whether the path passes the best element.
    top: dict[Element, float] = {}
    inside: dict[Element, bool] = {}
    for el in order:
        up = parent[el]
        top[el] = max(final.get(el, 0.0), top[up] if up is not None else 0.0)
        inside[el] = el is best_el or (up is not None and inside[up])
    in_best, share = [0] * n, [0.0] * n
    for i, b in enumerate(blocks):
        if b.containers and best > 0:
            last = b.containers[-1]
            share[i] = min(max(top[last] / best, 0.0), 1.0)
            in_best[i] = int(inside[last])
        elif b.containers:
            in_best[i] = int(inside[b.containers[-1]])
    return {"candidate.in-best": in_best, "candidate.share": share}
