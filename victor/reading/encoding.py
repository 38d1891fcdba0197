"""Bytes of any encoding become text, and bytes that are clearly no page
are told apart before anyone decodes them.

Any bytes decode as some single-byte encoding, so an image saved under a
page's name would otherwise be cleaned as a page of gibberish; and a page
that declares the wrong encoding (or none) must still read as its author
wrote it. The parse (victor/reading/parser.py) takes the text this module gives.
"""

from __future__ import annotations

import codecs
import re

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
            return drop_controls(data[len(bom):].decode(name, "replace")), name
    utf16 = _looks_utf16(data)
    if utf16:
        return drop_controls(data.decode(utf16, "replace")), utf16
    ascii_only = data.isascii()
    if not ascii_only:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = _mostly_utf8(data)
            if text is not None:
                return drop_controls(text), "utf-8"
        else:  # the bytes are the text's UTF-8, where its controls are looked for
            return drop_controls(text, data), "utf-8"
    head = data[:4096]
    text_label = _TEXT_ENCODING.search(head)
    meta_label = _META_CHARSET.search(head)
    for label in (declared, text_label and text_label.group(1), meta_label and meta_label.group(1)):
        name = _codec(label)
        if name is None or name.startswith(("utf-16", "utf-32")):
            continue  # the wide encodings have been ruled out by the bytes above
        try:
            text = data.decode(name)
        except UnicodeDecodeError:
            continue
        return drop_controls(text, data if name == "utf-8" else None), name
    if ascii_only:
        return drop_controls(data.decode("ascii"), data), "utf-8"
    name = _detect(data)
    return drop_controls(data.decode(name, "replace")), name


def _mostly_utf8(data: bytes) -> str | None:
    """The text of bytes that are not UTF-8 as a whole, if they are UTF-8
    except for fewer stray bytes than valid multi-byte sequences; stray
    bytes are read as windows-1252, the usual source of text pasted into
    a UTF-8 page."""
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


def drop_controls(text: str, encoded: bytes | None = None) -> str:
    """Text given already decoded is treated as decoded bytes are: the
    controls of _CONTROL become spaces. `encoded` is the text's UTF-8
    where the caller has it (a page's own bytes that decoded as UTF-8 or
    ASCII), which spares encoding the text again to look for them."""
    if encoded is None:
        encoded = text.encode("utf-8", "surrogatepass")
    if encoded.translate(None, _NOT_CONTROL_CHAR):
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
# look like, are about twice this share of such bytes; a share of fewer bytes than
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
