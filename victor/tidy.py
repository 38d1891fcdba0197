"""Stage 1: raw bytes of any encoding become an HTML tree built by HTML5 rules.

Every parser backend produces the same small tree of `Element`s (text as
plain strings among the children), so the later stages never depend on
which parser ran. The tree is built without recursion: real pages nest
elements tens of thousands deep.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from typing import Callable, Union

from victor.errors import VictorError

Node = Union["Element", str]

# Elements that never have content; the blocks stage emits no closing tag
# for them.
VOID = frozenset(
    "area base br col embed hr img input keygen link meta param source track wbr".split()
)


@dataclass(slots=True, eq=False)
class Element:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)


@dataclass(slots=True)
class Document:
    root: Element
    encoding: str


# --- encoding -------------------------------------------------------------

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)""", re.I)
_TEXT_ENCODING = re.compile(rb"""<text\s[^>]*encoding\s*=\s*["']([a-zA-Z0-9_:.\-]+)["']""", re.I)
# Browsers treat these labels as windows-1252 (WHATWG Encoding Standard),
# and pages labelled so are very often really windows-1252.
_AS_CP1252 = {"ascii", "us-ascii", "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1"}
# C0 controls other than tab, newline and carriage return, and DEL: they
# carry no text and some XML-based tree builders refuse them.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _codec(label: bytes | str | None) -> str | None:
    if not label:
        return None
    name = label.decode("ascii", "ignore") if isinstance(label, bytes) else label
    name = name.strip().lower()
    if name in _AS_CP1252:
        return "cp1252"
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def _looks_utf16(data: bytes) -> str | None:
    """UTF-16 without a BOM: every other byte of ASCII markup is NUL."""
    sample = data[:2000]
    if len(sample) < 8:
        return None
    even, odd = sample[0::2], sample[1::2]
    if odd.count(0) > 0.4 * len(odd) and even.count(0) < 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.4 * len(even) and odd.count(0) < 0.05 * len(odd):
        return "utf-16-be"
    return None


def decode(data: bytes, declared: str | None = None) -> tuple[str, str]:
    """Bytes to text and the name of the encoding used.

    Order: byte-order mark; an encoding declared by the caller (an HTTP
    header); CleanEval's `<text encoding=...>`; `<meta charset>` or
    http-equiv; UTF-8 if the bytes are valid UTF-8; otherwise statistical
    detection. A declaration that does not decode cleanly is not trusted,
    because pages often lie about their charset. Nothing here raises: bytes
    that fit no encoding become replacement characters.
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return _clean(data[len(bom):].decode(name, "replace")), name
    head = data[:4096]
    candidates = [_codec(declared)]
    m = _TEXT_ENCODING.search(head)
    candidates.append(_codec(m.group(1)) if m else None)
    m = _META_CHARSET.search(head)
    candidates.append(_codec(m.group(1)) if m else None)
    utf16 = _looks_utf16(data)
    if utf16:
        candidates.insert(0, utf16)
    for name in candidates:
        if name is None or (name.startswith("utf-16") and not utf16):
            continue
        try:
            return _clean(data.decode(name)), name
        except (UnicodeDecodeError, LookupError):
            continue
    try:
        return _clean(data.decode("utf-8")), "utf-8"
    except UnicodeDecodeError:
        pass
    name = _detect(data)
    return _clean(data.decode(name, "replace")), name


def _detect(data: bytes) -> str:
    from charset_normalizer import from_bytes

    best = from_bytes(data[:200_000]).best()
    if best is None:
        return "cp1252"
    return _codec(best.encoding) or "cp1252"


def _clean(text: str) -> str:
    return _CONTROL.sub(" ", text) if _CONTROL.search(text) else text


# --- parser backends ----------------------------------------------------


def _from_lexbor(text: str) -> Element:
    from selectolax.lexbor import LexborHTMLParser

    top = LexborHTMLParser(text).root
    root = Element("html", dict(top.attributes) if top is not None else {})
    if top is None:
        return root
    stack = [(top.child, root)]
    while stack:
        node, parent = stack.pop()
        while node is not None:
            tag = node.tag
            if tag == "-text":
                parent.children.append(node.text_content)
            elif tag and tag[0] != "-" and tag != "!doctype":
                el = Element(tag.lower(), {k: v or "" for k, v in node.attributes.items()})
                parent.children.append(el)
                child = node.child
                if child is not None:
                    # Finish this sibling run later; descend first so that
                    # children are appended in document order.
                    stack.append((node.next, parent))
                    stack.append((child, el))
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
    import lxml.html

    if not text.strip():
        return Element("html")
    try:
        top = lxml.html.document_fromstring(text)
    except Exception:  # lxml raises on documents it finds empty
        return Element("html")
    return _from_etree(top)


def _from_html5lib(text: str) -> Element:
    import html5lib

    top = html5lib.parse(text, treebuilder="etree", namespaceHTMLElements=False)
    return _from_etree(top)


PARSERS: dict[str, Callable[[str], Element]] = {
    "lexbor": _from_lexbor,
    "lxml": _from_lxml,
    "html5lib": _from_html5lib,
}
DEFAULT_PARSER = "lexbor"


def parse(data: bytes, parser: str = DEFAULT_PARSER, declared: str | None = None) -> Document:
    """Bytes to a tree. `declared` is an encoding named outside the page
    (an HTTP header), tried before the page's own declarations."""
    try:
        build = PARSERS[parser]
    except KeyError:
        raise VictorError(f"unknown parser {parser!r}; choose one of {', '.join(PARSERS)}")
    text, encoding = decode(data, declared)
    return Document(build(text), encoding)
