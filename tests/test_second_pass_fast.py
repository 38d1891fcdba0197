"""The second pass's features (victor/second_pass/features.py) must give the
trees what the slow research code gave them (research/second_pass_features.py's
`page_features`, on which the trees were first fitted and scored), on real
pages of the repo's own data/: a page of each collection and of several WCXB
page types, with the general config's own probabilities and labels as the
first pass. The stage keeps the research's columns but its container ones
(tree.*, c1-c3.*, rep*), and groups blocks by the features stage's paths
(Columns.paths): fed those paths, the research's code gives the same
path.* columns.

The research's output is a fixture, tests/expected/second-pass-features.json.gz,
made once by `python -m research.second_pass_reference` with each page's
inputs stored beside it (paths, texts, probabilities, labels), so that the
comparison holds whatever model or reader later cleans the pages, and no
test imports research/."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from repo_data import DRAGNET
from victor.annotation import load_annotation
from victor.batch.inputs import read_input
from victor import second_pass
from victor.cleaner import Cleaner
from victor.decoding.calibration import content_probabilities
from victor.second_pass.features import (PAGE_FEATURES, _number, densest_run, fast_features,
                                       first_columns)

REFERENCE = json.loads(gzip.decompress(
    (Path(__file__).parent / "expected" / "second-pass-features.json.gz").read_bytes()))
PAGES = REFERENCE["pages"]
DATA = Path(__file__).resolve().parent.parent / "data"


def _matrix(rows: list) -> np.ndarray:
    return np.array([[np.nan if x is None else x for x in row] for row in rows], dtype=np.float32)


def _same(fast: np.ndarray, research: np.ndarray) -> None:
    assert fast.shape == research.shape
    np.testing.assert_array_equal(np.isnan(fast), np.isnan(research))
    np.testing.assert_allclose(fast, research, rtol=1e-6, atol=0)


@pytest.fixture(scope="module")
def cleaner() -> Cleaner:
    return Cleaner("general")


def test_the_reference_covers_the_columns_the_package_computes_in_researchs_order() -> None:
    """The runtime stage's columns are research's, in research's order, and
    the reference's matrices are of those columns."""
    assert REFERENCE["columns"] == list(PAGE_FEATURES)
    shared = [REFERENCE["research_features"].index(name) for name in PAGE_FEATURES]
    assert shared == sorted(shared)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p["page"])
def test_same_matrix_as_page_features(page) -> None:
    fast = fast_features(np.array(page["paths"]), page["texts"], np.array(page["p"]),
                         page["labels"])
    _same(fast, _matrix(page["matrix"]))


def test_same_matrix_with_noisy_probabilities() -> None:
    """Probabilities other than the model's own: ties, zeros and ones move
    the densest run and the ranks."""
    (page,) = [p for p in PAGES if "noisy" in p]
    assert len(page["noisy"]) == 5
    for draw in page["noisy"]:
        fast = fast_features(np.array(page["paths"]), page["texts"], np.array(draw["p"]),
                             page["labels"])
        _same(fast, _matrix(draw["matrix"]))


def test_the_paths_are_the_features_stages_and_made_alike_without_them(cleaner) -> None:
    """A config whose features never needed the paths still groups its
    blocks the same way."""
    result = cleaner.clean(read_input(load_annotation(str(DRAGNET / "100.anno")).source))
    assert result.columns.paths is not None and len(result.columns.paths) == len(result.texts)
    made = second_pass.page_paths(result.columns.__class__(
        result.columns.size, (), (), np.zeros((result.columns.size, 0), np.int64),
        np.zeros(0, object), (), {}), result.page.blocks)
    np.testing.assert_array_equal(made, result.columns.paths)


def test_densest_run_matches_the_loop() -> None:
    """The vectorised run picks the research loop's run, ties and empty
    pages too."""
    runs = REFERENCE["densest_runs"]
    assert {len(r["p"]) for r in runs} == {1, 2, 3, 10, 50}
    for r in runs:
        assert list(densest_run(np.array(r["p"]), np.array(r["w"]))) == r["run"]


@pytest.mark.parametrize("anno", [p["page"] for p in PAGES[::3]])
def test_first_columns_read_each_label_as_its_number(cleaner: Cleaner, anno) -> None:
    """The first pass's columns from result.columns equal each block's
    feature labels read one by one as numbers, as the research stored them
    (every column but class-words)."""
    result = cleaner.clean(read_input(load_annotation(str(DATA / anno)).source))
    rows = result.columns.dicts()
    names = sorted({k for r in rows for k in r if k != "class-words"})
    stored = np.array([[_number(r.get(k, "nan")) for k in names] for r in rows], dtype=np.float32)
    got = first_columns(result.columns, names + ["no-such-feature"])
    np.testing.assert_array_equal(got[:, :-1], stored)
    assert np.isnan(got[:, -1]).all()


@pytest.mark.parametrize("anno", [p["page"] for p in PAGES[::3]])
def test_the_stage_matrix_is_the_page_features_then_the_first_columns(cleaner: Cleaner,
                                                                      anno) -> None:
    """What victor/second_pass feeds the trees for a cleaned page is what the
    research fitted them on: the page features of the CRF's uncalibrated
    content probabilities and the decoded labels (held to research's above),
    then the first pass's columns."""
    result = cleaner.clean(read_input(load_annotation(str(DATA / anno)).source))
    labels = list(result.labels)
    p = np.array(content_probabilities(result.marginals), dtype=np.float64)
    rows = result.columns.dicts()
    names = sorted({k for r in rows for k in r if k != "class-words"})
    expected = np.hstack([fast_features(result.columns.paths, result.texts, p, labels),
                          first_columns(result.columns, names)])
    got = second_pass.matrix(result.columns, result.page.blocks, result.marginals, labels, names)
    assert got.shape == (len(result.page.blocks), len(PAGE_FEATURES) + len(names))
    _same(got, expected)
