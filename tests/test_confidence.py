"""A page's confidence (Result.confidence, the jsonl record's
`confidence`): its expected word F1 under the model's own probabilities,
so that a corpus pipeline can route the pages Victor is unsure of."""

from __future__ import annotations

import json

import pytest

from model_support import shipped_cleaner
from repo_data import DRAGNET, WCXB
from victor.batch.inputs import read_input
from victor.decoding import expected_f1
from victor.labels import OTHER


def test_keeping_the_sure_content_and_nothing_else_is_expected_to_be_right():
    texts = ["a long paragraph of the article itself", "Home About Contact"]
    assert expected_f1(["p", "o"], [1.0, 0.0], texts) == 1.0
    assert expected_f1(["o", "p"], [1.0, 0.0], texts) == 0.0


def test_keeping_doubtful_text_lowers_the_expectation():
    texts = ["a long paragraph of the article itself", "share this story on"]
    sure = expected_f1(["p", "o"], [0.95, 0.2], texts)
    both = expected_f1(["p", "p"], [0.95, 0.2], texts)
    assert 0 < both < sure < 1


def test_a_page_with_no_words_expected_and_none_kept_gets_nothing():
    assert expected_f1(["o"], [0.0], ["menu"]) == 0.0


@pytest.mark.parametrize("config", ["general", "cleaneval"])
@pytest.mark.parametrize("page", [WCXB / "0001.html.gz", DRAGNET / "R28.html"],
                         ids=lambda p: p.name)
def test_every_cleaned_page_carries_its_confidence(config, page):
    """On real pages under each config: a figure between 0 and 1, in the
    jsonl record too, and the decision's labels expected to do better than
    keeping every block of the page."""
    result = shipped_cleaner(config).clean(read_input(str(page)), str(page))
    assert 0 < result.confidence <= 1
    assert json.loads(result.jsonl())["confidence"] == round(result.confidence, 4)
    probabilities = result.content if result.second is None else result.second
    everything = expected_f1([lab if lab != OTHER else "p" for lab in result.labels],
                             probabilities, result.texts)
    assert result.confidence > everything
