"""Training the second pass (victor/training/second_pass.py) on held-out
first passes, on real pages of data/.

`victor learn` takes them from its own site folds; here the shipped general
model's first pass of four pages stands in (content probabilities before
calibration, decoded labels, gold labels). The trees it gives are no good
(four pages, pages the CRF learnt): the tests say what the training does,
not how well."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from front_door_support import victor_main
from repo_data import DRAGNET, ROOT, WCXB
from victor.annotation import load_annotation, load_training_page
from victor.batch.inputs import read_input
from victor.cleaner import Cleaner
from victor.config import load_config
from victor.decoding.calibration import content_probabilities
from victor.errors import VictorError
from victor.features import select_features
from victor.second_pass.features import PAGE_FEATURES
from victor.training import second_pass


ANNOS = [DRAGNET / "R28.anno", DRAGNET / "488.anno", WCXB / "0001.anno", WCXB / "0021.anno"]


def first_pass(anno, cleaner: Cleaner) -> dict[str, list]:
    """What a fold gives the trees of a page: its first pass's content
    probabilities and labels, and its gold labels."""
    result = cleaner.label(cleaner.read(read_input(load_annotation(str(anno)).source)))
    return {"content": content_probabilities(result.marginals), "labels": result.labels,
            "truth": load_training_page(anno, cleaner.config)[1]}


@pytest.fixture(scope="module")
def pages():
    cleaner = Cleaner("general")
    selected = select_features(cleaner.config, ())
    return [second_pass.run_page(str(a), first_pass(a, cleaner), cleaner.config, selected)
            for a in ANNOS]


def learn(*args: str):
    """learn.py's function in this process (front_door_support.victor_main)."""
    return victor_main(*args, cwd=ROOT, command="learn")


def test_the_trees_read_every_first_pass_column_but_those_left_out(pages) -> None:
    settings = replace(load_config("general").second_pass, rounds=5)
    text, note = second_pass.trained_trees(pages, settings)
    assert note["pages"] == 4 and note["blocks"] == sum(len(pg.content) for pg in pages)
    assert note["features"][:len(PAGE_FEATURES)] == list(PAGE_FEATURES)
    assert "crf.class-words" not in note["features"]
    assert set(note["features"][len(PAGE_FEATURES):]) == {
        "crf." + n for pg in pages for n in pg.columns.names} - {"crf.class-words"}
    assert (text.count("\ntree\n") + text.startswith("tree\n")
            == settings.seeds + settings.page_type_seeds)


def test_a_first_pass_whose_blocks_differ_is_refused() -> None:
    """A first pass of another reading of the page (another config, another
    version) would teach the trees wrong blocks."""
    cleaner = Cleaner("general")
    saved = first_pass(ANNOS[0], cleaner)
    saved["truth"] = saved["truth"][1:]
    with pytest.raises(VictorError, match="do not line up with its first pass's"):
        second_pass.run_page(str(ANNOS[0]), saved, cleaner.config,
                             select_features(cleaner.config, ()))


def test_the_old_second_pass_option_says_what_replaced_it() -> None:
    proc = learn("--second-pass", "run.json", *map(str, ANNOS), "-o", "sp.lgbm")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "victor learn --config NAME -o FOLDER FILES.anno trains the CRF and its second pass" \
        in proc.stderr


def test_cross_fitting_scores_each_fold_with_trees_that_never_saw_it(pages) -> None:
    """learn --cross-validate and benchmarks.quality measure the second
    pass by cross_fitted: a page's probabilities come from trees of the
    other folds, so a page's own gold cannot move them, and another fold's
    gold does."""
    settings = replace(load_config("general").second_pass, rounds=10)
    fold = [0, 1, 0, 1]  # a Dragnet and a WCXB page each
    q = second_pass.cross_fitted(pages, fold, settings)
    assert [len(x) for x in q] == [len(pg.content) for pg in pages]
    assert all(((0 <= x) & (x <= 1)).all() for x in q)
    upside_down = [replace(pages[0], content=1 - pages[0].content), *pages[1:]]  # fold 0's gold
    flipped = second_pass.cross_fitted(upside_down, fold, settings)
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
    assert any(line.startswith("accuracy=") for line in proc.stdout.splitlines())
    assert [line.split()[1] for line in proc.stdout.splitlines()[1:3]] == ["2", "2"]


def test_learn_with_a_model_folder_reports_the_folds_it_is_made_from(tmp_path) -> None:
    """`learn --cross-validate K -o MODEL` trains the model on the K folds
    whose held-out figures it prints, one line for each collection's
    folder, instead of training the folds twice."""
    proc = learn("--config", "article", "--cross-validate", "2", "--max-iterations", "5",
                 "-o", str(tmp_path / "m"), *map(str, ANNOS))
    assert proc.returncode == 0, proc.stderr
    assert "article's second pass applied" in proc.stderr
    collections = [line for line in proc.stdout.splitlines() if "pages, word F1" in line]
    assert [line.split(":")[0] for line in collections] == [str(DRAGNET), str(WCXB)]
    assert [line.split()[1] for line in collections] == ["2", "2"]
    assert Cleaner.from_model(tmp_path / "m").trained.record["training"]["folds"] == 2
