"""A config names each feature once and may extend another; a template may
include another and names only what its config selects; a trained model
is one folder that carries what cleaning with it needs, and its record is
the one truth of how it cleans: a config that says otherwise is refused,
and a model with other decoding keys is another model."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from front_door_support import victor_main
from model_support import model_copy
from victor.cleaner import Cleaner
from victor.config import CONFIG_DIR, TEMPLATE_DIR, load_config, recipe, settings, shipped_configs
from victor.model import load as load_model
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
    assert general.template.name == "general.tpl" and general.model.name == "general"
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
    """The shipped default model's record, copied where no config is beside
    it, cleans a page to the same text as the default config does: its
    settings and decoding travel in its record."""
    alone = Cleaner.from_model(model_copy(tmp_path / "mine"))
    assert alone.config.keep_above == 0.3 and alone.config.unit_bar == 0.1
    assert settings(alone.config) == settings(load_config("general"))
    assert alone.selected == select_features(load_config("general"))
    assert alone.clean(PAGE).text() == Cleaner("general").clean(PAGE).text()


@pytest.mark.parametrize("name", shipped_configs())
def test_every_shipped_model_is_made_by_its_recipe(name):
    """The record of each shipped model holds its config's every key,
    training's too (the CRF's parameters, how the trees are trained), and
    every file it names has the size and hash it records (`load` checks)."""
    config = load_config(name)
    model = load_model(config.model)
    assert model.recipe == recipe(config)
    assert model.record["config"] == name
    assert (model.trees is None) == (config.second_pass is None)


@pytest.mark.parametrize("part", ["settings", "template", "decoding", "crf"])
def test_a_record_without_a_part_of_its_recipe_is_refused(tmp_path, part):
    folder = model_copy(tmp_path / "m")
    record = json.loads((folder / "model.json").read_text(encoding="utf-8"))
    del record["recipe"][part]
    (folder / "model.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(VictorError, match=f"^{folder / 'model.json'}: ") as e:
        load_model(folder)
    assert "\n" not in str(e.value)


def edited_general(folder: Path, old: str, new: str) -> Path:
    """A copy of general.yaml of the same name (so it names the shipped
    general model), one line changed."""
    text = (CONFIG_DIR / "general.yaml").read_text(encoding="utf-8")
    assert old in text
    folder.mkdir(exist_ok=True)
    path = folder / "general.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def victor(*args, cwd: Path) -> subprocess.CompletedProcess:
    """The command's function in this process (front_door_support.victor_main)."""
    return victor_main(*args, cwd=cwd)


def test_a_copy_of_the_default_config_with_keep_above_changed_is_refused_in_one_line(tmp_path):
    """keep-above decides which labels the trees read: a model with another
    takes training, and cleaning with the shipped model under it would not
    apply it. So it is refused, by --config alone and with --model, saying
    the key, both values and how to go on."""
    shipped = load_config("general").keep_above
    copy = edited_general(tmp_path / "c", f"\nkeep-above: {shipped}\n", "\nkeep-above: 0.6\n")
    for extra in ((), ("--model", load_config("general").model)):
        proc = victor("clean", "--config", copy, *extra, ROOT / "data/cleaneval/1.html",
                      cwd=tmp_path)
        assert proc.returncode == 2 and not proc.stdout
        assert proc.stderr.count("\n") == 1, proc.stderr
        assert proc.stderr.startswith(f"error: {copy}: key 'keep-above' is 0.6 here but "
                                      f"{shipped} in the model ")
        assert f"victor learn --config {copy} -o NEW_FOLDER FILES.anno" in proc.stderr
    with pytest.raises(VictorError, match=f"key 'keep-above' is 0.6 here but {shipped}"):
        Cleaner(copy)


def test_a_changed_bar_is_a_new_model_that_cleans_as_the_config_says(tmp_path):
    """A bar of the second pass needs no training: refused against the
    shipped model, it makes a model of its own (learn --from-model), and
    that model cleans alone exactly as the config does with it, and
    otherwise than the shipped one."""
    bars = load_config("general").second_pass
    copy = edited_general(tmp_path / "c", f"  keep: {bars.keep}\n  add: {bars.add}\n"
                          f"  lowest-page-bar: {bars.lowest_page_bar}\n",
                          f"  keep: 0.6\n  add: {bars.add}\n  lowest-page-bar: null\n")
    # Pages where a bar of 0.6 drops something (which ones depends on the
    # trained model: a retrained one may keep a page alike).
    pages = [ROOT / f"data/cleaneval/{n}.html" for n in (36, 5, 8, 15)]
    page = pages[0]
    refused = victor("clean", "--config", copy, page, cwd=tmp_path)
    assert refused.returncode == 2 and f"key 'second-pass.keep' is 0.6 here but {bars.keep}" in refused.stderr
    assert f"--from-model {load_config('general').model} -o NEW_FOLDER" in refused.stderr
    made = victor("learn", "--config", copy, "--from-model", "general", "-o", tmp_path / "m",
                  cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    alone = victor("clean", "--model", tmp_path / "m", *pages, cwd=tmp_path)
    named = victor("clean", "--config", copy, "--model", tmp_path / "m", *pages, cwd=tmp_path)
    shipped = victor("clean", *pages, cwd=tmp_path)
    assert alone.returncode == named.returncode == shipped.returncode == 0
    assert alone.stdout == named.stdout != shipped.stdout
    # Its record is the shipped model's but for the decoding, and it holds
    # its own files (a user's model outlives an upgrade of Victor).
    record = load_model(tmp_path / "m").record
    assert record["recipe"] == recipe(load_config(copy))
    assert {e["path"] for e in record["files"].values()} == {"crf.crfsuite", "second-pass.lgbm",
                                                             "page-type.lgbm"}
