"""The fallback under decoding (victor.decoding.fallback): a page with text never
comes out empty. When the CRF labels no block as content, the blocks whose
content probability comes nearest the page's highest are kept, and the
JSON record says that the fallback was used."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from model_support import redecoded
from victor.model import save
from victor.training import dataset, pipeline
from victor.decoding.calibration import content_probabilities
from victor.cleaner import Cleaner, Result
from victor.config import load_config, shipped_configs
from victor.decoding import decode, fallback
from victor.batch.inputs import read_input

ROOT = Path(__file__).resolve().parents[1]
CLEANEVAL = ROOT / "data" / "cleaneval"
# A page of running text the dropping model below never saw.
PAGE = CLEANEVAL / "36.html"


@pytest.fixture(scope="module")
def article() -> Cleaner:
    return Cleaner("article")


@pytest.fixture(scope="module")
def dropping_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real model that drops everything: the cleaneval config trained on
    three CleanEval pages whose every block but the first is labelled o,
    as a model meets pages unlike any it learnt from."""
    config = load_config("cleaneval")
    examples = dataset.load_examples([str(CLEANEVAL / f"{n}.anno") for n in (12, 14, 31)], config)
    examples = [replace(e, labels=["p"] + ["o"] * (len(e.labels) - 1)) for e in examples]
    path = tmp_path_factory.mktemp("dropping") / "dropping"
    save(pipeline.train(examples, config, dict(config.crf), folds=0), path)
    return path


def clean(cleaner: Cleaner, page: Path = PAGE) -> Result:
    result = cleaner.clean(read_input(str(page)), str(page))
    assert set(cleaner.model.best_labels(result.scores)) == {"o"}, "the path keeps a block"
    return result


def test_a_page_the_model_finds_no_content_on_is_kept_and_marked(dropping_model):
    cleaner = Cleaner("cleaneval", dropping_model)
    result = clean(cleaner)
    assert result.fallback
    # At the cleaneval config's share, 0, every block is kept.
    assert cleaner.config.fallback_share == 0
    assert "o" not in result.labels and len(result.labels) == len(result.texts)
    record = json.loads(result.jsonl())
    assert record["fallback"] is True and record["text"]


def test_the_fallback_keeps_the_blocks_near_the_highest_probability():
    # Content probabilities (1 - P(o)) 0.01, 0.2, 0.3, 0.05: the path kept none.
    marginals = [{"o": 0.99, "p": 0.01}, {"o": 0.8, "p": 0.1, "h": 0.1},
                 {"o": 0.7, "l": 0.3}, {"o": 0.95, "p": 0.05}]
    content = content_probabilities(marginals)
    for share in (0.0, 0.3, 0.5, 1.0):
        labels = fallback(["o"] * len(content), marginals, share, 0.5)
        bar = min(share * max(content), 0.5)
        assert [lab != "o" for lab in labels] == [p >= bar for p in content], share
        assert labels[content.index(max(content))] == "l"  # its most probable content label
    assert fallback(["o", "p", "o", "o"], marginals, 0.0, 0.5) is None  # the path kept a block


def test_a_block_at_the_cap_is_kept_whatever_the_share():
    marginals = [{"o": 0.4, "p": 0.6}, {"o": 0.45, "p": 0.55}, {"o": 0.9, "p": 0.1}]
    assert fallback(["o"] * 3, marginals, 1.0, 0.5) == ["p", "p", "o"]


def test_a_configs_fallback_share_decides_what_a_page_that_falls_back_keeps(dropping_model, tmp_path):
    shipped = ROOT / "victor" / "configs" / "cleaneval.yaml"
    edited = tmp_path / "cleaneval.yaml"
    # Without line-share, whose paragraphs kept whole come after the fallback
    # (victor.decoding.decide), the fallback's own choice is what is kept.
    edited.write_text(shipped.read_text(encoding="utf-8") + "fallback-share: 0.3\nline-share: null\n",
                      encoding="utf-8")  # a model of it with the dropping model's CRF:
    cleaner = Cleaner(model=redecoded(edited, dropping_model))
    assert cleaner.config.fallback_share == 0.3
    result = clean(cleaner)
    assert result.fallback
    # The fallback weighs the CRF's own probabilities, before calibration.
    content = content_probabilities(result.marginals)
    bar = min(0.3 * max(content), cleaner.config.fallback_cap)
    assert [lab != "o" for lab in result.labels] == [p >= bar for p in content]
    assert 0 < sum(lab != "o" for lab in result.labels) < len(result.labels)


@pytest.mark.shipped_model
@pytest.mark.parametrize("config", shipped_configs())
def test_a_page_whose_content_the_crf_keeps_is_left_alone(config):
    # CleanEval 36, news paragraphs: every config keeps some of them.
    cleaner = Cleaner(config)
    page = ROOT / "data" / "cleaneval" / "36.html"
    result = cleaner.clean(page.read_bytes(), str(page))
    assert not result.fallback
    # Every block the path keeps is kept as it labels it (victor.decoding);
    # a second pass may still drop some after.
    best = cleaner.model.best_labels(result.scores)
    decoded, fallback = decode(best, result.marginals, cleaner.config.keep_above,
                               cleaner.config.fallback_share, cleaner.config.fallback_cap)
    assert not fallback
    assert all(lab == b for lab, b in zip(decoded, best) if b != "o")
    assert json.loads(result.jsonl())["fallback"] is False


def test_a_page_without_blocks_stays_empty_and_is_no_fallback(article):
    # clean() refuses such a page (issue 29); a WARC record of it is labelled all the same.
    result = article.label(article.read(b"<html><body><script>var a = 1;</script></body></html>"))
    assert (result.labels, result.text(), result.fallback) == ([], "", False)
