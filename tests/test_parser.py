"""Stage 1, the parser: any bytes become text in the right encoding and a tree,
whatever the parser, without crashing.

Encoding cases come from real pages of the training data where the data
has them; the encodings it lacks (UTF-16, Cyrillic, Central European) are
made by encoding a real page's text, so the right answer is known by
construction.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from repo_data import CLEANEVAL, DRAGNET

from victor.reading.blocks import split_blocks
from victor.reading.encoding import decode
from victor.reading.depth import MAX_DEPTH
from victor.reading.preclean import preclean
from victor.reading.swallowed import recover_swallowed
from victor.reading.parser import PARSERS, parse

TAG_DELETE = frozenset({"script", "style", "head"})


def page(folder: Path, name: str) -> bytes:
    return (folder / name).read_bytes()


def texts(data: bytes, parser: str = "lexbor") -> list[str]:
    return [b.text for b in split_blocks(preclean(parse(data, parser).root, TAG_DELETE).body)[0]]


def joined(data: bytes, parser: str = "lexbor") -> str:
    return " ".join(texts(data, parser))


# A real page's text with curly quotes: “colonel”, children’s.
UTF8_PAGE = (DRAGNET, "R802.html")


# --- byte-order marks and UTF-16 -----------------------------------------

@pytest.mark.parametrize("bom, codec", [
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
])
def test_a_byte_order_mark_decides_the_encoding(bom, codec):
    original = page(*UTF8_PAGE).decode("utf-8")
    text, encoding = decode(bom + original.encode(codec))
    assert encoding == codec
    assert text == original


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_recognised(codec):
    original = page(*UTF8_PAGE).decode("utf-8")
    text, encoding = decode(original.encode(codec))
    assert encoding == codec
    assert "self-titled \u201ccolonel\u201d Alan" in text


# --- declarations --------------------------------------------------------

def test_cleaneval_text_wrapper_declares_the_encoding():
    # Declared only by <text encoding="iso-8859-1">: French with accents.
    text, encoding = decode(page(CLEANEVAL, "21.html"))
    assert encoding == "cp1252"  # browsers read iso-8859-1 as its superset
    assert "J'ai pari\u00e9 que les gens le d\u00e9testeraient" in text


def test_meta_http_equiv_declares_the_encoding():
    # <meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">
    # with byte 0x96, an en dash only in iso-8859-1's superset windows-1252.
    data = page(DRAGNET, "R826.html")
    assert b"charset=iso-8859-1" in data
    text, encoding = decode(data)
    assert encoding == "cp1252"
    assert "Design Axioms for Game UI \u2013 Part II" in text


@pytest.mark.parametrize("markup", [
    '<meta charset="{label}">',
    '<meta http-equiv="Content-Type" content="text/html; charset={label}">',
])
@pytest.mark.parametrize("label, codec, sentence", [
    ("koi8-r", "koi8-r", "\u0426\u0435\u043d\u0430 \u043d\u0435\u0444\u0442\u0438 "
                         "\u0432\u044b\u0440\u043e\u0441\u043b\u0430"),
    ("iso-8859-2", "iso8859-2", "\u017b\u00f3\u0142\u0107 \u015bwie\u017ca"),
])
def test_meta_charset_declares_a_non_latin_encoding(markup, label, codec, sentence):
    data = (markup.format(label=label) + f"<p>{sentence}</p>").encode(codec)
    assert decode(data) == (markup.format(label=label) + f"<p>{sentence}</p>", codec)


def test_a_declaration_the_bytes_contradict_is_not_trusted():
    # Valid UTF-8 with curly quotes under <meta charset=iso-8859-1>: read
    # as declared it would say \u00e2\u20ac\u0153colonel\u00e2\u20ac.
    data = page(DRAGNET, "R802.html")
    assert b"charset=iso-8859-1" in data.lower()
    text, encoding = decode(data)
    assert encoding == "utf-8"
    assert "self-titled \u201ccolonel\u201d Alan" in text


def test_a_declared_charset_the_bytes_are_invalid_in_falls_back_to_detection():
    # A windows-1252 page (curly quotes as bytes 0x91-0x94) said to be UTF-8,
    # as a lying HTTP header would.
    text, encoding = decode(page(CLEANEVAL, "27.html"), declared="utf-8")
    assert encoding == "cp1252"
    assert "Zimmeron\u2019s Wrath" in text
    assert "\u201cEverybody" in text


def test_undeclared_windows_1252_decodes_to_the_right_characters():
    text, encoding = decode(page(CLEANEVAL, "27.html"))
    assert encoding == "cp1252"
    assert "Squib Hammer and Zimmeron\u2019s Wrath" in text
    assert "Caden\u2018s User Int" in text


def test_stray_windows_1252_bytes_in_a_utf8_page_keep_the_utf8():
    # Declared and mostly UTF-8 (em dashes), with a few windows-1252 bytes
    # pasted in: \u2122 and \u00a3 as single bytes 0x99 and 0xa3.
    text, encoding = decode(page(DRAGNET, "T19.html"))
    assert encoding == "utf-8"
    assert "preData \u2014 fires" in text
    assert "PITFALL!\u2122" in text
    assert "$4.99/\u00a32.99" in text
    assert "Caf\u00e9 Internati" in text


# --- bytes that are not text ---------------------------------------------

@pytest.mark.parametrize("parser", PARSERS)
def test_nul_and_control_characters_neither_crash_nor_reach_the_text(parser):
    data = b"<html><body><p>Fine\x00print\x01 and\x1b[0m\x7f more</p>\x00\x00</body></html>"
    got = texts(data, parser)
    assert got == ["Fine print and [0m more"]


@pytest.mark.parametrize("parser", PARSERS)
def test_invalid_utf8_does_not_crash(parser):
    # The real page cut in the middle of a three-byte sequence, then bytes
    # that never occur in UTF-8.
    data = page(*UTF8_PAGE)
    cut = data.index("\u201ccolonel".encode("utf-8")) + 2
    got = joined(data[:cut] + b"\xff\xfe\xc0\xaf</p>", parser)
    assert "self-titled" in got


@pytest.mark.parametrize("data", [b"", b" \n\t\r\n  ", b"\xef\xbb\xbf", b"\x00\x00"])
@pytest.mark.parametrize("parser", PARSERS)
def test_empty_and_whitespace_only_input_gives_no_blocks(parser, data):
    assert texts(data, parser) == []


# --- deep nesting --------------------------------------------------------

def nested(depth: int) -> bytes:
    return b"<html><body>" + b"<div>" * depth + b"deep" + b"</div>" * depth + b"<p>after</p>"


def divs_nested(root) -> int:
    depth, el = 0, root
    while inner := next((c for c in el.children if not isinstance(c, str)
                         and c.tag in ("body", "div")), None):
        el, depth = inner, depth + (inner.tag == "div")
    return depth


# HTML5 tree construction is quadratic in depth (each opening tag searches
# the stack of open elements): 100,000 divs took lexbor ~40 s and html5lib,
# the same algorithm in Python, many minutes, and libxml2 dropped everything
# past 2048 open elements. Nesting deeper than limits.MAX_DEPTH is
# flattened, keeping the text: by a scan of the tags before the parser
# runs, or, on a short page that lexbor parsed unscanned into too deep a
# tree (300 divs), before it parses the page again.
@pytest.mark.parametrize("parser, depth", [("lexbor", 100_000), ("lexbor", 300),
                                           ("lxml", 100_000), ("html5lib", 3_000)])
def test_deep_nesting_is_flattened_and_keeps_its_text(parser, depth):
    doc = parse(nested(depth), parser)
    assert divs_nested(doc.root) == MAX_DEPTH + 1  # the deepest kept empty
    assert [b.text for b in split_blocks(preclean(doc.root, TAG_DELETE).body)[0]] == ["deep", "after"]


def test_tags_left_open_that_the_parser_closes_cut_nothing():
    # Each <a> closes the one before it, so 300 links left open nest no
    # deeper than one: a short page goes to lexbor unscanned, and its tree
    # is within the limit. (The tag scan counts them as 300 levels.)
    links = b"".join(b'<a href="/%d">link %d' % (i, i) for i in range(300))
    doc = parse(b"<html><body>" + links)
    texts = [b.text for b in split_blocks(preclean(doc.root, TAG_DELETE).body)[0]]
    assert texts == [f"link {i}" for i in range(300)]


# --- the parsers agree on clean markup ------------------------------------

SNIPPET = b"""<!DOCTYPE html>
<html><head><title>Flood warning</title></head>
<body>
<div id="menu"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul></div>
<div class="story">
<h1>River levels rise</h1>
<p>The river rose <b>two metres</b> overnight, <a href="/map">flooding</a> the lower town.</p>
<p>Residents were told to move to higher ground.<br>Schools are closed.</p>
<table><tr><td>Monday</td><td>3.2 m</td></tr><tr><td>Tuesday</td><td>5.1 m</td></tr></table>
<img src="x.png" alt="A flooded street">
</div>
<p>&copy; 2012 The Gazette</p>
</body></html>
"""


def test_every_parser_gives_the_same_blocks_on_well_formed_markup():
    def blocks(parser: str):
        return [(b.text, b.tags, b.splits) for b in
                split_blocks(preclean(parse(SNIPPET, parser).root, TAG_DELETE).body)[0]]

    reference = blocks("html5lib")
    assert [text for text, _, _ in reference] == [
        "Home", "News", "River levels rise", "The river rose", "two metres", "overnight,",
        "flooding", "the lower town.", "Residents were told to move to higher ground.",
        "Schools are closed.", "Monday", "3.2 m", "Tuesday", "5.1 m", "A flooded street",
        "\u00a9 2012 The Gazette",
    ]
    for parser in PARSERS:
        assert blocks(parser) == reference, parser


# --- markup swallowed by an element never closed ---------------------------
# (whole pages of the hostile corpus: tests/test_hostile.py)

@pytest.mark.parametrize("parser", sorted(PARSERS))
def test_a_title_never_closed_no_longer_takes_the_body(parser):
    # Dragnet R306 with its </title> removed: by HTML5 rules the rest of
    # the page is the title's text.
    original = page(DRAGNET, "R306.html")
    damaged = original.replace(b"</title>", b"", 1)
    assert texts(damaged, parser) == texts(original, parser)
    assert parse(damaged, parser).recovered == ["unclosed <title>"]


def test_it_is_closed_where_the_next_markup_starts():
    # CleanEval 31's only comment, before its text, left open.
    original = page(CLEANEVAL, "31.html").decode("cp1252")
    comment = "<!-- if we want a generic picture it should go here -->"
    damaged = original.replace(comment, comment[:-3])
    text, notes = recover_swallowed(damaged)
    start = damaged.index(comment[:-3]) + len(comment) - 3
    markup = damaged.index("<P>", start)
    assert text == damaged[:markup] + "-->" + damaged[markup:]
    assert notes == ["unclosed <!-- comment"]


def test_pages_that_close_their_elements_are_left_as_they_are():
    for collection, name in [(DRAGNET, "R306.html"), (CLEANEVAL, "31.html"),
                             (CLEANEVAL, "1.html"), (DRAGNET, "R490.html")]:
        text = page(collection, name).decode("utf-8", "replace")
        assert recover_swallowed(text) == (text, [])


def test_a_page_cut_short_in_its_last_comment_is_left_as_it_is():
    # R306 cut off inside the comment after its footer, as a download that
    # stopped there: what the comment takes is no part of the page's text.
    text = page(DRAGNET, "R306.html").decode("utf-8")
    cut = text[:text.rindex("-->")]
    assert recover_swallowed(cut) == (cut, [])


# --- attributes without a value ------------------------------------------

@pytest.mark.parametrize("parser", PARSERS)
def test_an_attribute_without_a_value_reads_as_empty_text(parser):
    """Found by the fuzzer: a real page damaged to open with `<html lang>`
    made the page's language None, and reading the metadata failed."""
    data = page(DRAGNET, "116.html").replace(b"<html", b"<html lang> <html", 1)
    root = parse(data, parser).root
    assert all(isinstance(v, str) for v in root.attrs.values())
    assert texts(data, parser) == texts(page(DRAGNET, "116.html"), parser)
