"""The article config and its shipped model (docs/article.md) on real news
pages of data/dragnet: the headline and the body are kept; the comments,
which Dragnet's gold appends after a COMMENTS line and the .anno labels o,
and the related links are dropped.

The pages are among the model's training pages: these tests say what the
shipped model does; the cross-validated figures in docs/article.md say how
well it does on pages it has not seen.
"""

from __future__ import annotations

import json
import re

import pytest

from victor.annotation import load_annotation
from victor.cleaner import Cleaner
from victor.config import ROOT, load_config, settings
from victor.crf import load_template
from victor.features import select_features
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


def test_every_feature_the_config_selects_reaches_the_crf_through_its_template() -> None:
    """A feature computed on every page and named by no template line would
    cost time and say nothing."""
    config = load_config("article")
    references = [ref for line in load_template(config.template).lines for ref in line]
    unused = [n for n in select_features(config) if not any(r.matches(n) for r in references)]
    assert not unused


def test_the_shipped_model_was_trained_with_this_config_on_every_annotated_page() -> None:
    config = load_config("article")
    meta = json.loads(config.model.with_suffix(".crfsuite.json").read_text(encoding="utf-8"))
    assert meta["config"] == "article"
    # What the features and the fit depend on; how the model's output is
    # decoded (keep-above) may change without a retraining.
    assert meta["settings"] == settings(config)
    assert {k.replace("-", "_"): v for k, v in config.crf.items()}.items() <= meta["params"].items()
    assert meta["template"]["text"] == load_template(config.template).text
    assert len(meta["training_pages"]) == len(list(DRAGNET.glob("*.anno"))) == 806


@pytest.mark.parametrize("name", ["R28", "488"])
def test_the_article_is_kept_and_the_comments_dropped(cleaner: Cleaner, name: str) -> None:
    text = cleaned(cleaner, name)
    article, comments = gold(name)
    assert comments, "the gold of this page goes on with comments"
    assert has(text, article[0]) and has(text, article[-1])
    # Every block of five words or more that the annotation labels o and
    # the gold's comments hold: the comments themselves.
    anno = load_annotation(DRAGNET / f"{name}.anno")
    comment_blocks = [t for t, label in zip(anno.texts, anno.labels)
                      if label == "o" and len(words(t)) >= 5 and has(comments, t)]
    assert len(comment_blocks) >= 2
    assert not [t for t in comment_blocks if has(text, t)]


def test_headline_and_body_without_related_links(cleaner: Cleaner) -> None:
    # A CBS News story: the headline, the story, then links to related stories.
    text = cleaned(cleaner, "100")
    assert has(text, "Latest Amelia Earhart search falls short")
    assert has(text, "(AP) HONOLULU - A $2.2 million expedition that hoped to find wreckage")
    assert not has(text, "Expedition to find Amelia Earhart begins in Honolulu")
    assert not has(text, "Watch: The Lost Journey Of Amelia Earhart")
