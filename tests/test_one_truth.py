"""A config names each feature once and may extend another; a template may
include another and names only what its config selects; a trained model
carries what cleaning with it needs."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from victor.cleaner import Cleaner
from victor.config import CONFIG_DIR, TEMPLATE_DIR, load_config, settings
from victor.crf import load_template
from victor.errors import VictorError
from victor.features import select_features
from victor.training import dataset, fitting

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "data" / "cleaneval" / "1.html").read_bytes()


def test_the_default_config_is_cleaneval_with_its_own_differences():
    general, cleaneval = load_config("general"), load_config("cleaneval")
    assert yaml.safe_load((CONFIG_DIR / "general.yaml").read_text())["base"] == "cleaneval"
    # Mappings merge: the base's value lists and scales, and the general config's own.
    assert {k: v for k, v in general.values.items() if k in cleaneval.values} == cleaneval.values
    assert "kind.blocks" in general.values and "kind.blocks" not in cleaneval.values
    assert general.scales["title.in-title"] == 5 and "title.in-title" not in cleaneval.scales
    assert general.scales["position"] == cleaneval.scales["position"]
    # Other keys replace: its own template, model, features and regularisation.
    assert general.template.name == "general.tpl" and general.model.name == "general.crfsuite"
    assert "noscript" in cleaneval.tag_delete and "noscript" not in general.tag_delete
    assert general.crf["c2"] == 1 and cleaneval.crf["c2"] == 30


def test_a_config_that_extends_itself_is_one_error(tmp_path):
    (tmp_path / "a.yaml").write_text("base: ./b.yaml\n")
    (tmp_path / "b.yaml").write_text("base: ./a.yaml\n")
    with pytest.raises(VictorError, match="extends itself"):
        load_config(tmp_path / "a.yaml")


def test_an_included_template_reads_as_its_lines(tmp_path):
    general = load_template(TEMPLATE_DIR / "general.tpl")
    cleaneval = load_template(TEMPLATE_DIR / "cleaneval.tpl")
    assert "@include" not in general.text  # a model records the text whole
    assert general.lines[:len(cleaneval.lines)] == cleaneval.lines
    assert {ref.pattern for line in general.lines[len(cleaneval.lines):] for ref in line} == {
        "kind.*", "semantic.*", "candidate.*", "structured.*", "title.*"}
    (tmp_path / "loop.tpl").write_text("@include loop\n")
    with pytest.raises(VictorError, match="includes itself"):
        load_template(tmp_path / "loop.tpl")


def test_a_template_line_for_a_feature_the_config_leaves_out_stops_training(tmp_path):
    template = tmp_path / "mine.tpl"
    template.write_text((TEMPLATE_DIR / "cleaneval.tpl").read_text() + "semantic.* [0]\n")
    config = tmp_path / "mine.yaml"
    config.write_text(yaml.safe_dump({"base": "cleaneval", "template": "./mine.tpl"}))
    examples = dataset.load_examples([str(ROOT / "data" / "cleaneval" / "12.anno")],
                                     load_config(config))
    with pytest.raises(VictorError, match=r"semantic\.\* is not among the features mine\.yaml "
                                          r"selects"):
        fitting.fit(examples, load_config(config), {"max-iterations": 1})


def test_a_model_alone_cleans_as_its_config_did(tmp_path):
    """The shipped default model, copied where no config is beside it, cleans
    a page to the same text as the default config does: its settings and
    decoding travel in its metadata."""
    shipped = load_config("general").model
    for suffix in ("", ".json"):
        (tmp_path / f"mine.crfsuite{suffix}").write_bytes(Path(f"{shipped}{suffix}").read_bytes())
    alone = Cleaner.from_model(tmp_path / "mine.crfsuite")
    assert alone.config.keep_above == 0.3 and alone.config.unit_share == 0.1
    assert settings(alone.config) == settings(load_config("general"))
    assert alone.selected == select_features(load_config("general"))
    assert alone.clean(PAGE).text() == Cleaner("general").clean(PAGE).text()
