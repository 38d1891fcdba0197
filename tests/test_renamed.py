"""Names that said the wrong thing were changed (issue 45); what a user
typed before still works, with a note naming the new name."""

from __future__ import annotations

import pytest

from front_door_support import victor_command
from repo_data import ROOT, WCXB
from victor import Cleaner
from victor.batch.inputs import read_input

PAGE = WCXB / "0001.html.gz"


def test_format_victor_is_format_blocks_with_a_note() -> None:
    new = victor_command("clean", "--format", "blocks", PAGE, cwd=ROOT)
    old = victor_command("clean", "--format", "victor", PAGE, cwd=ROOT)
    assert new.returncode == old.returncode == 0, old.stderr
    assert old.stdout == new.stdout
    assert new.stdout.splitlines()[0] == "o\tSkip to content"  # a label, a tab, the block
    assert "--format victor is now --format blocks" in old.stderr
    assert "--format" not in new.stderr


def test_the_api_takes_the_old_format_name_with_a_deprecation_warning() -> None:
    result = Cleaner().clean(read_input(str(PAGE)))
    with pytest.warns(DeprecationWarning, match="--format blocks"):
        old = result.render("victor")
    assert old == result.render("blocks") == result.blocks()


def test_a_config_with_the_old_key_names_reads_as_the_new_with_a_note(tmp_path) -> None:
    """unit-share and list-share were bars on a probability, not shares;
    floor-share and page-floor were unrelated floors."""
    from victor.config import load_config

    shipped = (ROOT / "victor" / "configs" / "general.yaml").read_text(encoding="utf-8")
    old = (shipped.replace("unit-bar:", "unit-share:").replace("list-bar:", "list-share:")
           .replace("empty-page-share:", "floor-share:")
           .replace("\n  lowest-page-bar:", "\n  page-floor:"))  # not inside article-bars
    assert old != shipped
    (tmp_path / "old.yaml").write_text(old.replace("template: general", f"template: "
                                                   f"{ROOT / 'victor' / 'templates' / 'general.tpl'}"),
                                       encoding="utf-8")
    with pytest.warns(FutureWarning) as notes:
        config = load_config(tmp_path / "old.yaml")
    said = " ".join(str(n.message) for n in notes)
    for name in ("'unit-share' is now 'unit-bar'", "'floor-share' is now 'empty-page-share'",
                 "'second-pass.page-floor' is now 'second-pass.lowest-page-bar'"):
        assert name in said
    general = load_config("general")
    assert (config.unit_bar, config.list_bar, config.empty_page_share) == \
        (general.unit_bar, general.list_bar, general.empty_page_share)
    assert config.second_pass.lowest_page_bar == general.second_pass.lowest_page_bar


def test_a_model_recorded_with_the_old_key_names_cleans_as_before(tmp_path) -> None:
    """A model a user trained before the rename keeps working, with its
    config or alone."""
    import json
    import shutil

    folder = tmp_path / "cleaneval"
    shutil.copytree(ROOT / "victor" / "models" / "cleaneval", folder)
    record = json.loads((folder / "model.json").read_text(encoding="utf-8"))
    decoding = record["recipe"]["decoding"]
    decoding["floor-share"] = decoding.pop("empty-page-share")
    (folder / "model.json").write_text(json.dumps(record), encoding="utf-8")
    page = read_input(str(PAGE))
    expected = Cleaner("cleaneval").clean(page).text()
    assert Cleaner(model=folder).clean(page).text() == expected
    assert Cleaner("cleaneval", model=folder).clean(page).text() == expected
