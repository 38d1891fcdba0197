"""The default config: its CRF (the first pass), then the second
pass (victor/second_pass/, docs/notes/second-pass.md) with the shipped trees, on
real pages of data/.

The shipped trees were trained on every annotated page of data/, these
among them: these tests say what the shipped config does; the figures of
docs/notes/second-pass.md say how well it does on pages of sites it has not seen.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from repo_data import DATA, DRAGNET, WCXB
from victor import decoding, second_pass
from victor.annotation import load_annotation
from victor.batch.inputs import read_input
from victor.cleaner import Cleaner
from victor.config import load_config, settings
from victor.errors import VictorError
from victor.labels import OTHER
from victor.reading.text import words
from victor.second_pass.features import PAGE_FEATURES
from victor.training.dataset import gold_text
from victor.training.evaluate import score_page
from victor.model import load as load_model, part_bytes, with_decoding
from victor.config.second_pass import training



@pytest.fixture(scope="module")
def general() -> Cleaner:
    return Cleaner("general")


@pytest.fixture(scope="module")
def first(tmp_path_factory) -> Cleaner:
    """The default model without its second pass: its CRF alone (a model
    made in memory from the shipped one, victor.model.with_decoding)."""
    path = tmp_path_factory.mktemp("config") / "first.yaml"
    path.write_text("base: general\ntemplate: general\nsecond-pass: null\n", encoding="utf-8")
    return Cleaner(model=with_decoding(load_model("general"), load_config(path)))


def both(general: Cleaner, first: Cleaner, anno):
    """The page of `anno` cleaned with and without the second pass, and its
    annotation."""
    annotation = load_annotation(str(anno))
    data = read_input(annotation.source)
    return general.clean(data), first.clean(data), annotation


def test_the_default_is_a_crf_and_a_second_pass_and_article_its_higher_bars(general, first):
    article = Cleaner("article")
    # The article model names the general model's files (docs/models.md).
    assert (article.trained.sources["crf"].resolve() == general.trained.sources["crf"].resolve()
            == first.trained.sources["crf"].resolve())
    assert (article.trained.sources["second-pass"].resolve()
            == general.trained.sources["second-pass"].resolve())
    assert article.config.template == general.config.template
    assert settings(article.config) == settings(general.config)
    assert first.second_pass is None
    assert article.second_pass.settings.keep > general.second_pass.settings.keep
    assert article.second_pass.settings.add > general.second_pass.settings.add
    assert article.second_pass.settings.lowest_page_bar is None
    # The trees read the first pass's columns the general config computes.
    result = first.clean(read_input(str(DRAGNET / "R28.html")))
    assert set(general.second_pass.first) == set(result.columns.names) - {"class-words"}


def test_the_shipped_trees_were_trained_on_every_annotated_page_by_the_recipe():
    """The model's record: the trees of the general config's settings
    (docs/notes/second-pass.md: 100 rounds of 31 leaves at rate 0.15), blocks
    weighted by their words, over the held-out first pass of every
    annotated page of data/."""
    record = load_model("general").record
    note = record["second-pass"]
    assert note["pages"] == len(list(DATA.glob("*/*.anno"))) == 2143
    assert record["recipe"]["second-pass"] == training(load_config("general").second_pass)
    assert note["weight"] == "words"
    assert note["features"][:len(PAGE_FEATURES)] == list(PAGE_FEATURES)


def changed(second_result, first_result) -> list[int]:
    """The blocks the second pass keeps where the first pass dropped them,
    or drops where it kept them."""
    return [i for i, (a, g) in enumerate(zip(second_result.labels, first_result.labels))
            if (a == OTHER) != (g == OTHER)]


def says(text: str, snippet: str) -> bool:
    return f" {' '.join(words(snippet))} " in f" {' '.join(words(text))} "


@pytest.mark.shipped_model
def test_on_a_dragnet_article_the_second_pass_mends_what_the_annotation_marks(general, first):
    """data/dragnet/R28 (an OSXDaily post with comments): the first pass
    keeps the sidebar's headings ("Shop at Amazon", "Ad", "OSXDaily on
    Facebook"); the second pass drops them, as the annotation has them, and
    changes no other block."""
    a, g, annotation = both(general, first, DRAGNET / "R28.anno")
    moved = changed(a, g)
    dropped = [a.texts[i] for i in moved if a.labels[i] == OTHER]
    assert {"Shop at Amazon", "Ad", "OSXDaily on Facebook"} <= set(dropped)
    assert all((a.labels[i] == OTHER) == (annotation.labels[i] == OTHER) for i in moved)
    gold = gold_text(DRAGNET / "R28.anno", a.texts, annotation.labels)
    assert (score_page("R28", a.text(), gold).words.f1
            > score_page("R28", g.text(), gold).words.f1)


@pytest.mark.shipped_model
def test_on_a_wcxb_article_the_second_pass_drops_a_teaser_the_first_pass_kept(general, first):
    """data/wcxb/0001 (a recipe blog's article): WCXB's own snippets of the
    page say what its text has and has not; the first pass keeps the
    "Chef's Choice Menu Previews" teaser, which the page's text has not,
    and the second pass drops it, and only blocks the annotation marks as
    boilerplate."""
    a, g, annotation = both(general, first, WCXB / "0001.anno")
    snippets = json.loads((WCXB / "0001.json").read_text(encoding="utf-8"))
    assert all(says(a.text(), s) for s in snippets["with"])
    assert [s for s in snippets["without"] if says(g.text(), s)] == ["Chef's Choice Menu Previews"]
    assert not [s for s in snippets["without"] if says(a.text(), s)]
    dropped = [i for i in changed(a, g) if a.labels[i] == OTHER]
    assert dropped and all(annotation.labels[i] == OTHER for i in dropped)


def test_bars_that_would_keep_nothing_leave_the_labels(general, first):
    """Decoding never empties a page with text, and the second pass does
    not either: with bars no block reaches, the page keeps its labels."""
    result = first.clean(read_input(str(DRAGNET / "R28.html")))
    q = second_pass.probabilities(general.second_pass, result.columns, result.page.blocks,
                                result.marginals, result.labels)
    assert len(q) == len(result.labels) and q.max() < 1
    assert decoding.relabel(result.labels, result.marginals, q, 1.0, 1.0) == result.labels


def test_a_block_the_first_pass_is_sure_of_stays_whatever_the_trees_say(general, first):
    """`first-pass-stays`: where the trees give every block nothing, the
    blocks the CRF kept at that content probability or more stay with
    their labels, and the rest go."""
    result = first.clean(read_input(str(DRAGNET / "R28.html")))
    content = decoding.calibration.content_probabilities(result.marginals)
    nothing = [0.0] * len(result.labels)
    out = decoding.relabel(result.labels, result.marginals, nothing, 0.5, 0.5, stays=0.97)
    sure = [lab != OTHER and p >= 0.97 for lab, p in zip(result.labels, content)]
    assert any(sure) and not all(lab != OTHER for lab in result.labels)
    assert out == [lab if s else OTHER for lab, s in zip(result.labels, sure)]
    assert general.config.second_pass.first_pass_stays is not None


def test_the_page_type_boosters_move_the_trees_by_their_share_at_most(general):
    """`page-type-seeds` and `page-type-share`: boosters that also read the
    page type's seven probabilities. The same page told it is a forum, not
    what the classifier reads it as, gets other probabilities from them,
    and the trees' probability moves by no more than their share."""
    data = read_input(str(load_annotation(str(WCXB / "0001.anno")).source))
    result = general.clean(data)
    second = general.second_pass
    share = second.settings.page_type_share
    assert second.typed and 0 < share < 1 and result.page_type["forum"] < 0.5
    told = {kind: float(kind == "forum") for kind in result.page_type}
    args = (second, result.columns, result.page.blocks, result.marginals, result.labels)
    read, forum = (np.asarray(second_pass.probabilities(*args, kinds)) for kinds in
                   (result.page_type, told))
    moved = np.abs(read - forum)
    assert moved.max() > 0.01 and moved.max() <= share + 1e-9


def test_trees_without_page_type_boosters_are_refused_where_the_config_asks_for_them():
    general = load_model("general")
    parts = second_pass.split_models(part_bytes(general, "second-pass").decode("utf-8"))
    plain = "".join(parts[:general.record["recipe"]["second-pass"]["seeds"]])
    with pytest.raises(VictorError, match=r"^TREES: .*retrain them with second-pass.page-type-seeds$"):
        second_pass.load(plain, general.config.second_pass, "TREES")
    assert not second_pass.load(plain, replace(general.config.second_pass, page_type_share=0.0),
                                "TREES").typed
