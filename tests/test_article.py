"""The article config (the general config's first pass, then the second
pass: docs/notes/second-pass.md) on real news pages of data/dragnet: the headline
and the body are kept; the comments, which Dragnet's gold appends after a
COMMENTS line and the .anno labels o, are dropped.

The pages are among the shipped models' training pages: these tests say
what the shipped models do; the site-fold figures in docs/notes/second-pass.md
say how well they do on pages of sites they have not seen.
"""

from __future__ import annotations

import re

import pytest

from victor.annotation import load_annotation
from victor.cleaner import Cleaner
from victor.config import ROOT
from victor.reading.text import words

DRAGNET = ROOT / "data" / "dragnet"
# The line after which Dragnet's gold goes on with the page's comments.
COMMENTS = re.compile(r"^[!@#$%^&*()\s]{6,}COMMENTS\s*$", re.M)


@pytest.fixture(scope="module")
def cleaner() -> Cleaner:
    return Cleaner("article")


def cleaned(cleaner: Cleaner, name: str) -> str:
    """The page's cleaned text as its words, one space apart, so that a
    paragraph is found whatever the line breaks."""
    return " ".join(words(cleaner.clean((DRAGNET / f"{name}.html").read_bytes()).text()))


def has(text: str, paragraph: str) -> bool:
    return f" {' '.join(words(paragraph))} " in f" {text} "


def gold(name: str) -> tuple[list[str], str]:
    """The gold's article paragraphs, and its comments part as words."""
    article, *comments = COMMENTS.split((DRAGNET / f"{name}.txt").read_text(encoding="utf-8"), 1)
    return ([line for line in article.splitlines() if words(line)],
            " ".join(words(comments[0])) if comments else "")


@pytest.mark.parametrize("name", ["R28", "488"])
def test_the_article_is_kept_and_the_comments_dropped(cleaner: Cleaner, name: str) -> None:
    text = cleaned(cleaner, name)
    article, comments = gold(name)
    assert comments, "the gold of this page goes on with comments"
    # The body, from its first paragraph to its last (the config's higher
    # bars keep fewer headlines than the default's: docs/notes/article.md).
    body = [line for line in article if len(words(line)) >= 20]
    assert has(text, body[0]) and has(text, article[-1])
    # Every block of five words or more that the annotation labels o and
    # the gold's comments hold: the comments themselves.
    anno = load_annotation(DRAGNET / f"{name}.anno")
    comment_blocks = [t for t, label in zip(anno.texts, anno.labels)
                      if label == "o" and len(words(t)) >= 5 and has(comments, t)]
    assert len(comment_blocks) >= 2
    assert not [t for t in comment_blocks if has(text, t)]


def test_headline_and_body(cleaner: Cleaner) -> None:
    # A CBS News story: the headline, the story, then links to related
    # stories, which the config keeps (the annotation drops them).
    text = cleaned(cleaner, "100")
    assert has(text, "Latest Amelia Earhart search falls short")
    assert has(text, "(AP) HONOLULU - A $2.2 million expedition that hoped to find wreckage")
