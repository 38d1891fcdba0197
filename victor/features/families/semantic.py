"""semantic.* (extra): what the markup says a block is, in the words of
HTML5, ARIA and schema.org rather than of one site's class names, so that
it carries over to sites never seen: a block in <nav> or role=navigation
is a menu on every site that uses them, one in <article> or
itemprop=articleBody the text.

- semantic.TAG: inside an element TAG (article, main, nav, aside, header,
  footer, form);
- semantic.role-ROLE: inside an element with that ARIA role (navigation,
  complementary, contentinfo, banner, main, article);
- semantic.itemprop: inside an element whose schema.org `itemprop` names
  the text (articleBody, text, description, reviewBody);
- semantic.hidden: inside an element a browser would not show (`hidden`,
  aria-hidden="true", an inline style with display:none): what a reader
  never sees is not its content.
"""

from __future__ import annotations

import numpy as np

from victor.features.context import BINARY, Context
from victor.reading.parser import Element

TAGS = ("article", "main", "nav", "aside", "header", "footer", "form")
ROLES = ("navigation", "complementary", "contentinfo", "banner", "main", "article")
ITEMPROPS = frozenset({"articlebody", "text", "description", "reviewbody"})
FEATURES = {**{f"semantic.{t}": BINARY for t in TAGS},
            **{f"semantic.role-{r}": BINARY for r in ROLES},
            "semantic.itemprop": BINARY, "semantic.hidden": BINARY}

_NAMES = tuple(FEATURES)
_TAG_BIT = {t: 1 << i for i, t in enumerate(TAGS)}
_ROLE_BIT = {r: 1 << (len(TAGS) + i) for i, r in enumerate(ROLES)}
_ITEMPROP_BIT = 1 << (len(TAGS) + len(ROLES))
_HIDDEN_BIT = _ITEMPROP_BIT << 1
# The attributes _own_bits reads.
_ATTRIBUTES = frozenset({"role", "itemprop", "hidden", "aria-hidden", "style"})


def _own_bits(el: Element) -> int:
    bits = _TAG_BIT.get(el.tag, 0)
    attrs = el.attrs
    if not attrs:
        return bits
    role = attrs.get("role")
    if role:
        for r in role.lower().split():
            bits |= _ROLE_BIT.get(r, 0)
    prop = attrs.get("itemprop")
    if prop and not ITEMPROPS.isdisjoint(prop.lower().split()):
        bits |= _ITEMPROP_BIT
    if ("hidden" in attrs or attrs.get("aria-hidden", "").lower() == "true"
            or "none" in attrs.get("style", "").replace(" ", "").lower().partition("display:")[2][:4]):
        bits |= _HIDDEN_BIT
    return bits


def element_bits(el: Element) -> int:
    """An element's own bits; most elements have none of the attributes
    looked at, and for them the tag alone is looked up. Carried down each
    block's containers in context.paths' walk, once an element."""
    return _TAG_BIT.get(el.tag, 0) if _ATTRIBUTES.isdisjoint(el.attrs) else _own_bits(el)


def compute(ctx: Context) -> dict[str, list]:
    bits = np.array(ctx.paths.semantic, np.int64)
    return {name: bits >> i & 1 for i, name in enumerate(_NAMES)}
