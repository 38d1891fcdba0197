"""What an element without kept text gives the kept tree: spacing, line
breaks and formulas, and the pictures of the content.

The blocks are the page's text, so a picture is in no block: the labels
never keep one. The kept tree (victor/output/tree.py) keeps it where it
belongs to what is kept: the pictures of a figure whose caption is kept,
and pictures with alt text, or a figure with its caption, that stand
between kept content in one box or end a kept paragraph. A figure's
caption comes with it even where the labels dropped it: a caption is read
with its picture.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import repeat

from victor.output.characters import readable
from victor.reading.layout import BLOCK_LEVEL
from victor.reading.parser import FORMULA, Element, Node

LOOK = 64  # nodes: a larger element without text is a widget, not spacing
# A figure of more pictures is a gallery, or a row of share buttons.
_MOST_PICTURES = 4
_UNSEEN = frozenset({"noscript", "script", "style", "template", "button", "svg"})


@dataclass(slots=True)
class Found:
    """The pictures and captions seen inside an element without kept text."""

    images: list[Element] = field(default_factory=list)
    captions: list[Element] = field(default_factory=list)
    figure: bool = False  # a <figure> among them


def unkept(el: Element, in_figure: bool, shown: bool, after: Callable[[], bool],
           copy: Callable[[Element], Element]) -> list[Node]:
    """What `el`, which holds no kept text, gives the kept box it stands
    in (`text_free`, `pictures`)."""
    nodes, found = text_free(el)
    return given(el, nodes, found, in_figure, shown, after, copy)


def given(el: Element, nodes: list[Node], found: Found | None, in_figure: bool, shown: bool,
          after: Callable[[], bool], copy: Callable[[Element], Element]) -> list[Node]:
    """unkept's answer from text_free's look at `el` (`nodes`, `found`):
    its own, for the kept tree's twin, which looks in C."""
    if found is None:
        return nodes
    return (pictures(el, found, in_figure, shown, after, copy)
            or ([] if found.captions else nodes))


def text_free(el: Element) -> tuple[list[Node], Found | None]:
    """What an element without kept text gives a kept box: nothing if it
    holds text (the labels dropped it), else its spaces (which set code's
    words apart), line breaks and formulas; and the pictures it holds,
    with the captions of its figures, for `pictures` to decide on. A
    picture that links to another page is a button, a banner or a teaser,
    not one of the content's. The look stops early: such elements are
    small, and one with text shows it soon."""
    if el.tag == FORMULA:
        return [el], None
    out: list[Node] = []
    found: Found | None = None
    stack: list[tuple[Node, bool]] = [(el, False)]  # (node, inside a link away)
    seen = 0
    while stack:
        e, away = stack.pop()
        seen += 1
        if isinstance(e, str):
            if not e.isspace():
                return [], None
            out.append(e)
        elif seen > LOOK:
            return [], None
        elif e.tag == "br" or e.tag == FORMULA:
            out.append(e if e.tag == FORMULA else Element("br"))
        elif e.tag in ("img", "figcaption", "figure"):
            found = found or Found()
            if e.tag == "img":
                if not away:
                    found.images.append(e)
            elif e.tag == "figcaption":
                found.captions.append(e)
            else:
                found.figure = True
                stack.extend(zip(reversed(e.children), repeat(away)))
        elif e.tag not in _UNSEEN:
            away = away or e.tag == "a" and _away(e.attrs.get("href", ""))
            stack.extend(zip(reversed(e.children), repeat(away)))
    if found is not None and not found.images:
        return ([], None) if found.captions else (out, None)
    return out, found


def _away(href: str) -> bool:
    """Whether a link around a picture leads off it (not to its own file)."""
    return bool(href) and not _PICTURE_FILE.search(href.split("?")[0].split("#")[0])


_PICTURE_FILE = re.compile(r"\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?)$", re.IGNORECASE)


def pictures(el: Element, found: Found, in_figure: bool, shown: bool, after: Callable[[], bool],
             copy: Callable[[Element], Element]) -> list[Node]:
    """The pictures `text_free` found in `el`, copied where they belong to
    the content: inside a kept figure (`in_figure`), its picture where it
    comes before kept content, and those with alt text; a figure with its
    caption, or pictures that all have alt text, where kept content stands
    before `el` in its box (`shown`) and after it (`after()`), or a
    picture with alt text at the end of a kept paragraph ("Here is the
    table: <img alt=...>"). Nothing else: a picture with no alt text and
    no caption says nothing a reader can read, and a row of more is a
    gallery or a row of buttons. `copy`
    gives an element's clean copy without its children."""
    images = found.images
    if len(images) > _MOST_PICTURES:
        return []
    if in_figure:  # its picture before its caption, and any with alt text (no badge, no icon)
        return [copy(img) for k, img in enumerate(images) if k == 0 and not shown or _says(img)]
    captions = found.captions if found.figure else []
    if not (captions or all(map(_says, images))) or not shown:
        return []
    if not (after() or el.tag == "img" and not captions):  # a paragraph's last picture is its own
        return []
    out: list[Node] = []
    for img in images:  # side by side, as the page shows them
        out += [" ", copy(img)] if out else [copy(img)]
    out.extend(_whole(caption, copy) for caption in captions)
    if captions:
        return [Element("figure", {}, out)]
    return [Element("p", {}, out)] if el.tag in BLOCK_LEVEL else out


def _says(img: Element) -> bool:
    """Whether an image's alt text has a word (not an emoji's own glyph)."""
    return any(c.isalnum() for c in img.attrs.get("alt", ""))


def _whole(el: Element, copy: Callable[[Element], Element]) -> Element:
    """A clean copy of `el` with all it holds (a caption)."""
    root = copy(el)
    stack = [(el, root)]
    while stack:
        src, dst = stack.pop()
        for child in src.children:
            if isinstance(child, str):
                dst.children.append(readable(child))
            elif child.tag not in _UNSEEN:
                twin = copy(child)
                dst.children.append(twin)
                stack.append((child, twin))
    return root
