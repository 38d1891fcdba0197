"""Stage 6a: the labels cut the page's tree down to its main content.

The CRF labels blocks, but a reader wants the page: a table as a table, code
with its line breaks, a link with its address, `H<sub>2</sub>O` as one word.
So the output is not built from the block texts but from the tree the
blocks were split from: each block knows where its text stands in it
(`Block.start`, `Block.stop`), and the kept tree holds exactly the text of
the kept blocks, inside the elements that held it. An element with no kept
text is gone; a text-free element survives only as a line break or a
formula (`parser.FORMULA`) among kept text.

What the markup does not say, the labels do: an element whose kept text is
all labelled header becomes a heading. Tables used only to lay a page out
become plain boxes, so that only data tables are drawn as tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence
from urllib.parse import urljoin

from victor.labels import OTHER
from victor.output.characters import readable
from victor.output.pictures import unkept
from victor.output.structures import SETTLED, keep_place, settle, unsettled
from victor.reading.layout import BLOCK_LEVEL, is_data_table
from victor.reading.parser import FORMULA, Element, Node

if TYPE_CHECKING:
    from victor.reading.blocks import Block

# Boxes that may become a heading when every kept word in them is a header.
_RETITLED = frozenset("div p section header center article aside hgroup".split())
# Elements copied with no attribute and under their own name (but a box
# that the labels make a heading): what _element does not need to see.
_PLAIN = frozenset(
    "div p span section article header footer aside main nav strong b em i u s small mark "
    "ul dl dt dd h1 h2 h3 h4 h5 h6 blockquote figure figcaption label font sup sub br "
    "cite dfn kbd samp var hgroup address details summary".split())
_TABLE_PARTS = frozenset("tbody thead tfoot tr td th caption colgroup col".split())
_CELLS = frozenset({"td", "th"})
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


@dataclass(frozen=True, slots=True)
class Rendering:
    """What a user may leave out of the structured formats."""

    links: bool = True
    images: bool = True
    tables: bool = True

    @classmethod
    def of(cls, options: Rendering | None = None, links: bool | None = None,
           images: bool | None = None, tables: bool | None = None) -> Rendering:
        """The options given either way the API takes them: a Rendering
        (the older form, kept working) or keywords as `extract` has them."""
        keywords = {k: v for k, v in (("links", links), ("images", images), ("tables", tables))
                    if v is not None}
        if options is not None and keywords:
            raise TypeError("give a Rendering or keywords, not both")
        return options if options is not None else cls(**keywords)


def kept_tree(body: Element, blocks: Sequence[Block], labels: list[str], base: str = "") -> Element:
    """A new tree of the kept content; the page's tree is not changed.
    `base` is the address relative links and images resolve against."""
    runs: dict[int, dict[int, tuple[int, str]]] = {}
    marked: set[int] = set()  # elements with a kept block inside
    labels_in: dict[int, set[str]] = {}  # kept labels by nearest block-level box
    outer: set[int] = set()  # boxes with a kept block in a box inside them
    settling = False  # whether structures.settle has anything to look at
    for b, label in zip(blocks, labels):
        containers = b.containers
        parent = containers[-1] if containers else body
        runs.setdefault(id(parent), {})[b.start] = (b.stop, label)
        if label == OTHER:
            continue
        if _add_ancestors(containers, marked) or unsettled(b.text):
            settling = True
        box = id(body)
        for j in range(len(containers) - 1, -1, -1):
            if containers[j].tag in BLOCK_LEVEL:
                box = id(containers[j])
                for c in containers[j - 1::-1] if j else ():
                    if c.tag in BLOCK_LEVEL:
                        if id(c) in outer:
                            break
                        outer.add(id(c))
                break
        labels_in.setdefault(box, set()).add(label)
    headers = {box for box, seen in labels_in.items() if seen == {"h"} and box not in outer}
    tree = _copy(body, runs, marked, headers, base)
    return settle(tree, base) if settling else tree


def _add_ancestors(containers: tuple[Element, ...], into: set[int]) -> bool:
    """Adds the containers innermost first, stopping at one already in:
    its own containers are in too, so each element is added once a page.
    Whether one added is of a tag structures.settle looks at."""
    found = False
    for c in reversed(containers):
        key = id(c)
        if key in into:
            return found
        into.add(key)
        found = found or c.tag in SETTLED
    return found


def _copy(body: Element, runs, marked, headers, base: str) -> Element:
    """The walk is iterative: pages nest elements thousands deep."""
    root = Element("body")
    # (source element, its copy, in a layout table, in a table of code,
    # in text whose spaces are its own: pre, code, a formula)
    stack: list[tuple[Element, Element, bool, bool, bool]] = [(body, root, False, False, False)]
    places: dict[int, dict[int, int] | None] = {}  # ordered lists' numbers, for keep_place
    while stack:
        src, dst, in_layout, in_code, literal = stack.pop()
        own = runs.get(id(src), {})
        children = src.children
        i, n = 0, len(children)
        pending: list[tuple[Element, Element, bool, bool, bool]] = []
        shown = False  # whether kept content stands before child i in src
        while i < n:
            run = own.get(i)
            if run is not None:
                stop, label = run
                if label != OTHER:
                    dst.children += [readable(node) if isinstance(node, str) else _formula(node)
                                     for node in children[i:stop]]
                    shown = True
                i = stop
                continue
            child = children[i]
            i += 1
            if isinstance(child, str):
                dst.children.append(child)  # whitespace no block holds
            elif id(child) in marked:
                cls = child.attrs.get("class")
                if (cls and ("katex" in cls or "MathJax" in cls) and _classes(child) & _RENDERED_MATH
                        or (in_code or cls and _GUTTER_HINT.search(cls)) and _gutter(child, in_code)):
                    continue
                tag = child.tag
                if tag in _PLAIN:  # most elements: copied bare
                    copy = Element("h2" if tag in _RETITLED and id(child) in headers else tag)
                    layout, code = in_layout, in_code
                else:
                    copy, layout, code = _element(child, in_layout, in_code,
                                                  id(child) in headers, base)
                if tag == "li" and src.tag == "ol":
                    keep_place(src, child, copy, dst, marked, places)
                if (not literal and i > 1 and id(children[i - 2]) in marked
                        and _apart(children[i - 2], child)):
                    dst.children.append(" ")
                dst.children.append(copy)
                pending.append((child, copy, layout, code, literal or tag in _LITERAL))
                shown = True
            elif child.tag in _CELLS and src.tag == "tr" and not in_layout:
                # A cell with no kept text keeps its place in its row: without
                # it the cells after it would stand under the wrong heads.
                cell = _bare(child, base)
                cell.children.extend(unkept(child, False, shown, lambda: True,
                                            lambda el: _bare(el, base)))
                dst.children.append(cell)
            else:
                dst.children.extend(unkept(child, src.tag == "figure", shown,
                                           lambda: i <= _last_kept(src, own, marked),
                                           lambda el: _bare(el, base)))
        stack.extend(reversed(pending))
    return root


# Elements whose text keeps its spacing as it is.
_LITERAL = frozenset({"pre", "code", "kbd", "samp", FORMULA})
# Inline elements of type, not of layout: side by side they may be one
# word (a drop cap, `<font>L</font><font>earning</font>`, H<sub>2</sub>).
_TYPE = frozenset("b strong i em u s strike font big small tt mark sub sup ins del wbr q cite "
                  "dfn var abbr".split())


def _apart(before: Node, el: Element) -> bool:
    """Whether two inline elements side by side, with no space between
    them in the source (`<span>3 beds</span><span>2.5 baths</span>`, two
    buttons, two badges), are read as two words: a page sets such boxes
    apart with its style sheet (flex items, pills, a hidden copy for
    screen readers), which the output does not have, so without a space
    "3 beds2.5 baths" and "on AmazonCheck Price" came out. Not between
    elements of type (_TYPE), and only where both edges are letters or
    digits, so that a price's `<span>$</span><span>99</span>` stays one."""
    if (isinstance(before, str) or before.tag in BLOCK_LEVEL or el.tag in BLOCK_LEVEL
            or before.tag in _TYPE or el.tag in _TYPE):
        return False
    left, right = _edge(before, True), _edge(el, False)
    return left.isalnum() and right.isalnum()


def _edge(el: Element, last: bool) -> str:
    """The first (last) character of an element's text, "" if it has none."""
    stack: list[Node] = [el]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if node:
                return node[-1] if last else node[0]
            continue
        stack.extend(node.children if last else reversed(node.children))
    return ""


def _last_kept(src: Element, own: dict[int, tuple[int, str]], marked: set[int]) -> int:
    """The index of the last of src's children that holds kept text."""
    children = src.children
    for j in range(len(children) - 1, -1, -1):
        run = own.get(j)
        if (run is not None and run[1] != OTHER
                or not isinstance(children[j], str) and id(children[j]) in marked):
            return j
    return -1


def _bare(el: Element, base: str) -> Element:
    """The clean copy of `el`, without its children."""
    return Element(el.tag) if el.tag in _PLAIN else _element(el, False, False, False, base)[0]


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


_GUTTER_HINT = re.compile(r"ln|line|gutter|blob-num", re.IGNORECASE)
_GUTTERS = frozenset({"lnt", "ln", "linenos", "linenodiv", "line-numbers-rows", "hljs-ln-numbers",
                      "gutter", "line-number", "line-numbers", "linenumber", "lineno",
                      "blob-num", "react-line-number", "code-line-number"})


def _element(el: Element, in_layout: bool, in_code: bool, header: bool,
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
    elif header and tag in _RETITLED:
        tag = "h2"
    elif "-" in tag:  # a custom element: most are boxes of a component
        tag = "div"
    elif tag in ("center", "noscript"):  # a browser with scripts on hides a noscript's content
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


def _formula(node: Element) -> Node:
    """An aside in a kept run: its formula (the only asides there are)."""
    return Element(FORMULA, dict(node.attrs), node.children) if node.tag == FORMULA else node


