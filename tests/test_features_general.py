"""The general config's extra families on real pages of data/wcxb: what
HTML5, ARIA and schema.org say a block is (semantic.*), and where the
page's main body of running text is (candidate.*)."""

from __future__ import annotations

from pathlib import Path

import pytest

from victor import features
from victor.annotation import read_page_file
from victor.config import load_config

WCXB = Path(__file__).resolve().parent.parent / "data" / "wcxb"


@pytest.fixture(scope="module")
def config():
    return load_config("general")


def by_text(page, dicts):
    return {b.text: d for b, d in zip(page.blocks, dicts)}


def test_menu_entries_in_nav_and_header_are_marked(config):
    page = read_page_file(WCXB / "0001.html.gz", config)
    f = first_by_text(page, features.compute(page, config))
    assert f["Partner With Us"]["semantic.nav"] == "1"
    assert f["Partner With Us"]["semantic.header"] == "1"
    assert f["Fuel Your Fall with Scratch"]["semantic.nav"] == "0"


def test_the_article_text_lies_in_the_best_candidate(config):
    """0001 is a blog post of a meal-delivery service: its paragraphs are
    the page's main body of running text; its menu is not."""
    page = read_page_file(WCXB / "0001.html.gz", config)
    f = by_text(page, features.compute(page, config))
    heading = f["1. High-Protein, Balanced Meals Are Here to Stay"]
    assert heading["candidate.in-best"] == "1"
    assert heading["candidate.share"] == "4"  # the top of five steps
    assert f["Partner With Us"]["candidate.in-best"] == "0"


def first_by_text(page, dicts):
    out = {}
    for b, d in zip(page.blocks, dicts):
        out.setdefault(b.text, d)
    return out


def test_roles_itemprops_and_hidden_elements(config):
    """0002's menu has role=navigation and a hidden toggle; 0015's footer is
    role=contentinfo; 0045's article text is schema.org's articleBody."""
    page = read_page_file(WCXB / "0002.html.gz", config)
    f = first_by_text(page, features.compute(page, config))
    assert f["For CPG Brands"]["semantic.role-navigation"] == "1"
    assert f["Toggle"]["semantic.hidden"] == "1"
    page = read_page_file(WCXB / "0015.html.gz", config)
    f = features.compute(page, config)
    footer = [d for b, d in zip(page.blocks, f) if b.text.startswith("Missouri Department of Higher")]
    assert footer and all(d["semantic.role-contentinfo"] == "1" for d in footer)
    page = read_page_file(WCXB / "0045.html.gz", config)
    f = first_by_text(page, features.compute(page, config))
    assert f["What is Digital Marketing?"]["semantic.itemprop"] == "1"


def test_sentences_end_in_the_scripts_of_the_web():
    """Dragnet R907's Japanese paragraph has a full-width question mark and
    full stop with no space after them: three sentences, counted alike by
    the tokeniser and the features' numpy counts."""
    from victor.annotation import load_annotation
    from victor.text import text_stats
    from victor.text import sentences

    annotation = load_annotation(WCXB.parent / "dragnet" / "R907.anno")
    text = next(t for t in annotation.texts if t.startswith("日 本の皆さんも"))
    assert len(sentences(text)) == 3
    stats = text_stats([text])
    assert stats.sentence_ends[0] + (not stats.ends_sentence[0]) == 3
    assert sentences("Это тест. «Bien!» Fin") == ["Это тест.", "«Bien!»", "Fin"]


def test_the_text_a_page_declares_marks_its_blocks(config):
    """0001 declares its first paragraph in og:description (cut off with
    '[…]'): that block is found there, its menu is not, and a single word
    of it ('At', a block of its own) says nothing."""
    page = read_page_file(WCXB / "0001.html.gz", config)
    assert page.meta.structured_text
    f = first_by_text(page, features.compute(page, config))
    opening = next(t for t in f if t.startswith("Fall isn’t just pumpkin spice season"))
    assert f[opening]["structured.in-declared"] == "4"
    assert f["Partner With Us"]["structured.in-declared"] == "0"
    assert f["At"]["structured.in-declared"] == "0"


def test_the_cards_of_a_listing_are_records_seen_whole(config):
    """1795 lists eight news stories, each a card of an image link, an age,
    a title link and a teaser (record.*, an extra no shipped config has on
    yet: docs/general.md). Each card is a record of a group of eight, whose
    words are mostly outside links, though its titles are links; the
    weather widget's entries are records whose every word is a link."""
    from victor.features import record
    from victor.features.context import Context

    page = read_page_file(WCXB / "1795.html.gz", config)
    raw = record.compute(Context(page, config, tuple(record.FEATURES), None))
    at = {b.text: i for i, b in reversed(list(enumerate(page.blocks)))}
    title = at["California car rental company fuels nationwide crime-tourism spree"]
    teaser = next(i for t, i in at.items() if t.startswith("Federal and local authorities"))
    for i in (title, teaser):
        assert raw["record.siblings"][i] == 8
        assert raw["record.link-density"][i] < 0.5
        assert raw["record.word-share"][i] > 0.5
    weather = at["Thu"]
    assert raw["record.siblings"][weather] == 3
    assert raw["record.link-density"][weather] == 1.0
    assert raw["record.siblings"][at["Skip to main content"]] == 0


def test_what_a_page_declares_itself_to_be_marks_every_block(config):
    """0185, a course sold as a product, says og:type product and JSON-LD
    WebPage and Course; 0001, a blog post, og:type article and JSON-LD
    Article and WebPage (page-type, an extra no shipped config has on:
    docs/general.md). A page that declares nothing is of type none."""
    from victor.features import page_type
    from victor.features.context import Context

    for name, kinds, kind in (("0185", ["og:product", "WebPage", "Course"], "product"),
                              ("0001", ["og:article", "Article", "WebPage"], "article"),
                              ("0239", [], "none")):
        page = read_page_file(WCXB / f"{name}.html.gz", config)
        assert page.meta.kinds == kinds
        raw = page_type.compute(Context(page, config, tuple(page_type.FEATURES), None))
        assert raw["page-type"] == [kind] * len(page.blocks)


def test_the_headline_box_holds_a_products_own_text(config):
    """2947, a guitar on a shop's page: its h1 names it, as the title does.
    The specifications sit in the box that holds the h1; the products
    others bought sit one level out, the customer reviews further, the
    menus before the headline and the footer after it share only <body>
    (h1.*: docs/general.md)."""
    from victor.features import h1
    from victor.features.context import Context

    page = read_page_file(WCXB / "2947.html.gz", config)
    ctx = Context(page, config, tuple(h1.FEATURES), None)
    raw = h1.compute(ctx)
    at = {b.text: i for i, b in reversed(list(enumerate(page.blocks)))}
    headline = h1.headline(ctx)
    assert page.blocks[headline].text == "Fender Player II Strat RW BCG"
    assert page.blocks[headline].tags[-1] == "h1"
    shared = {t: raw["h1.shared"][at[t]] for t in
              ("Body: Alder", "Fender Player II Strat HSS RW 3TS",
               "Genuine step up from player I", "Thomann loves you, because you rock!")}
    assert list(shared.values()) == sorted(shared.values(), reverse=True)
    assert shared["Thomann loves you, because you rock!"] == 0
    assert raw["h1.side"][at["About Us"]] == "before"
    assert raw["h1.side"][headline] == "in"
    assert raw["h1.side"][at["Body: Alder"]] == "after"
