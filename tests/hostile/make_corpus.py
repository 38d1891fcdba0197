#!/usr/bin/env python3
"""The hostile corpus: inputs a crawl delivers that are broken, misnamed,
huge or pathological, each built from real pages of the training data (or
from a real file format's own structure) so that what is tested is what
arrives in practice. docs/robustness.md says what Victor does with each.

The small cases are committed beside this script (`--small` rewrites
them); the large ones would be megabytes in git and are made at test time
(`--large DIR`, large_cases.py).
"""

from __future__ import annotations

import argparse
import gzip
import re
import struct
import sys
import zlib
from pathlib import Path
from typing import Callable

if __package__:  # imported by the tests, as hostile.make_corpus
    from .large_cases import DATA, DRAGNET, LARGE, POST_GOLD
else:  # run as a script
    from large_cases import DATA, DRAGNET, LARGE, POST_GOLD

HERE = Path(__file__).resolve().parent
CLEANEVAL = DATA / "cleaneval"

_CHARSET = re.compile(rb"""<meta[^>]*charset[^>]*>""", re.I)

# The pages the cases are made from: a short English blog post (UTF-8),
# a blog post with Spanish comments (UTF-8, accents on every line), a
# CleanEval page of news paragraphs and one of a real estate agent's
# with scripts.
POST = DRAGNET / "R306.html"  # its gold: POST_GOLD
SPANISH = DRAGNET / "27.html"
NEWS = CLEANEVAL / "36.html"
SCRIPTED = CLEANEVAL / "1.html"
# Pages with an element that, left unclosed, takes the rest of the page:
# a blog post with its comment form's <textarea> at a third of the page, a
# CleanEval page whose only comment stands just before its text, and one
# with a <noscript> before its text.
FORM = DRAGNET / "R490.html"
COMMENTED = CLEANEVAL / "31.html"
NOSCRIPT = CLEANEVAL / "51.html"


def png() -> bytes:
    """A 2x2 grey PNG, chunk by chunk as the format defines it."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 0, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x80\x80" * 2)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels)
            + chunk(b"IEND", b""))


def gzipped() -> bytes:
    """A real page served gzip-compressed and saved without decompressing:
    the commonest way a crawl stores bytes that are not the page."""
    return gzip.compress(POST.read_bytes(), mtime=0)


def pdf() -> bytes:
    """A one-page PDF with a text stream and a valid cross-reference table."""
    stream = b"BT /F1 12 Tf 72 720 Td (Just For Fun) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


def controls() -> bytes:
    """A real page with NUL bytes and other C0 controls at the ends of its
    lines, as a broken server or a bad conversion leaves them."""
    lines = POST.read_bytes().split(b"\n")
    return b"\n".join(line + (b"\x00", b"\x01\x08", b"\x1b", b"")[i % 4]
                      for i, line in enumerate(lines))


def invalid_utf8() -> bytes:
    """A UTF-8 page with bytes that are never valid UTF-8 (0xff, 0xc0) and a
    cut multi-byte sequence inside its words."""
    return POST.read_bytes().replace(b"fun", b"f\xffun").replace(b"The ", b"The\xc0 \xe2\x80")


def utf16_bom() -> bytes:
    return POST.read_bytes().decode("utf-8").encode("utf-16")  # with the byte-order mark


def utf16_no_bom() -> bytes:
    return POST.read_bytes().decode("utf-8").encode("utf-16-le")


def _undeclared(page: Path) -> str:
    return _CHARSET.sub(b"", page.read_bytes()).decode("utf-8")


def cp1252_undeclared() -> bytes:
    """The Spanish page in windows-1252 with its charset declarations
    removed: the encoding can only be detected. Its few Cyrillic comments,
    which windows-1252 lacks, become character references."""
    return _undeclared(SPANISH).encode("cp1252", "xmlcharrefreplace")


def wrong_charset() -> bytes:
    """The same windows-1252 page, declaring itself UTF-8."""
    text = _undeclared(SPANISH).replace("<head>", '<head><meta charset="utf-8">', 1)
    return text.encode("cp1252", "xmlcharrefreplace")


def unclosed_tags() -> bytes:
    """A real CleanEval page with every closing tag of p, font, big,
    strong, em, blockquote, td, tr and table removed."""
    return re.sub(rb"</(?:p|font|big|strong|em|blockquote|td|tr|table)\s*>", b"",
                  NEWS.read_bytes(), flags=re.I)


def misnested_tags() -> bytes:
    """The same page with its inline elements closed in the wrong order
    (`<big><font>x</big></font>`) and a `<b>` left open in every paragraph."""
    page = re.sub(rb"</font>(\s*)</big>", rb"</big>\1</font>", NEWS.read_bytes(), flags=re.I)
    return re.sub(rb"</p>", rb"<b></p>", page, flags=re.I)


def script_only() -> bytes:
    """A real page's scripts and nothing else: what a page that is built
    entirely by JavaScript looks like to a crawler."""
    scripts = re.findall(rb"<script.*?</script>", SCRIPTED.read_bytes(), flags=re.S | re.I)
    return b"<html><head></head><body>" + b"\n".join(scripts) + b"</body></html>"


def text_unclosed() -> bytes:
    """A CleanEval page whose `<text ...>` wrapper is never closed."""
    page = NEWS.read_bytes()
    return page[: page.rindex(b"</text>")]


def _unclose(page: Path, closing: bytes, instead: bytes = b"") -> bytes:
    """The page with the last `closing` (matched without regard to case)
    replaced by `instead`: its element then runs to the end of the page."""
    data = page.read_bytes()
    at = data.lower().rindex(closing)
    return data[:at] + instead + data[at + len(closing):]


def title_unclosed() -> bytes:
    """The blog post with its `</title>` mangled as a BBC Sport page of
    CleanEval's final set has it (`<title>BBC SPORTi library-->`, no
    `</title>` anywhere): by HTML5 rules the rest of the page is the title."""
    return _unclose(POST, b"</title>", b"i library-->")


def style_unclosed() -> bytes:
    """The blog post without its only `</style>`, in the head."""
    return _unclose(POST, b"</style>")


def script_unclosed() -> bytes:
    """The blog post without the `</script>` of its last script, in the head."""
    return _unclose(POST, b"</script>")


def textarea_unclosed() -> bytes:
    """A blog post without its comment form's `</textarea>`."""
    return _unclose(FORM, b"</textarea>")


def comment_unclosed() -> bytes:
    """A CleanEval page whose only comment, just before its text, never ends."""
    return _unclose(COMMENTED, b"-->")


def noscript_unclosed() -> bytes:
    """A CleanEval page without its only `</noscript>`: the cleaning deletes
    noscript elements whole, and this one holds the rest of the page."""
    return _unclose(NOSCRIPT, b"</noscript>")


def plain_text() -> bytes:
    """A person's transcript of a page: text without a single tag."""
    return POST_GOLD.read_bytes()


def duplicates() -> bytes:
    """A real page's body twice over, so every block has a twin."""
    page = POST.read_bytes()
    end = page.rindex(b"</body>")
    body = page[page.index(b">", page.index(b"<body")) + 1:end]
    return page[:end] + body + page[end:]


def whitespace() -> bytes:
    return b" \t\r\n\n  \xc2\xa0\n" * 20


def empty() -> bytes:
    return b""


SMALL: dict[str, Callable[[], bytes]] = {
    "empty.html": empty,
    "whitespace.html": whitespace,
    "png.html": png,
    "gzip.html": gzipped,
    "pdf.html": pdf,
    "controls.html": controls,
    "invalid-utf8.html": invalid_utf8,
    "utf16-bom.html": utf16_bom,
    "utf16-no-bom.html": utf16_no_bom,
    "cp1252-undeclared.html": cp1252_undeclared,
    "wrong-charset.html": wrong_charset,
    "unclosed-tags.html": unclosed_tags,
    "misnested-tags.html": misnested_tags,
    "script-only.html": script_only,
    "text-unclosed.html": text_unclosed,
    "title-unclosed.html": title_unclosed,
    "style-unclosed.html": style_unclosed,
    "script-unclosed.html": script_unclosed,
    "textarea-unclosed.html": textarea_unclosed,
    "comment-unclosed.html": comment_unclosed,
    "noscript-unclosed.html": noscript_unclosed,
    "plain-text.html": plain_text,
    "duplicates.html": duplicates,
}


def write(cases: dict[str, Callable[[], bytes]], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, make in cases.items():
        (folder / name).write_bytes(make())
        written.append(folder / name)
    return written


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true",
                    help=f"rewrite the committed small cases in {HERE}")
    ap.add_argument("--large", metavar="DIR", help="write the large cases into DIR")
    args = ap.parse_args()
    if not args.small and not args.large:
        ap.error("give --small, --large DIR or both")
    if args.small:
        write(SMALL, HERE)
    if args.large:
        write(LARGE, Path(args.large))
    return 0


if __name__ == "__main__":
    sys.exit(main())
