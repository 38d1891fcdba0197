"""The second pass's features (victor/rescoring/features.py) must give the
trees what the slow research code gives them (research/second_pass_features.py's
`page_features`, on which the trees were first fitted and scored), on real
pages of the repo's own data/: a page of each collection and of several WCXB
page types, with the general config's own probabilities and labels as the
first pass. The stage keeps the research's columns but its container ones
(tree.*, c1-c3.*, rep*), and groups blocks by the features stage's paths
(Columns.paths): fed those paths, the research's code gives the same
path.* columns."""

from __future__ import annotations

import numpy as np
import pytest

from repo_data import CLEANEVAL, DRAGNET, WCXB
from research.second_pass_features import PAGE_FEATURES as SLOW_FEATURES
from research.second_pass_features import densest_run as slow_run, page_features
from research.second_pass_pages import _number, tree_info
from victor.annotation import load_annotation
from victor.batch.inputs import read_input
from victor import rescoring
from victor.cleaner import Cleaner
from victor.decoding.calibration import content_probabilities
from victor.rescoring.features import PAGE_FEATURES, densest_run, fast_features, first_columns

# WCXB: the first page of each page type (article, service, listing,
# product, documentation, forum, collection).
PAGES = [CLEANEVAL / "1.anno", CLEANEVAL / "23.anno", DRAGNET / "100.anno"] + [
    WCXB / f"{n}.anno" for n in ("0001", "0021", "0076", "0185", "0239", "0360", "0597")]


@pytest.fixture(scope="module")
def cleaner() -> Cleaner:
    return Cleaner("general")


def _first_pass(cleaner: Cleaner, anno):
    result = cleaner.clean(read_input(load_annotation(str(anno)).source))
    return result, np.array(result.content, dtype=np.float64), list(result.labels)


SHARED = [SLOW_FEATURES.index(name) for name in PAGE_FEATURES]


def _slow(result, p, labels) -> np.ndarray:
    """The research's matrix, its blocks grouped by the stage's paths, on
    the stage's columns."""
    blocks = result.page.blocks
    page = {"texts": [b.text for b in blocks], **tree_info(blocks)}
    page["paths"] = result.columns.paths.tolist()
    return page_features(page, p, labels)[:, SHARED]


@pytest.mark.parametrize("anno", PAGES, ids=lambda p: p.stem)
def test_same_matrix_as_page_features(cleaner: Cleaner, anno) -> None:
    result, p, labels = _first_pass(cleaner, anno)
    slow = _slow(result, p, labels)
    fast = fast_features(result.columns.paths, result.texts, p, labels)
    assert fast.shape == slow.shape
    np.testing.assert_array_equal(np.isnan(fast), np.isnan(slow))
    np.testing.assert_allclose(fast, slow, rtol=1e-6, atol=0)


def test_same_matrix_with_noisy_probabilities(cleaner: Cleaner) -> None:
    """Probabilities other than the model's own: ties, zeros and ones move
    the densest run and the ranks."""
    result, p, labels = _first_pass(cleaner, WCXB / "0001.anno")
    rng = np.random.default_rng(0)
    for _ in range(5):
        q = rng.choice([0.0, 0.2, 0.5, 0.7, 1.0], size=len(p)) if _ % 2 else rng.random(len(p))
        slow = _slow(result, q, labels)
        fast = fast_features(result.columns.paths, result.texts, q, labels)
        np.testing.assert_array_equal(np.isnan(fast), np.isnan(slow))
        np.testing.assert_allclose(fast, slow, rtol=1e-6, atol=0)


def test_the_paths_are_the_features_stages_and_made_alike_without_them(cleaner) -> None:
    """A config whose features never needed the paths still groups its
    blocks the same way."""
    result, _, _ = _first_pass(cleaner, DRAGNET / "100.anno")
    assert result.columns.paths is not None and len(result.columns.paths) == len(result.texts)
    made = rescoring.page_paths(result.columns.__class__(
        result.columns.size, (), (), np.zeros((result.columns.size, 0), np.int64),
        np.zeros(0, object), (), {}), result.page.blocks)
    np.testing.assert_array_equal(made, result.columns.paths)


def test_densest_run_matches_the_loop() -> None:
    """The vectorised run picks the loop's run, ties and empty pages too."""
    rng = np.random.default_rng(1)
    for n in (1, 2, 3, 10, 50):
        for _ in range(40):
            p = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=n)
            w = rng.choice([0.0, 1.0, 2.0, 7.0], size=n)
            assert densest_run(p, w) == slow_run(p, w)


@pytest.mark.parametrize("anno", PAGES[::3], ids=lambda p: p.stem)
def test_first_columns_as_the_pages_pickle_stores_them(cleaner: Cleaner, anno) -> None:
    """The first pass's columns from result.columns equal second_pass_pages'
    reading of the feature dicts (every column but class-words)."""
    result = cleaner.clean(read_input(load_annotation(str(anno)).source))
    rows = result.columns.dicts()
    names = sorted({k for r in rows for k in r if k != "class-words"})
    stored = np.array([[_number(r.get(k, "nan")) for k in names] for r in rows], dtype=np.float32)
    got = first_columns(result.columns, names + ["no-such-feature"])
    np.testing.assert_array_equal(got[:, :-1], stored)
    assert np.isnan(got[:, -1]).all()


def test_the_package_computes_features_research_named_in_its_order() -> None:
    """The runtime stage's columns are research's, in research's order."""
    assert SHARED == sorted(SHARED)


@pytest.mark.parametrize("anno", PAGES[::3], ids=lambda p: p.stem)
def test_the_stage_matrix_is_researchs(cleaner: Cleaner, anno) -> None:
    """What victor/rescoring feeds the trees for a cleaned page is what the
    research fitted them on: page_features (its shared columns) of the CRF's uncalibrated content
    probabilities and the decoded labels, then the first pass's columns as
    second_pass_pages stored them."""
    result = cleaner.clean(read_input(load_annotation(str(anno)).source))
    blocks, labels = result.page.blocks, list(result.labels)
    p = np.array(content_probabilities(result.marginals), dtype=np.float64)
    rows = result.columns.dicts()
    names = sorted({k for r in rows for k in r if k != "class-words"})
    stored = np.array([[_number(r.get(k, "nan")) for k in names] for r in rows], dtype=np.float32)
    slow = np.hstack([_slow(result, p, labels), stored])
    got = rescoring.matrix(result.columns, blocks, result.marginals, labels, names)
    assert got.shape == slow.shape == (len(blocks), len(PAGE_FEATURES) + len(names))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(slow))
    np.testing.assert_allclose(got, slow, rtol=1e-6, atol=0)
