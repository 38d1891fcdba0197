"""`--favor precision|recall` (issue 31): precision keeps only what the
model is sure enough of, recall also keeps what it finds fairly likely. A
config with a second pass that names `favor` bars moves the trees' bars;
one without (cleaneval) moves the calibrated content probability a user
reads in the jsonl record."""

from __future__ import annotations


import pytest
from front_door_support import victor_main
from model_support import redecoded, shipped_cleaner
from repo_data import ROOT

from victor import decoding
from victor.cleaner import Cleaner
from victor.errors import VictorError
from victor.batch.inputs import read_input
from victor.labels import OTHER

PAGE = ROOT / "data" / "wcxb" / "0010.html.gz"


def kept(result) -> set[int]:
    return {i for i, lab in enumerate(result.labels) if lab != OTHER}


def test_precision_keeps_less_and_recall_more_on_a_real_page():
    page = read_input(str(PAGE))
    plain = shipped_cleaner().clean(page)
    precise = Cleaner(favor="precision").clean(page)
    loose = Cleaner(favor="recall").clean(page)
    assert kept(precise) < kept(plain) < kept(loose)


def test_the_default_moves_the_trees_bars(tmp_path):
    # The general config with its --favor bars taken out: favor then moves
    # the calibrated probability after the trees, and keeps other blocks.
    page = read_input(str(PAGE))
    mine = tmp_path / "mine.yaml"
    mine.write_text("base: general\ntemplate: general\nsecond-pass: {favor: {}}\n")
    on_trees = Cleaner(favor="precision").clean(page)
    after_trees = Cleaner(model=redecoded(mine), favor="precision").clean(page)
    assert kept(on_trees) != kept(after_trees)


def test_without_a_second_pass_the_bars_are_on_the_calibrated_probability():
    page = read_input(str(PAGE))
    plain = shipped_cleaner("cleaneval").clean(page)
    precise = Cleaner("cleaneval", favor="precision").clean(page)
    loose = Cleaner("cleaneval", favor="recall").clean(page)
    assert kept(precise) <= kept(plain) <= kept(loose)
    bar = shipped_cleaner("cleaneval").config.favor  # no second pass: its bars are these
    # Code blocks and data tables are decided whole afterwards, and so are
    # paragraphs (line-share): a kept block outside a unit reaches the bar,
    # or shares its paragraph with a kept block that does.
    units = {i for u in decoding.layout(plain.page.blocks).units for i in u}
    boxes = decoding.layout(precise.page.blocks).boxes  # the same page's boxes
    sure = {boxes[i] for i in kept(precise) if precise.content[i] >= bar["precision"]}
    assert all(precise.content[i] >= bar["precision"] or (boxes[i] != -1 and boxes[i] in sure)
               for i in kept(precise) - units)
    assert any(precise.content[i] < bar["precision"] for i in kept(plain))
    # ... and a block at the recall bar is kept, or its paragraph, mostly
    # under the bar, was dropped whole.
    boxes = decoding.layout(loose.page.blocks).boxes
    held = {boxes[i] for i in kept(loose)}
    assert all(i in kept(loose) or (boxes[i] != -1 and boxes[i] not in held)
               for i, p in enumerate(loose.content) if p >= bar["recall"] and i not in units)


def test_an_unknown_favor_is_a_one_line_error():
    with pytest.raises(VictorError, match="favor 'speed': choose one of precision, recall"):
        Cleaner(favor="speed")


def test_the_command_takes_favor():
    out = victor_main("--format", "text", "--favor", "precision", PAGE, cwd=ROOT, command="clean")
    assert out.returncode == 0, out.stderr
    default = victor_main("--format", "text", PAGE, cwd=ROOT, command="clean")
    assert len(out.stdout.split()) < len(default.stdout.split())
