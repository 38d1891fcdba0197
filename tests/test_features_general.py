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
    from victor.reading.text import text_stats
    from victor.reading.text import sentences

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
