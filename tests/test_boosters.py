"""The trees are read through LightGBM's C API (victor/boosters.py) so that
cleaning never imports the lightgbm package, which brings scikit-learn and
SciPy with it. The probabilities must be the package's own, to the bit, on
real pages of data/."""

from __future__ import annotations

import gzip
import pickle
import subprocess
import sys

import numpy as np
import pytest

from repo_data import ROOT, WCXB
from victor import page_type, second_pass
from victor.boosters import Booster
from victor.cleaner import Cleaner
from victor.errors import VictorError
from victor.model import part_bytes

PAGES = ["0001", "2898", "0652", "2863"]


@pytest.fixture(scope="module")
def cleaned():
    cleaner = Cleaner()
    return cleaner, [cleaner.clean(gzip.decompress((WCXB / f"{n}.html.gz").read_bytes()))
                     for n in PAGES]


def test_the_trees_give_the_lightgbm_packages_probabilities_to_the_bit(cleaned):
    lightgbm = pytest.importorskip("lightgbm")
    cleaner, results = cleaned
    ours = cleaner.second_pass.boosters
    # The package reads the model's own files.
    trees = part_bytes(cleaner.trained, "second-pass").decode("utf-8")
    theirs = [lightgbm.Booster(model_str=part) for part in second_pass.split_models(trees)]
    classifier = cleaner.trained.page_type.booster
    package_classifier = lightgbm.Booster(
        model_str=part_bytes(cleaner.trained, "page-type").decode("utf-8"))
    options = cleaner.second_pass.predict_options()
    for r in results:
        x = second_pass.matrix(r.columns, r.page.blocks, r.marginals, r.labels,
                               cleaner.second_pass.first)
        for a, b in zip(ours, theirs):
            assert np.array_equal(a.predict(x, **options), b.predict(x, **options))
        signals = page_type.row(page_type.signals(
            r.page, second_pass.page_paths(r.columns, r.page.blocks)))
        got = classifier.predict(signals, num_threads=1)
        assert got.shape == (1, len(page_type.TYPES))
        assert np.array_equal(got, package_classifier.predict(np.atleast_2d(signals),
                                                              num_threads=1))


def test_a_booster_pickles_for_another_process(cleaned):
    cleaner, results = cleaned
    booster = cleaner.trained.page_type.booster
    copy = pickle.loads(pickle.dumps(booster))
    rows = np.vstack([page_type.row(page_type.signals(
        r.page, second_pass.page_paths(r.columns, r.page.blocks))) for r in results])
    assert np.array_equal(copy.predict(rows, num_threads=1), booster.predict(rows, num_threads=1))
    assert copy.feature_name() == list(page_type.SIGNALS)


def test_cleaning_imports_neither_lightgbm_nor_scikit_learn():
    code = ("import gzip, sys\nfrom victor import extract\n"
            f"extract(gzip.open({str(WCXB / '0001.html.gz')!r}).read())\n"
            "print(sorted(m for m in ('lightgbm', 'sklearn', 'scipy') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_text_that_is_no_model_is_refused_in_one_line():
    with pytest.raises(ValueError):
        Booster("tree\nversion=v4\nnot a model\n")
    with pytest.raises(VictorError, match="not a LightGBM model"):
        page_type.load("no model at all", "M/page-type.lgbm")
