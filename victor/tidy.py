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
from victor.limits import MAX_DEPTH, RAW_TEXT, TOKEN, limit_depth

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
    # What recover_swallowed closed, e.g. "unclosed <title>": a page cleaned
    # from markup other than its own says so in its record.
    recovered: list[str] = field(default_factory=list)


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
# Labels browsers decode with a wider codec (WHATWG Encoding Standard), and
# pages labelled so very often use the wider codec's extra characters
# (curly quotes in "iso-8859-1" pages, GBK characters in "gb2312" ones).
_SUPERSET = {
    "ascii": "cp1252", "iso8859-1": "cp1252", "iso8859-9": "cp1254", "iso8859-11": "cp874",
    "tis-620": "cp874", "gb2312": "gb18030", "gbk": "gb18030", "euc_kr": "cp949",
    "shift_jis": "cp932", "big5": "big5hkscs",
}
# Labels browsers accept that Python's codec registry does not know.
_ALIASES = {"windows-874": "cp874", "x-sjis": "shift_jis", "x-gbk": "gbk"}
# Codecs of Python's registry that no browser knows as a page's charset:
# transforms of bytes to bytes or text to text (decoding with them raises
# LookupError), and escape, IDNA and placeholder codecs that would read a
# page's backslashes or letters as code.
_NOT_CHARSETS = frozenset(
    "base64 bz2 hex quopri rot-13 uu zlib undefined unicode-escape raw-unicode-escape "
    "idna punycode utf-7".split())
# Decoding UTF-8 with surrogateescape turns every byte that is no part of
# a valid sequence (a stray byte) into one lone surrogate U+DC80..U+DCFF;
# these put each such byte back as windows-1252.
_STRAY = re.compile("[\udc80-\udcff]")
_STRAY_CP1252 = {chr(0xDC00 + b): bytes([b]).decode("cp1252", "replace")
                 for b in range(0x80, 0x100)}
_HIGH_BYTES = bytes(range(0x80, 0x100))
# How much messier than the detector's best guess windows-1252 may look and
# still be chosen (the detector's chaos: the share of odd characters).
_CP1252_MARGIN = 0.1
# C0 controls other than tab, newline and carriage return, and DEL: they
# carry no text and some XML-based tree builders refuse them.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The bytes other than those characters: in UTF-8 each of them is a byte of
# its own value and no other character has such a byte, so deleting these
# from the encoded text leaves the controls (several times faster than re
# scanning the text for them).
_NOT_CONTROL_CHAR = bytes(b for b in range(256) if not _CONTROL.match(chr(b)))


def _codec(label: bytes | str | None) -> str | None:
    if not label:
        return None
    name = label.decode("ascii", "ignore") if isinstance(label, bytes) else label
    name = name.strip().lower()
    try:
        name = codecs.lookup(_ALIASES.get(name, name)).name
    except LookupError:
        return None
    if name in _NOT_CHARSETS:
        return None
    return _SUPERSET.get(name, name)


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

    Evidence in the bytes beats what the page says, because pages often
    lie about their charset: a byte-order mark; UTF-16 without one; UTF-8,
    when the non-ASCII bytes form valid UTF-8 sequences (legacy text
    practically never does, while pages moved to UTF-8 often keep an old
    `iso-8859-1` meta), tolerating a few stray legacy bytes pasted into a
    UTF-8 page. Then the declarations, in this order: `declared` by the
    caller (an HTTP header), CleanEval's `<text encoding=...>`,
    `<meta charset>` or http-equiv, each only if the bytes are valid in it.
    Then statistical detection. Nothing here raises: bytes that fit no
    encoding become replacement characters.
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return _clean(data[len(bom):].decode(name, "replace")), name
    utf16 = _looks_utf16(data)
    if utf16:
        return _clean(data.decode(utf16, "replace")), utf16
    ascii_only = data.isascii()
    if not ascii_only:
        text = _mostly_utf8(data)
        if text is not None:
            return _clean(text), "utf-8"
    head = data[:4096]
    text_label = _TEXT_ENCODING.search(head)
    meta_label = _META_CHARSET.search(head)
    for label in (declared, text_label and text_label.group(1), meta_label and meta_label.group(1)):
        name = _codec(label)
        if name is None or name.startswith(("utf-16", "utf-32")):
            continue  # the wide encodings have been ruled out by the bytes above
        try:
            return _clean(data.decode(name)), name
        except UnicodeDecodeError:
            continue
    if ascii_only:
        return _clean(data.decode("ascii")), "utf-8"
    name = _detect(data)
    return _clean(data.decode(name, "replace")), name


def _mostly_utf8(data: bytes) -> str | None:
    """The text if the bytes are UTF-8 except for fewer stray bytes than
    valid multi-byte sequences; stray bytes are read as windows-1252, the
    usual source of text pasted into a UTF-8 page."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8", "surrogateescape")
    # Each stray byte is one character of `text` that does not encode; each
    # valid multi-byte sequence one more non-ASCII character.
    stray = len(data) - len(text.encode("utf-8", "ignore"))
    non_ascii = len(text) - len(data.translate(None, _HIGH_BYTES))
    if stray >= non_ascii - stray:
        return None
    return _STRAY.sub(lambda m: _STRAY_CP1252[m.group()], text)


def _detect(data: bytes) -> str:
    """Statistical detection, with windows-1252 (the web's commonest legacy
    encoding and browsers' default) wherever the detector finds it as
    plausible as its best guess: with only a few accented letters or
    symbols, many single-byte codecs decode without any oddity and the
    detector's pick among them is arbitrary. The detector also finds
    windows-1252 French a little messier than its Baltic misreading, hence
    the margin; text in other scripts makes windows-1252 far messier."""
    from charset_normalizer import from_bytes

    results = from_bytes(data[:200_000])
    best = results.best()
    if best is None:
        return "cp1252"
    for match in results:
        if match.chaos <= best.chaos + _CP1252_MARGIN and any(
                _codec(c) == "cp1252" for c in [match.encoding, *match.could_be_from_charset]):
            return "cp1252"
    return _codec(best.encoding) or "cp1252"


def _clean(text: str) -> str:
    if text.encode("utf-8", "surrogatepass").translate(None, _NOT_CONTROL_CHAR):
        return _CONTROL.sub(" ", text)
    return text


# --- bytes that are no page ------------------------------------------------

# Formats that crawls and downloads save under page names, by their first
# bytes.
_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"), (b"GIF87a", "GIF image"), (b"GIF89a", "GIF image"),
    (b"\xff\xd8\xff", "JPEG image"), (b"\x00\x00\x01\x00", "icon image"),
    (b"RIFF", "RIFF media: WebP, WAV or AVI"), (b"%PDF-", "PDF document"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "Office document"),
    (b"PK\x03\x04", "ZIP archive or Office document"), (b"\x1f\x8b", "gzip-compressed data"),
    (b"\xfd7zXZ\x00", "xz-compressed data"), (b"\x28\xb5\x2f\xfd", "zstd-compressed data"),
    (b"wOFF", "web font"), (b"wOF2", "web font"), (b"\x7fELF", "executable program"),
)
# Bytes that text in any encoding but UTF-16/32 practically never holds:
# C0 controls other than whitespace and ESC (which ISO-2022 encodings use).
# Uniformly random bytes, which is what compressed and most binary data
# look like, are 10.5% such bytes; a share of fewer bytes than
# _BINARY_SAMPLE says too little to refuse them.
_NOT_CONTROL = bytes(b for b in range(256) if not (b < 0x20 and b not in b"\t\n\x0c\r\x1b"))
_BINARY_SHARE = 0.05
_BINARY_SAMPLE = 256


def sniff(data: bytes) -> str | None:
    """What the bytes are when they are clearly not a page: a known
    binary format, or binary data of any kind. Runs before decoding, since
    any bytes decode as some single-byte encoding and would be cleaned as
    a page of gibberish. A page with a few stray NUL or control bytes is
    still a page."""
    if data.startswith(tuple(bom for bom, _ in _BOMS)) or _looks_utf16(data):
        return None
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    sample = data[:65536]
    controls = len(sample.translate(None, _NOT_CONTROL))
    if len(sample) >= _BINARY_SAMPLE and controls > _BINARY_SHARE * len(sample):
        return f"binary data, {controls / len(sample):.0%} control bytes"
    return None


# --- parser backends ----------------------------------------------------


def _from_lexbor(text: str, max_depth: int | None = None) -> Element | None:
    """None if the tree nests deeper than `max_depth` (when given)."""
    from selectolax.lexbor import LexborHTMLParser

    top = LexborHTMLParser(text).root
    root = Element("html", dict(top.attributes) if top is not None else {})
    if top is None:
        return root
    stack = [(top.child, root.children)]
    while stack:
        # One entry a level below the current node: its sibling run to finish.
        if max_depth is not None and len(stack) > max_depth:
            return None
        node, siblings = stack.pop()
        while node is not None:
            tag = node.tag
            if tag == "-text":
                siblings.append(node.text_content)
            elif tag and tag[0] != "-" and tag != "!doctype":
                attrs = node.attributes  # a fresh dict, ours to keep
                if attrs and None in attrs.values():  # attributes without a value: <td nowrap>
                    attrs = {k: v or "" for k, v in attrs.items()}
                el = Element(tag.lower(), attrs, [])
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


# --- markup swallowed by an element never closed ---------------------------

# An element whose content is text up to its own closing tag (or, for
# noscript, an element the cleaning deletes whole), or a comment, that is
# never closed takes the rest of the page with it: `<title>BBC SPORTi
# library-->` with no </title> makes the whole body the title's text, so
# no block is left. Browsers do the same; readability-lxml and libxml2
# see the body. Such an element is closed where the next markup starts
# when the rest of the page it takes is at least this share of the page
# (a comment before the text of CleanEval page 31, left open, takes 48%);
# a shorter tail is most likely a page cut short in a script or comment,
# and what the parser makes of it is left alone.
SWALLOWED_SHARE = 0.1
# Where markup starts: a start or end tag, a comment or a doctype.
_MARKUP = re.compile(r"<[a-zA-Z]|</[a-zA-Z]|<!")
_RAW_OPEN = re.compile(rf"<({RAW_TEXT})(?=[\s/>])", re.I)
# Elements closed per page at most; each closing needs a scan of the page.
_MAX_RECOVERIES = 8


def _maybe_swallowing(lower: str) -> bool:
    """Whether the last raw-text start tag or comment opening comes after
    every closing of its kind: cheap string searches that keep the token
    scan off nearly every page."""
    if lower.rfind("<!--") > lower.rfind("-->"):
        return True
    for name in RAW_TEXT.split("|"):
        if lower.rfind("<" + name) > lower.rfind("</" + name):
            return True
    return False


def recover_swallowed(text: str) -> tuple[str, list[str]]:
    """The markup with each raw-text element or comment that runs unclosed
    to the end of the page, taking at least SWALLOWED_SHARE of it, closed
    at the first point after its start tag that looks like markup; and a
    note for each (`unclosed <title>`). The page is scanned as limits.TOKEN
    reads it, so a `<title>` inside a script or comment is no start tag.
    Pages without such an element come back as they are."""
    notes: list[str] = []
    for _ in range(_MAX_RECOVERIES):
        if not _maybe_swallowing(text.lower()):
            break
        last = None
        for last in TOKEN.finditer(text):
            pass
        if last is None or last.end() < len(text) or len(text) - last.start() < (
                SWALLOWED_SHARE * len(text)):
            break
        token = last.group()
        if token.startswith("<!--"):
            if token.startswith(("<!-->", "<!--->")) or "--!>" in token or token.endswith("-->"):
                break  # closed, as HTML5 reads comments
            opened, closing, what = last.start() + 4, "-->", "<!-- comment"
        else:
            start = _RAW_OPEN.match(token)
            if start is None:
                break
            name = start.group(1).lower()
            opened = last.start() + token.index(">") + 1
            closing, what = f"</{name}>", f"<{name}>"
        markup = _MARKUP.search(text, opened)
        if markup is None:
            break  # plain text to the end: nothing taken that was markup
        text = text[:markup.start()] + closing + text[markup.start():]
        notes.append(f"unclosed {what}")
    return text, notes


# Pages with fewer tags than this go to lexbor without limits.limit_depth's
# scan of their tags (0.4 ms of a CleanEval page's 6): however they nest,
# lexbor builds their tree in milliseconds (5,000 nested divs, the worst
# case, in about 25 ms; 100,000 take 20 s), and only a tree deeper than
# MAX_DEPTH is built again from the scanned markup. 99% of the Dragnet
# pages and all CleanEval pages have fewer.
_LEXBOR_UNSCANNED = 5000

PARSERS: dict[str, Callable[[str], Element]] = {
    "lexbor": _from_lexbor,
    "lxml": _from_lxml,
    "html5lib": _from_html5lib,
}
DEFAULT_PARSER = "lexbor"


def parse(data: bytes | str, parser: str = DEFAULT_PARSER, declared: str | None = None,
          source: str = "-") -> Document:
    """Bytes or text to a tree. `declared` is an encoding named outside the
    page (an HTTP header), tried before the page's own declarations. Bytes
    that are clearly no page (`sniff`) are refused naming `source`; nesting
    deeper than `limits.MAX_DEPTH` is flattened (see _LEXBOR_UNSCANNED).
    Text is already decoded: its encoding is given as ""."""
    try:
        build = PARSERS[parser]
    except KeyError:
        raise VictorError(f"unknown parser {parser!r}; choose one of {', '.join(PARSERS)}")
    if isinstance(data, str):
        text, encoding = _clean(data.removeprefix("\ufeff")), ""
    else:
        kind = sniff(data)
        if kind is not None:
            raise VictorError(f"{source}: not an HTML page ({kind})")
        text, encoding = decode(data, declared)
    text, recovered = recover_swallowed(text)
    if build is _from_lexbor and text.count("<") < _LEXBOR_UNSCANNED:
        root = _from_lexbor(text, MAX_DEPTH)
        if root is not None:
            return Document(root, encoding, recovered)
    return Document(build(limit_depth(text)), encoding, recovered)
