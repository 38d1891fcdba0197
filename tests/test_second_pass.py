"""The article config: the general config's first pass, then the second
pass (victor/rescoring/, docs/second-pass.md) with the shipped trees, on
real pages of data/.

The shipped trees were trained on every annotated page of data/, these
among them: these tests say what the shipped config does; the figures of
docs/second-pass.md say how well it does on pages of sites it has not seen.
"""

from __future__ import annotations

import json

import pytest

from repo_data import DATA, DRAGNET, WCXB
from victor import rescoring
from victor.annotation import load_annotation
from victor.batch.inputs import read_input
from victor.cleaner import Cleaner
from victor.config import load_config, settings
from victor.labels import OTHER
from victor.reading.text import words
from victor.rescoring.features import PAGE_FEATURES
from victor.training.dataset import gold_text
from victor.training.evaluate import score_page
from victor.training.second_pass import PARAMS, ROUNDS

pytest.importorskip("lightgbm")


@pytest.fixture(scope="module")
def article() -> Cleaner:
    return Cleaner("article")


@pytest.fixture(scope="module")
def general() -> Cleaner:
    return Cleaner("general")


def both(article: Cleaner, general: Cleaner, anno):
    """The page of `anno` cleaned by both configs, and its annotation."""
    annotation = load_annotation(str(anno))
    data = read_input(annotation.source)
    return article.clean(data), general.clean(data), annotation


def test_the_article_config_is_the_general_first_pass_and_a_second_pass(article, general):
    assert article.config.model == general.config.model
    assert article.config.template == general.config.template
    assert settings(article.config) == settings(general.config)
    assert general.second_pass is None and article.second_pass is not None
    second = article.second_pass
    # The trees read the first pass's columns the general config computes.
    result = general.clean(read_input(str(DRAGNET / "R28.html")))
    assert set(second.first) == set(result.columns.names) - {"class-words"}


def test_the_shipped_trees_were_trained_on_every_annotated_page_as_researched():
    """docs/second-pass.md: 100 rounds of 31 leaves at rate 0.15, blocks
    weighted by their words, over the general config's held-out first pass
    of every annotated page of data/."""
    model = load_config("article").second_pass.model
    note = json.loads(model.with_name(model.name + ".json").read_text(encoding="utf-8"))
    assert note["first_pass_config"] == "general"
    assert note["pages"] == len(list(DATA.glob("*/*.anno"))) == 2143
    assert (note["rounds"], note["params"], note["weight"]) == (ROUNDS, PARAMS, "words")
    assert note["features"][:len(PAGE_FEATURES)] == list(PAGE_FEATURES)


def changed(article_result, general_result) -> list[int]:
    """The blocks the second pass keeps where the first pass dropped them,
    or drops where it kept them."""
    return [i for i, (a, g) in enumerate(zip(article_result.labels, general_result.labels))
            if (a == OTHER) != (g == OTHER)]


def says(text: str, snippet: str) -> bool:
    return f" {' '.join(words(snippet))} " in f" {' '.join(words(text))} "


def test_on_a_dragnet_article_the_second_pass_mends_what_the_annotation_marks(article, general):
    """data/dragnet/R28 (an OSXDaily post with comments): the first pass
    drops the post's second heading and keeps two sidebar headings ("Ad",
    "OSXDaily on Facebook"); the second pass turns each of these around, as
    the annotation has them, and changes no other block."""
    a, g, annotation = both(article, general, DRAGNET / "R28.anno")
    moved = changed(a, g)
    assert [a.texts[i] for i in moved if a.labels[i] != OTHER] == [
        "Add a “Dial Extension” Button to Contacts on iPhone"]
    assert [a.texts[i] for i in moved if a.labels[i] == OTHER] == ["Ad", "OSXDaily on Facebook"]
    assert all((a.labels[i] == OTHER) == (annotation.labels[i] == OTHER) for i in moved)
    gold = gold_text(DRAGNET / "R28.anno", a.texts, annotation.labels)
    assert (score_page("R28", a.text(), gold).words.f1
            > score_page("R28", g.text(), gold).words.f1)


def test_on_a_wcxb_article_the_second_pass_drops_a_teaser_the_first_pass_kept(article, general):
    """data/wcxb/0001 (a recipe blog's article): WCXB's own snippets of the
    page say what its text has and has not; the first pass keeps the
    "Chef's Choice Menu Previews" teaser, which the page's text has not,
    and the second pass drops it, and only blocks the annotation marks as
    boilerplate."""
    a, g, annotation = both(article, general, WCXB / "0001.anno")
    snippets = json.loads((WCXB / "0001.json").read_text(encoding="utf-8"))
    assert all(says(a.text(), s) for s in snippets["with"])
    assert [s for s in snippets["without"] if says(g.text(), s)] == ["Chef's Choice Menu Previews"]
    assert not [s for s in snippets["without"] if says(a.text(), s)]
    dropped = [i for i in changed(a, g) if a.labels[i] == OTHER]
    assert len(dropped) >= 3 and all(annotation.labels[i] == OTHER for i in dropped)


def test_bars_that_would_keep_nothing_leave_the_labels(article):
    """Decoding never empties a page with text, and the second pass does
    not either: with bars no block reaches, the page keeps its labels."""
    result = article.clean(read_input(str(DRAGNET / "R28.html")))
    q = rescoring.probabilities(result, article.second_pass)
    assert len(q) == len(result.labels) and q.max() < 1
    assert rescoring.relabel(result.labels, result.marginals, q, 1.0, 1.0) == result.labels
