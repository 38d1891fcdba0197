"""`victor learn --config general -o MODEL FILES` trains the whole default
pipeline from annotated pages, in one command from an install: the CRF,
its calibration and the second pass's trees, both from the same site
folds' held-out first pass; `victor clean --model MODEL` then cleans with
all of it. On five real pages of data/ from four web sites, with few
iterations: the tests say what is made, not how well it cleans."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from front_door_support import victor_main
from repo_data import CLEANEVAL, DRAGNET, ROOT, WCXB
from victor.config import load_config, recipe
from victor.model import load

PAGES = [DRAGNET / "R28.anno", WCXB / "0001.anno", WCXB / "0021.anno", CLEANEVAL / "12.anno",
         CLEANEVAL / "5.anno"]


def victor(*args, cwd: Path) -> subprocess.CompletedProcess:
    """The command's function in this process (front_door_support.victor_main)."""
    return victor_main(*args, cwd=cwd)


@pytest.fixture(scope="module")
def learnt(tmp_path_factory):
    folder = tmp_path_factory.mktemp("learn")
    proc = victor("learn", "--config", "general", "-o", folder / "M", "--max-iterations", "20",
                  "--calibrate", "3", *PAGES, cwd=folder)
    return folder / "M", proc


def test_one_command_writes_a_model_of_every_part(learnt):
    model, proc = learnt
    assert proc.returncode == 0, proc.stderr
    # The WCXB pages' records give their types: the page-type classifier too.
    assert sorted(p.name for p in model.iterdir()) == ["crf.crfsuite", "model.json",
                                                       "page-type.lgbm", "second-pass.lgbm"]
    assert not [p for p in model.parent.iterdir() if p.name.startswith(".")]  # nothing half-made
    trained = load(model)
    record = trained.record
    # The calibration and the trees come from the same 3 site folds.
    assert record["training"]["folds"] == record["crf"]["calibration"]["folds"] == 3
    assert record["crf"]["calibration"]["blocks"] == record["second-pass"]["blocks"]
    assert record["second-pass"]["pages"] == len(PAGES) == len(record["training"]["pages"])
    # The recipe is the general config's, with the command line's iterations.
    general = recipe(load_config("general"))
    assert record["recipe"] == {**general, "crf": {**general["crf"], "max-iterations": 20}}
    assert record["crf"]["iterations"] <= 20
    assert trained.trees is not None and len(trained.trees.boosters) == 2
    # Progress as it went, and the time it all took.
    lines = proc.stderr.splitlines()
    assert [line for line in lines if "fold " in line and "held-out pages" in line][-1].startswith(
        "[0:") and any("calibration: temperature" in line for line in lines)
    assert lines[-1].startswith(f"wrote {model}: 5 pages") and " in all" in lines[-1]


def test_the_model_cleans_alone_and_with_its_config(learnt, tmp_path):
    model, proc = learnt
    assert proc.returncode == 0, proc.stderr
    page = ROOT / "data/dragnet/488.html"
    alone = victor("clean", "--model", model, "--format", "jsonl", page, cwd=tmp_path)
    named = victor("clean", "--config", "general", "--model", model, "--format", "jsonl", page,
                   cwd=tmp_path)
    assert alone.returncode == named.returncode == 0, alone.stderr + named.stderr
    assert alone.stdout == named.stdout
    assert json.loads(alone.stdout)["text"]


def test_a_second_pass_without_folds_is_refused_in_one_line(tmp_path):
    proc = victor("learn", "--config", "general", "-o", tmp_path / "M", "--calibrate", "0",
                  *PAGES, cwd=tmp_path)
    assert proc.returncode == 2 and not (tmp_path / "M").exists()
    assert proc.stderr.count("\n") == 1
    assert "its second pass learns from held-out first passes: give --calibrate K" in proc.stderr
