"""Each thing has one name: an old name of a key, a format or a flag is
an error in one line, and a model recorded with old key names says which
command re-saves it."""

from __future__ import annotations

import json
import shutil

import pytest

from front_door_support import victor_main
from repo_data import ROOT, WCXB
from victor import Cleaner
from victor.batch.inputs import read_input
from victor.errors import VictorError

PAGE = WCXB / "0001.html.gz"


def test_an_old_format_or_flag_name_is_refused_by_the_command() -> None:
    for args in (("--format", "victor"), ("--base-url", "https://example.com/")):
        proc = victor_main("clean", *args, PAGE, cwd=ROOT)
        assert proc.returncode == 2 and args[0] in proc.stderr, proc.stderr


def test_a_config_with_an_old_key_name_is_one_error(tmp_path) -> None:
    from victor.config import load_config

    (tmp_path / "old.yaml").write_text("base: general\nfloor-share: 0.1\n", encoding="utf-8")
    with pytest.raises(VictorError, match="'floor-share': unknown key"):
        load_config(tmp_path / "old.yaml")


def test_a_model_recorded_with_old_key_names_names_the_command_that_re_saves_it(tmp_path) -> None:

    folder = tmp_path / "old"
    shutil.copytree(ROOT / "victor" / "models" / "cleaneval", folder)
    record = json.loads((folder / "model.json").read_text(encoding="utf-8"))
    decoding = record["recipe"]["decoding"]
    decoding["floor-share"] = decoding.pop("fallback-share")
    (folder / "model.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(VictorError) as refused:
        Cleaner(model=folder)
    said = str(refused.value)
    assert "\n" not in said and "floor-share" in said and "--from-model" in said
    new = tmp_path / "new"
    proc = victor_main("learn", "--config", "cleaneval", "--from-model", folder, "-o", new,
                       cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    page = read_input(str(PAGE))
    assert Cleaner(model=new).clean(page).text() == Cleaner("cleaneval").clean(page).text()
