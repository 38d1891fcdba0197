"""Victor must not clean worse: per shipped config, word F1 on pages of
data/ the scored model never saw stays at or above its recorded floor
(tests/quality_gate.py says which models and pages, and how a floor may
move). Where this fails, the message names the config, the figure, the
floor and the weakest pages."""

from __future__ import annotations

import pytest
from quality_gate import (DATA, cleaned, gate_model, measure, page_file, pages_digest, read_gate,
                          word_f1)

from victor.annotation import load_annotation, read_page_file
from victor.config import load_config
from victor.training.folds import host, page_group

# Every test here reads one shipped model's exact output (pytest -m shipped_model).
pytestmark = pytest.mark.shipped_model

GATE = read_gate()


@pytest.fixture(scope="module")
def gate_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list]:
    """Each config's gate pages, cleaned by a model trained for the gate."""
    folder = tmp_path_factory.mktemp("gate-models")
    return {config: cleaned(gate_model(config, GATE, folder), entry["pages"])
            for config, entry in GATE["configs"].items()}


def site(name: str) -> str:
    """The web site a page of data/ is from, as the site folds group it: the
    host of its annotation's address, else of the page's own (read only
    then)."""
    anno = DATA / f"{name}.anno"
    url = load_annotation(str(anno)).url
    if host(url):
        return page_group(anno, url).site
    page = read_page_file(page_file(name), load_config("cleaneval"))
    return page_group(anno, url or page.url, page.meta.url).site


def test_the_page_lists_are_those_the_floors_were_set_on():
    assert pages_digest(GATE) == GATE["pages_sha256"], (
        "the gate's page lists changed: that needs python3 tests/quality_gate.py --lower "
        "and a commit that says why")


@pytest.mark.parametrize("config", sorted(GATE["configs"]))
def test_a_model_trained_for_the_gate_never_saw_a_gate_page_or_its_web_site(config):
    entry = GATE["configs"][config]
    assert not set(entry["train"]) & set(entry["pages"])
    held_out = {site(n) for n in entry["pages"]}
    assert not {site(n) for n in entry["train"]} & held_out


@pytest.mark.parametrize("config", sorted(GATE["configs"]))
def test_every_config_cleans_unseen_pages_at_least_as_well_as_its_floor(config, gate_pages):
    result = measure(config, gate_pages[config], GATE)
    assert result.passed, result.line()


@pytest.mark.parametrize("config", sorted(GATE["configs"]))
def test_a_cleaner_that_keeps_every_block_is_below_every_floor(config, gate_pages):
    f1, _ = word_f1(gate_pages[config], keep_all=True)
    assert f1 < GATE["configs"][config]["floor"]
