"""The clean copy of one element of the kept tree: the name it is written
under (a layout table's parts become boxes, a box of headers a heading),
the attributes it keeps, its addresses made absolute; and the elements
that are left out though they hold kept text."""

from __future__ import annotations

import re
from urllib.parse import urljoin

from victor.output.characters import readable
from victor.reading.layout import is_data_table
from victor.reading.parser import FORMULA, Element, Node

# Boxes that may become a heading when every kept word in them is a header.
RETITLED = frozenset("div p section header center article aside hgroup".split())
# Elements copied with no attribute and under their own name (but a box
# that the labels make a heading): what `copied` does not need to see.
PLAIN = frozenset(
    "div p span section article header footer aside main nav strong b em i u s small mark "
    "ul dl dt dd h1 h2 h3 h4 h5 h6 blockquote figure figcaption label font sup sub br "
    "cite dfn kbd samp var hgroup address details summary".split())
_TABLE_PARTS = frozenset("tbody thead tfoot tr td th caption colgroup col".split())
# What a clean tree keeps of an element's attributes.
_ATTRIBUTES = {"a": ("href", "title"), "img": ("src", "alt", "title"), "td": ("colspan", "rowspan"),
               "th": ("colspan", "rowspan"), "ol": ("start", "reversed", "type"),
               "li": ("value", "id"),  # the id for structures.settle, which takes it
               "time": ("datetime",), "abbr": ("title",),
               "blockquote": ("cite",), "q": ("cite",), "pre": ("class",), "code": ("class",),
               FORMULA: ("tex", "text", "display")}
# Rendered copies of a formula whose TeX or MathML stands beside them:
# KaTeX's visible glyphs and MathJax 2's rendered spans.
_RENDERED_MATH = frozenset({"katex-html", "MathJax", "MathJax_Display", "MathJax_Preview",
                            "MathJax_SVG", "MathJax_CHTML", "MathJax_SVG_Display"})
_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang|highlight|brush:?|sourceCode)-?\s*([\w+#.-]+)",
                       re.IGNORECASE)


def left_out(el: Element, in_code: bool) -> bool:
    """Whether an element with kept text inside is left out all the same:
    a formula's rendered copy (KaTeX's glyphs, MathJax's spans), whose TeX
    or MathML stands beside it, or a column of line numbers beside code."""
    cls = el.attrs.get("class")
    return bool(cls and ("katex" in cls or "MathJax" in cls) and _classes(el) & _RENDERED_MATH
                or (in_code or cls and _GUTTER_HINT.search(cls)) and _gutter(el, in_code))


def bare(el: Element, base: str) -> Element:
    """The clean copy of `el`, without its children."""
    return Element(el.tag) if el.tag in PLAIN else copied(el, False, False, False, base)[0]


def copied(el: Element, in_layout: bool, in_code: bool, header: bool,
           base: str) -> tuple[Element, bool, bool]:
    """The clean copy of `el` (no children yet), and whether the elements
    below it sit in a table drawn only for layout, and in one of code."""
    tag = el.tag
    keep = _ATTRIBUTES.get(tag, ())
    attrs = {k: el.attrs[k] for k in keep if el.attrs.get(k)}
    if tag == "table":
        in_layout = not is_data_table(el)
        in_code = in_layout and _holds(el, "pre")
        tag = "div" if in_layout else tag
    elif tag in _TABLE_PARTS and in_layout:
        tag, attrs = "div", {}
    elif header and tag in RETITLED:
        tag = "h2"
    elif "-" in tag:  # a custom element: most are boxes of a component
        tag = "div"
    elif tag in ("center", "noscript", "template"):
        # Kept text shown as any box's: a browser with scripts on hides a
        # noscript's content, and every browser a template's.
        tag = "div"
    if tag in ("a", "img"):
        for key in ("title", "alt"):  # shown as text, as the page's text is
            if key in attrs:
                attrs[key] = readable(attrs[key])
        key = "href" if tag == "a" else "src"
        url = attrs.get(key, "")
        if tag == "img" and (not url or url.lower().startswith("data:")):
            url = _lazy_source(el) or url
        if url and not url.lower().startswith(("javascript:", "data:")):
            attrs[key] = urljoin(base, url.strip()) if base else url.strip()
        else:
            attrs.pop(key, None)
    elif tag in ("pre", "code"):
        language = _language(el)
        attrs = {"class": f"language-{language}"} if language else {}
    return Element(tag, attrs), in_layout, in_code


def _gutter(el: Element, in_code: bool) -> bool:
    """A column of line numbers beside code: a cell of a table of code, or
    a box whose class says so, that holds nothing but numbers."""
    if not (in_code and el.tag == "td" or _classes(el) & _GUTTERS):
        return False
    digits = False
    stack: list[Node] = [el]
    while stack:
        e = stack.pop()
        if isinstance(e, str):
            stripped = "".join(e.split())
            if not stripped.isdigit() and stripped:
                return False
            digits = digits or bool(stripped)
        else:
            stack.extend(e.children)
    return digits


# What every name of _GUTTERS holds: where a class has none of these, no
# class is one of them (the names are matched as they are written).
_GUTTER_HINT = re.compile(r"ln|line|gutter|blob-num")
_GUTTERS = frozenset({"lnt", "ln", "linenos", "linenodiv", "line-numbers-rows", "hljs-ln-numbers",
                      "gutter", "line-number", "line-numbers", "linenumber", "lineno",
                      "blob-num", "react-line-number", "code-line-number"})


def _lazy_source(img: Element) -> str:
    """The picture's address where a script loads it late and `src` holds
    a placeholder (a data: URI) or nothing."""
    for key in ("data-src", "data-lazy-src", "data-original", "srcset", "data-srcset"):
        value = img.attrs.get(key, "").strip()
        if value and not value.lower().startswith("data:"):
            return value.split(",")[0].split()[0] if "srcset" in key else value
    return ""


def _holds(el: Element, tag: str) -> bool:
    stack = [el]
    while stack:
        e = stack.pop()
        if e.tag == tag:
            return True
        stack.extend(c for c in e.children if isinstance(c, Element))
    return False


def _language(el: Element) -> str:
    """The language a code block's class names, on it or on its <code>."""
    for e in (el, *(c for c in el.children if isinstance(c, Element) and c.tag == "code")):
        m = _LANGUAGE.search(e.attrs.get("class", ""))
        if m and m.group(1).lower() not in ("none", "plaintext", "text", "nohighlight"):
            return m.group(1).lower()
    return ""


def _classes(el: Element) -> set[str]:
    cls = el.attrs.get("class", "")
    return set(cls.split()) if cls else set()
