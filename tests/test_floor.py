"""The floor under decoding (victor.decoding.floor): a page with text never
comes out empty. When the CRF labels no block as content, the blocks whose
content probability comes nearest the page's highest are kept, and the
JSON record says that the fallback was used."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from victor.calibration import content_probabilities
from victor.cleaner import Cleaner
from victor.decoding import FLOOR_CAP, FLOOR_SHARE, floor
from victor.config import shipped_configs
from victor.inputs import read_input
from victor.output import plain_text

ROOT = Path(__file__).resolve().parents[1]
WCXB = ROOT / "data" / "wcxb"


@pytest.fixture(scope="module")
def article() -> Cleaner:
    return Cleaner("article")


def gold_words(name: str) -> set[str]:
    return set(re.findall(r"\w+", (WCXB / f"{name}.txt").read_text(encoding="utf-8").lower()))


def output_words(texts: list[str], labels: list[str]) -> set[str]:
    return set(re.findall(r"\w+", plain_text(texts, labels).lower()))


def test_a_page_the_model_finds_no_content_on_is_kept_and_marked(article):
    # WCXB 0180, "The Agency", a page of Georgia Tech's machine-learning
    # centre: the article model (trained on Dragnet
    # pages, never on WCXB) gives no block a content probability above
    # 0.02 and Viterbi labels every block o.
    page = WCXB / "0180.html.gz"
    result = article.clean(read_input(str(page)), str(page))
    assert set(article.model.best_labels(result.scores)) == {"o"}
    assert result.fallback
    # At the shipped share, 0, every block is kept: all of the gold is there.
    assert gold_words("0180") <= output_words(result.texts, result.labels)
    record = json.loads(result.jsonl())
    assert record["fallback"] is True and record["text"]


def test_the_floor_keeps_the_blocks_near_the_highest_probability(article):
    page = WCXB / "0180.html.gz"
    result = article.clean(read_input(str(page)), str(page))
    # The floor weighs the CRF's own probabilities, before calibration.
    content = content_probabilities(result.marginals)
    for share in (FLOOR_SHARE, 0.3, 1.0):
        labels = floor(["o"] * len(content), result.marginals, share)
        bar = min(share * max(content), FLOOR_CAP)
        assert [lab != "o" for lab in labels] == [p >= bar for p in content]
        assert labels[content.index(max(content))] != "o"
        assert set(labels) <= set("phlc") | {"o"}
    # At a share of 0.3 it keeps three blocks, every word of them gold.
    labels = floor(["o"] * len(content), result.marginals, 0.3)
    assert sum(lab != "o" for lab in labels) == 3
    assert output_words(result.texts, labels) <= gold_words("0180")


def test_a_configs_floor_share_decides_what_a_floored_page_keeps(tmp_path):
    # The article config with `floor-share: 0.3` (the shipped one has
    # none, so 0): on WCXB 0180 the floor keeps the three blocks above.
    shipped = ROOT / "victor" / "configs" / "article.yaml"
    edited = tmp_path / "article.yaml"
    edited.write_text(shipped.read_text(encoding="utf-8") + "floor-share: 0.3\n",
                      encoding="utf-8")
    cleaner = Cleaner(str(edited), model=ROOT / "victor" / "models" / "article.crfsuite")
    assert cleaner.config.floor_share == 0.3
    page = WCXB / "0180.html.gz"
    result = cleaner.clean(read_input(str(page)), str(page))
    assert result.fallback
    assert sum(lab != "o" for lab in result.labels) == 3
    assert output_words(result.texts, result.labels) <= gold_words("0180")


@pytest.mark.parametrize("config", shipped_configs())
def test_a_page_whose_content_the_crf_keeps_is_left_alone(config):
    # CleanEval 36, news paragraphs: every config keeps some of them.
    cleaner = Cleaner(config)
    page = ROOT / "data" / "cleaneval" / "36.html"
    result = cleaner.clean(page.read_bytes(), str(page))
    assert not result.fallback
    # Every block the path keeps is kept as it labels it (victor.decoding).
    best = cleaner.model.best_labels(result.scores)
    assert all(lab == b for lab, b in zip(result.labels, best) if b != "o")
    assert json.loads(result.jsonl())["fallback"] is False


def test_a_page_without_blocks_stays_empty_and_is_no_fallback(article):
    # clean() refuses such a page (issue 29); a WARC record of it is labelled all the same.
    result = article.label(article.read(b"<html><body><script>var a = 1;</script></body></html>"))
    assert (result.labels, result.text(), result.fallback) == ([], "", False)
