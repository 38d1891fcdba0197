"""What holds for every input, checked on generated ones (hypothesis):
cleaning any bytes either cleans them or refuses them with a VictorError,
in bounded time; the cleaner removes text but never invents it; the same
page gives the same output every time, in whatever order a batch meets it.

Every property that cleans runs under every shipped config
(victor.config.shipped_configs). The example counts here keep the file
quick; `python3 -m benchmarks.fuzz` runs the same checks on as many
examples as asked for, resumably, in two processes (docs/robustness.md).
"""

from __future__ import annotations

import dataclasses
import encodings.aliases
import json
import re
import time
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from repo_data import CLEANEVAL, DRAGNET, pages
from victor.cleaner import Cleaner, Result
from victor.config import load_config, shipped_configs
from victor.labels import LABELS
from victor.errors import VictorError
from victor.output import FORMATS
from victor.output.characters import readable
from victor.reading.page import read_page
from victor.reading.parser import PARSERS

# Seconds of CPU time any generated page may take; they are at most a few
# hundred kB, which a healthy pipeline cleans in well under a second. CPU
# time, because the machine may be busy with other work.
SECONDS = 10.0

CI = settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- what is generated ----------------------------------------------------

@lru_cache(maxsize=None)
def real_pages() -> tuple[bytes, ...]:
    """A few pages of each collection, in their own encodings."""
    files = pages(CLEANEVAL)[:6] + pages(DRAGNET)[:6]
    return tuple(f.read_bytes() for f in files)


@lru_cache(maxsize=None)
def vocabulary() -> tuple[str, ...]:
    """Words of a real transcript, punctuation and non-ASCII letters kept."""
    return tuple(sorted(set((DRAGNET / "27.txt").read_bytes()
                            .decode("utf-16").split())))


TAGS = ("p", "div", "span", "a", "b", "i", "td", "tr", "table", "li", "ul", "ol", "h1", "h3",
        "pre", "font", "form", "center", "blockquote", "text", "body", "html", "head", "title",
        "script", "style", "textarea", "noscript", "svg", "select", "option", "iframe")
VOID = ("br", "img", "hr", "meta", "input", "wbr")
ATTRIBUTES = ('class="nav menu"', 'id="content"', 'href="/a?b=1&amp;c"', 'alt="A photo"',
              'id="http://example.org/" title="T" encoding="utf-8"', 'charset="utf-8"',
              'http-equiv="content-type" content="text/html; charset=windows-1251"')
ENCODINGS = ("utf-8", "cp1252", "utf-16", "utf-16-le", "cp1251", "shift_jis", "iso-8859-2")
# Every label of Python's codec registry, and some that browsers know and
# it does not: what a page's meta, CleanEval's wrapper or an HTTP header
# may name.
CHARSETS = tuple(sorted({*encodings.aliases.aliases, *encodings.aliases.aliases.values(),
                         "x-user-defined", "windows-874", "utf8", "none", "", "unicode-1-1-utf-8"}))
charset_labels = st.sampled_from(CHARSETS)

# JSON-LD as pages write it and as they botch it: the keys metadata reads,
# holding any JSON at all (an @type that is an object crashed a page once).
LD_KEYS = ("@type", "@graph", "author", "name", "articleBody", "text", "description",
           "headline", "datePublished", "publisher", "inLanguage", "mainEntityOfPage")
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12)
    | st.sampled_from(["Article", "NewsArticle", "Product", "WebSite", "Person", "FAQPage"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(LD_KEYS) | st.text(max_size=4), inner, max_size=5),
    max_leaves=12)


def markup_tokens(most_repeats: int = 3000) -> st.SearchStrategy[str]:
    """Pieces of markup; `most_repeats` bounds the runs of one start tag."""
    return st.one_of(
        st.sampled_from(TAGS).flatmap(lambda t: st.sampled_from([f"<{t}>", f"</{t}>"])),
        st.tuples(st.sampled_from(TAGS + VOID), st.sampled_from(ATTRIBUTES)).map(
            lambda ta: f"<{ta[0]} {ta[1]}>"),
        st.sampled_from(VOID).map(lambda t: f"<{t}>"),
        charset_labels.map(lambda c: f'<meta charset="{c}">'),
        json_values.map(lambda v: '<script type="application/ld+json">'
                        f"{json.dumps(v)}</script>"),
        st.sampled_from(["article", "website", "product", "product.group", "", "<b>"]).map(
            lambda kind: f'<meta property="og:type" content="{kind}">'),
        charset_labels.map(lambda c: f'<text id="http://example.org/" encoding="{c}">'),
        st.sampled_from(["&#xD800;", "&#x110000;", "&#0;", "&#x80;", "&#xFFFF;",
                         "&#99999999999;"]),
        st.tuples(st.sampled_from(TAGS), st.integers(1, most_repeats)).map(
            lambda tn: f"<{tn[0]}>" * tn[1]),
        st.deferred(lambda: st.sampled_from(vocabulary())),
        st.sampled_from([" ", "\n", "\t", "&amp;", "&nbsp;", "&#233;", "&#x0;", "&bogus;", "<!--",
                         "-->", "<", ">", "</", "<!DOCTYPE html>", "\x00", "\ufeff", "\u2028"]),
        st.text(max_size=8),
    )


@st.composite
def html_pages(draw, max_tokens: int = 300, most_repeats: int = 3000) -> bytes:
    """Markup built from real tags, attributes and words in any order:
    unclosed, misnested, in any of several encodings."""
    text = "".join(draw(st.lists(markup_tokens(most_repeats), max_size=max_tokens)))
    return text.encode(draw(st.sampled_from(ENCODINGS)), "replace")


@st.composite
def mutated_pages(draw, window: int | None = None) -> bytes:
    """A real page with byte ranges deleted, replaced, duplicated or cut
    off: what truncated downloads and broken servers deliver. With
    `window`, a stretch of that many bytes of the page (the fuzzer's small
    inputs)."""
    page = bytearray(draw(st.sampled_from(real_pages())))
    if window is not None and len(page) > window:
        start = draw(st.integers(0, len(page) - window))
        page = page[start:start + window]
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(page)))
        size = draw(st.integers(0, 2000))
        kind = draw(st.sampled_from(["delete", "insert", "repeat", "cut"]))
        if kind == "delete":
            del page[at:at + size]
        elif kind == "insert":
            page[at:at] = draw(st.binary(max_size=64))
        elif kind == "repeat":
            page[at:at] = page[at:at + size] * draw(st.integers(2, 20))
        else:
            del page[at:]
    return bytes(page)


any_bytes = st.binary(max_size=4000)


# --- what must hold -------------------------------------------------------

def clean_or_refuse(cleaner: Cleaner, data: bytes, declared: str | None = None) -> Result | None:
    """Cleans `data` (with `declared` as an HTTP header's charset) and
    checks the result, or returns None when it is refused with a one-line
    VictorError naming the source."""
    started = time.process_time()
    try:
        result = cleaner.clean(data, "generated.html", encoding=declared)
    except VictorError as e:
        message = str(e)
        assert message.startswith("generated.html: ") and "\n" not in message
        return None
    assert time.process_time() - started < SECONDS
    check_result(result)
    return result


def check_result(result: Result) -> None:
    """Every block labelled, probabilities between 0 and 1, every format
    renders, and no letter or digit in the text that is not in the page's
    blocks as a reader reads them (characters.readable: text encoded twice
    decoded once) or an ordered list's number (words may join where inline
    tags split them without a space)."""
    assert len(result.labels) == len(result.page.blocks) == len(result.content)
    assert set(result.labels) <= set(LABELS)
    assert all(-1e-9 <= p <= 1 + 1e-9 for p in result.content)
    for fmt in FORMATS:
        result.render(fmt).encode("utf-8")  # what a batch writes
    json.loads(result.render("jsonl"))
    page_letters = Counter(c for text in result.texts + read_as_output(result)
                           for c in text if c.isalnum())
    text = re.sub(r"(?m)^\d+\. ", "", result.render("text"))
    invented = Counter(c for c in text if c.isalnum()) - page_letters
    assert not invented, f"letters not in the page: {sorted(invented)[:10]}"


def read_as_output(result: Result) -> list[str]:
    """The page's text where its blocks stand, as the output reads each of
    its text nodes (characters.readable, whose repair looks at the node)."""
    body = result.page.body
    out = []
    for b in result.page.blocks:
        parent = b.containers[-1] if b.containers else body
        out.extend(readable(c) for c in parent.children[b.start:b.stop] if isinstance(c, str))
    return out


@pytest.fixture(scope="module", params=shipped_configs())
def cleaner(request) -> Cleaner:
    return Cleaner(request.param)


@CI
@given(data=any_bytes)
def test_any_bytes_are_cleaned_or_refused_as_no_page(cleaner, data):
    clean_or_refuse(cleaner, data)


@CI
@given(data=html_pages())
def test_any_markup_is_cleaned_without_inventing_words(cleaner, data):
    clean_or_refuse(cleaner, data)


@CI
@given(data=html_pages(), declared=charset_labels)
def test_any_charset_an_http_header_declares_is_survived(cleaner, data, declared):
    clean_or_refuse(cleaner, data, declared)


def read_with_parser(data: bytes, parser: str, config_name: str = "cleaneval") -> None:
    """The page's blocks, each non-empty and with its whitespace collapsed,
    whichever parser builds the tree, under the deletions of any config."""
    config = dataclasses.replace(load_config(config_name), parser=parser)
    try:
        page = read_page(data, config, "generated.html")
    except VictorError as e:
        assert str(e).startswith("generated.html: not an HTML page")
        return
    assert all(b.text and b.text == " ".join(b.text.split()) for b in page.blocks)


@CI
@given(data=st.one_of(html_pages(), any_bytes), parser=st.sampled_from(sorted(PARSERS)))
def test_every_parser_reads_any_markup_into_blocks(data, parser):
    read_with_parser(data, parser)


@settings(CI, max_examples=15)
@given(data=mutated_pages())
def test_damaged_real_pages_are_cleaned_or_refused(cleaner, data):
    clean_or_refuse(cleaner, data)


@CI
@given(data=st.one_of(html_pages(), any_bytes))
def test_the_same_page_gives_the_same_output(cleaner, data):
    first = clean_or_refuse(cleaner, data)
    second = clean_or_refuse(cleaner, data)
    assert (first is None) == (second is None)
    if first is not None:
        assert second.labels == first.labels
        assert second.render("blocks") == first.render("blocks")


@settings(CI, max_examples=10)
@given(pages=st.lists(st.one_of(html_pages(), mutated_pages()), min_size=2, max_size=5),
       order=st.randoms(use_true_random=False))
def test_a_batch_in_any_order_gives_each_page_the_same_output(cleaner, pages, order):
    def outputs(sequence: list[int]) -> dict[int, str | None]:
        results = {i: clean_or_refuse(cleaner, pages[i]) for i in sequence}
        return {i: r and r.render("blocks") for i, r in results.items()}

    forward = list(range(len(pages)))
    shuffled = forward[:]
    order.shuffle(shuffled)
    assert outputs(shuffled) == outputs(forward)
