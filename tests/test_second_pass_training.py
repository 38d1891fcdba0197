"""Training the second pass (victor/training/second_pass.py, `learn
--second-pass`) from a saved benchmark run, on real pages of data/.

A real run takes an hour of cross-validation; here the run file holds the
shipped general model's own first pass of four pages, in the format
`benchmarks.quality --save-run` writes (content probabilities before
calibration, decoded labels, gold labels, keyed by the annotation's path in
another clone). The trees it gives are no good (four pages, pages the CRF
learnt): the tests say what the training does, not how well."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from repo_data import DRAGNET, ROOT, WCXB
from victor.annotation import load_annotation, load_training_page
from victor.batch.inputs import read_input
from victor.cleaner import Cleaner
from victor.config import load_config
from victor.decoding.calibration import content_probabilities
from victor.errors import VictorError
from victor.features import select_features
from victor.rescoring.features import PAGE_FEATURES
from victor.training import second_pass


ANNOS = [DRAGNET / "R28.anno", DRAGNET / "488.anno", WCXB / "0001.anno", WCXB / "0021.anno"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A run file of the general config's first pass of ANNOS, as if saved
    in a clone at /elsewhere."""
    cleaner = Cleaner("general")
    saved = {"content": {}, "labels": {}, "truth": {}}
    for anno in ANNOS:
        result = cleaner.label(cleaner.read(read_input(load_annotation(str(anno)).source)))
        name = f"/elsewhere/data/{anno.parent.name}/{anno.name}"
        saved["content"][name] = content_probabilities(result.marginals)
        saved["labels"][name] = result.labels
        saved["truth"][name] = load_training_page(anno, cleaner.config)[1]
    path = tmp_path_factory.mktemp("run") / "run.json"
    path.write_text(json.dumps({"general": saved}), encoding="utf-8")
    return path


def learn(*args: str):
    return subprocess.run([sys.executable, "learn.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_learn_trains_a_model_the_cleaner_reads(run, tmp_path) -> None:
    model = tmp_path / "sp.lgbm"
    proc = learn("--second-pass", str(run), *map(str, ANNOS), "-o", str(model))
    assert proc.returncode == 0, proc.stderr
    note = json.loads((tmp_path / "sp.lgbm.json").read_text(encoding="utf-8"))
    blocks = sum(len(load_training_page(a, load_config("general"))[1]) for a in ANNOS)
    assert (note["pages"], note["blocks"], note["rounds"]) == (4, blocks, 100)
    assert note["features"][:len(PAGE_FEATURES)] == list(PAGE_FEATURES)
    config = tmp_path / "mine.yaml"
    config.write_text("base: general\ntemplate: general\nmodel: general\nsecond-pass:\n"
                      f"  model: {model}\n  keep: 0.35\n  add: 0.3\n  early-stop: 4\n",
                      encoding="utf-8")
    cleaner = Cleaner(config)
    assert ["crf." + n for n in cleaner.second_pass.first] == note["features"][len(PAGE_FEATURES):]
    result = cleaner.clean((DRAGNET / "R28.html").read_bytes())
    assert any(label != "o" for label in result.labels)


def test_a_page_the_run_does_not_hold_is_named(run, tmp_path) -> None:
    proc = learn("--second-pass", str(run), str(ANNOS[0]), str(DRAGNET / "100.anno"),
                 "-o", str(tmp_path / "sp.lgbm"))
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"error: {DRAGNET / '100.anno'}: not in the run {run} "
                                   "(1 of 2 pages are not)")


def test_a_run_whose_blocks_differ_is_refused(run, tmp_path) -> None:
    """A run of another reading of the pages (another config, another
    version) would teach the trees wrong blocks."""
    from victor.training.second_pass import train_second_pass

    saved = json.loads(run.read_text(encoding="utf-8"))
    name = next(iter(saved["general"]["truth"]))
    saved["general"]["truth"][name] = saved["general"]["truth"][name][1:]
    other = tmp_path / "other.json"
    other.write_text(json.dumps(saved), encoding="utf-8")
    with pytest.raises(VictorError, match="do not line up with the run's"):
        train_second_pass([str(ANNOS[0])], other, load_config("general"), tmp_path / "m.lgbm")
    assert not (tmp_path / "m.lgbm").exists()


def test_cross_fitting_scores_each_fold_with_trees_that_never_saw_it(run) -> None:
    """benchmarks.quality measures the article config by cross_fitted: a
    page's probabilities come from trees of the other folds, so a page's own
    gold cannot move them, and another fold's gold does."""
    config = load_config("general")
    saved = second_pass.read_run(run, "general")
    selected = select_features(config, ())
    pages = [second_pass.run_page(str(a), saved[f"{a.parent.name}/{a.name}"], config, selected)
             for a in ANNOS]
    fold = [0, 1, 0, 1]  # a Dragnet and a WCXB page each
    q = second_pass.cross_fitted(pages, fold, 4.0, rounds=10)
    assert [len(x) for x in q] == [len(pg.content) for pg in pages]
    assert all(((0 <= x) & (x <= 1)).all() for x in q)
    pages[0].content = 1 - pages[0].content  # fold 0's gold, upside down
    flipped = second_pass.cross_fitted(pages, fold, 4.0, rounds=10)
    assert np.array_equal(flipped[0], q[0]) and np.array_equal(flipped[2], q[2])
    assert not np.array_equal(flipped[1], q[1])


def test_learn_cross_validates_a_config_with_its_second_pass() -> None:
    """`learn --cross-validate` with the article config scores the second
    pass too, its trees cross-fitted on the same folds: the figures of the
    config a user cleans with, not of its first pass alone."""
    proc = learn("--config", "article", "--cross-validate", "2", "--max-iterations", "5",
                 *map(str, ANNOS))
    assert proc.returncode == 0, proc.stderr
    assert "article's second pass applied, its trees cross-fitted on the same folds" in proc.stderr
    assert proc.stdout.splitlines()[-2].startswith("accuracy=")
    assert [line.split()[1] for line in proc.stdout.splitlines()[1:3]] == ["2", "2"]
