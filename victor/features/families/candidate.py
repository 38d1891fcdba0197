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

from victor.compiled import twin
from victor.features.context import BINARY, RATIO, Context
from victor.reading.parser import Element

FEATURES = {"candidate.in-best": BINARY, "candidate.share": RATIO}

_GOOD = re.compile(r"article|body|content|entry|main|page|post|text|blog|story|prose|markdown",
                   re.I)
_BAD = re.compile(r"comment|foot|sidebar|side-bar|aside|share|social|sponsor|promo|related|"
                  r"widget|nav|menu|breadcrumb|cookie|banner|masthead|newsletter|subscribe|"
                  r"popup|modal|tags|meta|advert|\bads?\b", re.I)
# The same, case-sensitive, for names in ASCII matched in lower case: the
# case-blind form tried every alternative at each character of a site's
# long class lists, several times slower. Other names keep it, whose
# folding (U+017F for s, the Kelvin sign for k) lower() does not do.
_GOOD_LOWER, _BAD_LOWER = re.compile(_GOOD.pattern), re.compile(_BAD.pattern)
_TAG_PRIOR = {"div": 5, "article": 5, "main": 5, "section": 3, "pre": 3, "td": 3,
              "blockquote": 3, "address": -3, "ol": -3, "ul": -3, "dl": -3, "dd": -3,
              "dt": -3, "li": -3, "form": -3, "h1": -5, "h2": -5, "h3": -5, "h4": -5,
              "h5": -5, "h6": -5, "th": -5}
COMMAS = ",\u060c\u3001\uff0c"  # Latin, Arabic, ideographic and full-width
_COMMAS = re.compile(f"[{COMMAS}]")
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
            good, bad = _GOOD, _BAD
            if name.isascii():
                good, bad, name = _GOOD_LOWER, _BAD_LOWER, name.lower()
            score += 25 * (bool(good.search(name)) - bool(bad.search(name)))
    return score


def compute(ctx: Context) -> dict[str, list]:
    blocks = ctx.blocks
    n = len(blocks)
    paths = ctx.paths
    elements, parents, inner = paths.elements, paths.parents, paths.inner
    # Each paragraph (each block's nearest block-level container, by its
    # number): the characters and commas of its blocks, in the order the
    # blocks first meet it, which decides a tie for the best score.
    chars: dict[int, int] = {}
    commas: dict[int, int] = {}
    for el, b in zip(paths.nearest, blocks):
        if el >= 0:
            chars[el] = chars.get(el, 0) + len(b.text)
            commas[el] = commas.get(el, 0) + len(_COMMAS.findall(b.text))
    words_in, linked_in = ctx.words_below
    score: dict[int, float] = {}
    for el, size in chars.items():
        if size < _MIN_CHARS:
            continue
        points = 1 + commas[el] + min(size // 100, 3)
        anc = el
        for weight in (1.0, 0.5):
            anc = parents[anc]
            if anc < 0:
                break
            if anc not in score:
                score[anc] = _prior(elements[anc])
            score[anc] += points * weight
    final = {el: s * (1 - linked_in[el] / words_in[el]) if words_in[el] else s
             for el, s in score.items()}
    best_el = max(final, key=final.get, default=None)
    best = final[best_el] if best_el is not None else 0.0
    # Down the tree, a parent before its children: the best score on each
    # element's path from the root (none scored counts as 0, which the
    # share's floor of 0 reads alike), and whether the path passes the best
    # element.
    top: list[float] = []
    inside: list[bool] = []
    for el, up in enumerate(parents):
        top.append(max(final.get(el, 0.0), top[up] if up >= 0 else 0.0))
        inside.append(el == best_el or (up >= 0 and inside[up]))
    in_best, share = [0] * n, [0.0] * n
    for i, last in enumerate(inner):
        if last >= 0 and best > 0:
            share[i] = min(max(top[last] / best, 0.0), 1.0)
            in_best[i] = int(inside[last])
        elif last >= 0:
            in_best[i] = int(inside[last])
    return {"candidate.in-best": in_best, "candidate.share": share}


# The scores compiled (victor/compiled/_candidate.pyx) where they were
# built; the function above stays the reference and the fallback.
compute_py = compute
compute = twin(compute_py, "_candidate")
