"""A model carries the settings it was trained with, and refuses a config
whose settings have changed since: the same feature names would carry
other values than the model learnt."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from front_door_support import victor_main

from victor.cleaner import Cleaner
from victor.crf.model import differences
from victor.config import (CONFIG_DIR, DEFAULT_CONFIG, load_config, settings,
                           shipped_configs)
from victor.errors import VictorError
from victor.model import load as load_model

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "data" / "cleaneval" / "1.html"


def edited_config(tmp_path: Path, name: str = "cleaneval") -> Path:
    """A shipped config with one value list changed (in its own file, or
    over its base's); same name, so it names the shipped model and
    template."""
    text = (CONFIG_DIR / f"{name}.yaml").read_text(encoding="utf-8")
    if "split.p:" in text:
        edited = text.replace("split.p: [0, 1, 2, 3]", "split.p: [0, 1, 2, 4]")
    elif "\nvalues:\n" in text:  # the config's own lists, merged over its base's
        edited = text.replace("\nvalues:\n", "\nvalues:\n  split.p: [0, 1, 2, 4]\n", 1)
    else:
        edited = text + "values:\n  split.p: [0, 1, 2, 4]\n"
    assert edited != text
    path = tmp_path / f"{name}.yaml"
    path.write_text(edited, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", shipped_configs())
def test_the_shipped_models_record_their_settings(name):
    config = load_config(name)
    assert load_model(config.model).recipe["settings"] == settings(config)
    assert Cleaner(config).selected  # loads: the recorded settings are the config's


@pytest.mark.parametrize("name", shipped_configs())
def test_an_edited_value_list_is_named(tmp_path, name):
    assert DEFAULT_CONFIG in shipped_configs()  # the default is checked too
    with pytest.raises(VictorError, match=r"key 'values\.split\.p' is \[0, 1, 2, 4\] here but "
                                          r"\[0, 1, 2, 3\] in the model .*; cleaning follows "
                                          r"the model's record: .* or retrain: victor learn"):
        Cleaner(load_config(edited_config(tmp_path, name)))


def test_clean_py_refuses_it_in_one_line(tmp_path):
    proc = victor_main("--config", edited_config(tmp_path), PAGE, cwd=ROOT, command="clean")
    assert proc.returncode != 0 and not proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "values.split.p" in lines[0], proc.stderr


def test_differences_name_every_changed_setting():
    config = load_config("cleaneval")
    changed = replace(config, tag_delete=config.tag_delete - {"noscript"},
                      scales={**config.scales, "position": 5})
    assert differences(settings(config), settings(changed)) == ["scales.position", "tag-delete"]


def test_a_model_named_alone_brings_its_config():
    """The shipped cleaneval model, named without --config, is cleaned with
    the cleaneval config, not the default."""
    model = load_config("cleaneval").model
    assert Cleaner(model=model).config.name == "cleaneval"
    assert Cleaner().config.name == "general"
