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
