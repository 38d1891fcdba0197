"""Readers' sections (the second pass's `comment-sections` and
`review-sections`, docs/notes/second-pass.md, "Readers' sections"): comments are
the body of a forum and no part of an article, reviews no part of a
product's page. On real pages of data/: Dragnet's article gold leaves the
comments out (they follow its `!@#$%^&*() COMMENTS` line), WCXB's gold of a
forum keeps them, and of a product leaves its reviews out."""

from __future__ import annotations

import gzip
import json

import pytest

from model_support import shipped_cleaner
from repo_data import DRAGNET, WCXB
from victor import decoding
from victor.batch.inputs import read_input
from victor.cleaner import Cleaner
from victor.config import load_config
from victor.errors import VictorError


def article_gold(name: str) -> str:
    return (DRAGNET / f"{name}.txt").read_text(encoding="utf-8").split("!@#$%^&*()")[0]


def commented(result) -> list[str]:
    """The texts of the page's blocks that stand in a comment section."""
    return [text for text, section in zip(result.texts, decoding.layout(result.page.blocks).sections)
            if section == "comments"]


def test_a_comment_section_is_named_so_by_its_box_not_by_a_word_inside_a_name():
    """WordPress's `<ul class="commentlist">` is one; a post whose classes
    say it `has-comments` is not, nor is code's `<span class="hljs-comment">`."""
    cleaner = shipped_cleaner()
    blog = cleaner.read(read_input(str(DRAGNET / "R988.html")))
    inside = decoding.layout(blog.blocks).sections
    assert "comments" in inside
    assert all(inside[i] == "" for i, b in enumerate(blog.blocks) if b.text == "My New Project")
    for name in ("4662", "0437"):
        page = cleaner.read(gzip.decompress((WCXB / f"{name}.html.gz").read_bytes()))
        assert "comments" not in decoding.layout(page.blocks).sections, name


@pytest.mark.shipped_model
def test_the_article_config_keeps_the_post_and_not_its_comments():
    """Dragnet R988 is a short post with 111 comments: the article config
    gives the post, headline and all, and none of the comments."""
    result = shipped_cleaner("article").clean(read_input(str(DRAGNET / "R988.html")))
    text = result.text()
    assert "My New Project" in text
    assert "Congratulations" in "\n".join(commented(result))
    assert "Congratulations" not in text
    assert "Says:" not in text


@pytest.mark.shipped_model
def test_the_default_drops_the_comments_of_a_page_that_is_surely_an_article():
    """Dragnet R500, an NFL story the classifier is sure of: its text is
    the story, without the fan-feedback guidelines that head its comment
    section (which the trees would keep: they read like a paragraph)."""
    result = shipped_cleaner().clean(read_input(str(DRAGNET / "R500.html")))
    assert result.page_type["article"] > 0.99
    text = result.text()
    first = next(line for line in article_gold("R500").splitlines() if len(line.split()) > 8)
    assert " ".join(first.split()[:12]) in " ".join(text.split())
    assert "Fan feedback should be within" in commented(result)
    assert "Fan feedback" not in text


@pytest.mark.shipped_model
def test_a_forums_comments_are_its_body():
    """WCXB 0575 is a lobste.rs thread, its posts in `<ol class="comments">`:
    the default config, which finds it no article, leaves them to the trees
    (the labels of the config without the step), and keeps posts as the
    gold does."""
    from dataclasses import replace

    from model_support import redecoded

    page = gzip.decompress((WCXB / "0575.html.gz").read_bytes())
    result = shipped_cleaner().clean(page)
    assert result.page_type["article"] < 0.5
    general = load_config("general")
    without = replace(general, second_pass=replace(general.second_pass, comment_sections=None))
    assert Cleaner(model=redecoded(without)).clean(page).labels == result.labels
    gold = (WCXB / "0575.txt").read_text(encoding="utf-8")
    kept = [t for t in commented(result) if len(t.split()) > 8 and t in result.text()]
    assert kept and all(t in gold for t in kept)


@pytest.mark.shipped_model
def test_the_default_drops_the_reviews_of_a_product():
    """WCXB 2947, a guitar in a shop: its text is the product, not the
    buyers' reviews nor the note on who may rate it."""
    meta = json.loads((WCXB / "2947.json").read_text())
    cleaner = shipped_cleaner()
    page = cleaner.read(gzip.decompress((WCXB / "2947.html.gz").read_bytes()), url=meta["url"])
    result = cleaner.label(page)
    assert result.page_type["product"] > 0.5
    reviews = [t for t, section in zip(result.texts, decoding.layout(page.blocks).sections)
               if section == "reviews"]
    assert "You have to be logged in to rate products." in reviews
    text = result.text()
    assert "logged in to rate" not in text
    gold = (WCXB / "2947.txt").read_text(encoding="utf-8")
    assert next(line for line in gold.splitlines() if line.strip()) in text


def test_the_key_is_checked_when_the_config_is_loaded(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("base: general\ntemplate: general\nsecond-pass:\n  comment-sections: yes\n",
                   encoding="utf-8")
    with pytest.raises(VictorError, match="bad.yaml: key 'second-pass.comment-sections': must"):
        load_config(bad)
