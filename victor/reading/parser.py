"""Stage 1: raw bytes of any encoding become an HTML tree built by HTML5 rules.

The bytes are decoded in victor/reading/encoding.py, and an element left unclosed
is read past in victor/reading/swallowed.py; this module builds the tree.

Every parser backend produces the same small tree of `Element`s (text as
plain strings among the children), so the later stages never depend on
which parser ran. The tree is built without recursion: real pages nest
elements tens of thousands deep.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Union

from victor.compiled import twin
from victor.reading.encoding import decode, drop_controls, sniff
from victor.settings import default
from victor.errors import VictorError, about
from victor.reading.depth import MAX_DEPTH, limit_depth
from victor.reading.swallowed import recover_swallowed

Node = Union["Element", str]

# Elements that never have content; the blocks stage emits no closing tag
# for them.
VOID = frozenset(
    "area base br col embed hr img input keygen link meta param source track wbr".split()
)


# What preclean makes of a formula the config deletes (victor/reading/preclean.py):
# a name no parser gives an element. Blocks pass over such asides; the
# output renders them.
FORMULA = "#formula"
ASIDE = frozenset({FORMULA})


@dataclass(slots=True, eq=False)
class Element:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)


# A tree as a flat list, for pickling: each element's tag, attributes and
# children, an element child given by its index in the list.
FlatTree = list[tuple[str, dict[str, str], list[Union[str, int]]]]


def flatten(roots: list[Element]) -> tuple[FlatTree, dict[int, int]]:
    """The trees under `roots` as a flat list, and each element's index in
    it (by id). Pickle walks a tree by recursion, which a page nested a few
    hundred elements deep (as deep as victor/reading/depth.py lets it) exceeds."""
    index: dict[int, int] = {}
    order: list[Element] = []
    stack = list(reversed(roots))
    while stack:
        element = stack.pop()
        if id(element) in index:
            continue
        index[id(element)] = len(order)
        order.append(element)
        stack.extend(c for c in reversed(element.children) if isinstance(c, Element))
    flat = [(e.tag, e.attrs, [c if isinstance(c, str) else index[id(c)] for c in e.children])
            for e in order]
    return flat, index


def unflatten(flat: FlatTree) -> list[Element]:
    """The elements of a flattened tree, in its order, linked again."""
    elements = [Element(tag, attrs, []) for tag, attrs, _ in flat]
    for element, (_, _, children) in zip(elements, flat):
        element.children = [c if isinstance(c, str) else elements[c] for c in children]
    return elements


@dataclass(slots=True)
class Document:
    root: Element
    encoding: str
    # What recover_swallowed closed, e.g. "unclosed <title>": a page cleaned
    # from markup other than its own says so in its record.
    recovered: list[str] = field(default_factory=list)


# --- parser backends ----------------------------------------------------


def _attributes(node) -> dict[str, str]:
    """lexbor gives None for an attribute without a value (`<td nowrap>`,
    `<html lang>`); every stage reads attribute values as strings."""
    attrs = node.attributes  # a fresh dict, ours to keep
    if attrs and None in attrs.values():
        attrs = {k: v or "" for k, v in attrs.items()}
    return attrs


def _node_name(tag: str | None) -> str:
    """What the tree calls a node selectolax names `tag`: "-text" for text,
    an element's name in lower case, "" for what is neither (comments, the
    doctype), which the conversion passes over."""
    return tag if tag == "-text" else tag.lower() if tag and tag[0] != "-" and tag != "!doctype" else ""


def _from_lexbor(text: str, max_depth: int | None = None) -> Element | None:
    """None if the tree nests deeper than `max_depth` (when given).

    A node's name is read once a page per tag (lexbor numbers each tag
    name of a document, `tag_id`), not once a node: making the name's
    string and lower-casing it was a good part of the conversion. "" names
    what is no element and no text (comments, the doctype)."""
    from selectolax.lexbor import LexborHTMLParser

    top = LexborHTMLParser(text).root
    root = Element("html", _attributes(top) if top is not None else {})
    if top is None:
        return root
    names: dict[int, str] = {}
    stack = [(top.child, root.children)]
    while stack:
        # One entry a level below the current node: its sibling run to finish.
        if max_depth is not None and len(stack) > max_depth:
            return None
        node, siblings = stack.pop()
        while node is not None:
            number = node.tag_id
            name = names.get(number)
            if name is None:
                name = names[number] = _node_name(node.tag)
            if name == "-text":
                siblings.append(node.text_content)
            elif name:
                attrs = node.attributes  # a fresh dict, ours to keep
                if attrs and None in attrs.values():
                    attrs = {k: v or "" for k, v in attrs.items()}
                el = Element(name, attrs, [])
                siblings.append(el)
                child = node.child
                if child is not None:
                    # Finish this sibling run later; descend first so that
                    # children are appended in document order.
                    stack.append((node.next, siblings))
                    stack.append((child, el.children))
                    break
            node = node.next
    return root


def _from_etree(top) -> Element:
    """Convert an ElementTree-like tree (lxml or html5lib's etree builder)."""
    root = Element("html", {k: v for k, v in top.attrib.items()})
    if top.text:
        root.children.append(top.text)
    stack = [(iter(top), root)]
    while stack:
        it, parent = stack[-1]
        node = next(it, None)
        if node is None:
            stack.pop()
            continue
        tag = node.tag
        if isinstance(tag, str):
            if "}" in tag:
                tag = tag.rsplit("}", 1)[1]
            el = Element(tag.lower(), {str(k): str(v) for k, v in node.attrib.items()})
            parent.children.append(el)
            if node.text:
                el.children.append(node.text)
            stack.append((iter(node), el))
        if node.tail:
            parent.children.append(node.tail)
    return root


def _from_lxml(text: str) -> Element:
    """libxml2 gets UTF-8 bytes, not the str: given a str it refuses pages
    that start with an XML declaration naming an encoding. `huge_tree`
    raises its nesting limit from 256 to 2048; past the limit libxml2
    drops the rest of the page."""
    import lxml.etree
    import lxml.html

    if not text.strip():
        return Element("html")
    parser = lxml.html.HTMLParser(encoding="utf-8", huge_tree=True)
    try:
        top = lxml.html.document_fromstring(text.encode("utf-8"), parser=parser)
    except lxml.etree.ParserError:  # raised for documents it finds empty
        return Element("html")
    root = _from_etree(top)
    _add_tbody(root)
    return root


def _add_tbody(root: Element) -> None:
    """Puts rows that sit directly in a table into a tbody, as HTML5 tree
    construction does and libxml2 does not: without it the same table
    gives different container paths under lxml than under the others."""
    stack = [root]
    while stack:
        el = stack.pop()
        if el.tag == "table":
            children: list[Node] = []
            rows: Element | None = None  # the tbody being filled
            for c in el.children:
                if isinstance(c, Element) and c.tag == "tr":
                    if rows is None:
                        rows = Element("tbody")
                        children.append(rows)
                    rows.children.append(c)
                elif isinstance(c, str) and rows is not None:
                    rows.children.append(c)
                else:
                    rows = None
                    children.append(c)
            el.children = children
        stack.extend(c for c in el.children if isinstance(c, Element))


def _from_html5lib(text: str) -> Element:
    import html5lib

    top = html5lib.parse(text, treebuilder="etree", namespaceHTMLElements=False)
    return _from_etree(top)


# The conversion compiled (victor/compiled/_parser.pyx) where it was built;
# the function above stays the reference and the fallback.
_from_lexbor_py = _from_lexbor
_from_lexbor = twin(_from_lexbor_py, "_parser")

# Pages with fewer tags than this go to lexbor without limit_depth's scan of
# their tags, which would cost a good part of their reading: so few tags
# cannot nest deeply enough to slow lexbor's tree construction down
# (docs/robustness.md measures the worst case), and a tree found deeper than
# MAX_DEPTH while it is converted is built again from the scanned markup.
# Nearly every page of data/ has fewer (docs/robustness.md).
_LEXBOR_UNSCANNED = 5000

PARSERS: dict[str, Callable[[str], Element]] = {
    "lexbor": _from_lexbor,
    "lxml": _from_lxml,
    "html5lib": _from_html5lib,
}
DEFAULT_PARSER = default("parser")  # the one table of settings (victor/settings.py)


def parse(data: bytes | str, parser: str = DEFAULT_PARSER, declared: str | None = None,
          source: str = "-") -> Document:
    """Bytes or text to a tree. `declared` is an encoding named outside the
    page (an HTTP header), tried before the page's own declarations. Bytes
    that are clearly no page (`sniff`) are refused naming `source`; nesting
    deeper than `depth.MAX_DEPTH` is flattened (see _LEXBOR_UNSCANNED).
    Text is already decoded: its encoding is given as ""."""
    try:
        build = PARSERS[parser]
    except KeyError:
        raise VictorError(f"unknown parser {parser!r}; choose one of {', '.join(PARSERS)}")
    if isinstance(data, str):
        text, encoding = drop_controls(data.removeprefix("\ufeff")), ""
    else:
        kind = sniff(data)
        if kind is not None:
            raise VictorError(about(source, f"not an HTML page ({kind})"))
        text, encoding = decode(data, declared)
    text, recovered = recover_swallowed(text)
    if build is _from_lexbor and text.count("<") < _LEXBOR_UNSCANNED:
        root = _from_lexbor(text, MAX_DEPTH)
        if root is not None:
            return Document(root, encoding, recovered)
    return Document(build(limit_depth(text)), encoding, recovered)
