"""The CRF as an estimator: fit on pages, predict their labels and
marginals, save, and load back a model that predicts the same; and, being
sklearn-crfsuite's CRF, cloned and searched over as scikit-learn's
estimators are."""

from pathlib import Path

import pytest

from victor.training import dataset
from victor.config import load_config
from victor.crf import CRF, check_params, load_model, load_template
from victor.errors import VictorError
from victor.crf.params import DEFAULT_PARAMS
from victor.labels import LABELS

DATA = Path(__file__).resolve().parents[1] / "data" / "cleaneval"
TRAIN = [str(DATA / f"{n}.anno") for n in (12, 14, 31)]
TEST = [str(DATA / f"{n}.anno") for n in (49, 51)]
DEFAULT_C2 = DEFAULT_PARAMS["c2"]


@pytest.fixture(scope="module")
def pages():
    config = load_config("cleaneval")
    train = dataset.load_examples(TRAIN, config)
    test = dataset.load_examples(TEST, config)
    return config, train, test


@pytest.fixture(scope="module")
def fitted(pages):
    config, train, _ = pages
    return CRF(load_template(config.template), max_iterations=20).fit(
        [e.features for e in train], [e.labels for e in train])


def test_a_fitted_crf_labels_every_block_of_unseen_pages(pages, fitted):
    _, _, test = pages
    predicted = fitted.predict([e.features for e in test])
    assert [len(labels) for labels in predicted] == [len(e.labels) for e in test]
    assert {label for labels in predicted for label in labels} <= set(LABELS)


def test_marginals_give_every_block_a_distribution_over_the_models_labels(pages, fitted):
    _, _, test = pages
    X = [e.features for e in test]
    for labels, marginals in zip(fitted.predict(X), fitted.predict_marginals(X)):
        assert len(marginals) == len(labels)
        for block in marginals:
            assert set(block) == set(fitted.model_.labels)
            assert sum(block.values()) == pytest.approx(1.0)


def test_a_saved_model_loads_back_and_predicts_the_same(pages, fitted, tmp_path):
    _, _, test = pages
    X = [e.features for e in test]
    written = fitted.save(tmp_path / "m.crfsuite", {"config": "cleaneval"})
    assert written["config"] == "cleaneval" and written["params"]["max_iterations"] == 20
    loaded = CRF.load(tmp_path / "m.crfsuite", expected_config="cleaneval")
    assert loaded.predict(X) == fitted.predict(X)
    assert loaded.predict_marginals(X) == fitted.predict_marginals(X)
    assert load_model(tmp_path / "m.crfsuite").metadata == written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.crfsuite", "m.crfsuite.json"]


def test_fitting_writes_no_files_and_an_unfitted_crf_says_so(pages, tmp_path, monkeypatch):
    config, _, test = pages
    monkeypatch.chdir(tmp_path)
    estimator = CRF(load_template(config.template), max_iterations=1)
    with pytest.raises(VictorError, match="has not been fitted"):
        estimator.predict([test[0].features])
    estimator.fit([test[0].features], [test[0].labels])
    assert list(tmp_path.iterdir()) == []


def test_a_share_of_the_far_boilerplate_trains_on_fewer_blocks_and_still_labels(pages):
    config, train, test = pages
    X, y = [e.features for e in train], [e.labels for e in train]
    template = load_template(config.template)
    whole = CRF(template, max_iterations=5).fit(X, y)
    sampled = CRF(template, max_iterations=5, far_other_share=0.2).fit(X, y)
    assert whole.model_.metadata["trained_blocks"] == sum(map(len, y))
    assert 0 < sampled.model_.metadata["trained_blocks"] < sum(map(len, y))
    assert sampled.model_.metadata["params"]["far_other_share"] == 0.2
    predicted = sampled.predict([e.features for e in test])
    assert [len(labels) for labels in predicted] == [len(e.labels) for e in test]


def test_values_few_sites_show_are_not_trained_on(pages):
    config, train, test = pages
    X, y = [e.features for e in train], [e.labels for e in train]
    template = load_template(config.template)
    whole = CRF(template, max_iterations=5).fit(X, y, [e.group.site for e in train])
    cut = CRF(template, max_iterations=5, min_sites=2).fit(
        X, y, [e.group.site for e in train])
    assert "items_left_out" not in whole.model_.metadata
    assert cut.model_.metadata["items_left_out"] > 0
    assert cut.model_.metadata["params"]["min_sites"] == 2
    assert cut.model_.metadata["model_bytes"] < whole.model_.metadata["model_bytes"]
    predicted = cut.predict([e.features for e in test])
    assert [len(labels) for labels in predicted] == [len(e.labels) for e in test]


@pytest.mark.parametrize("params, fault", [
    ({"c3": 1}, "unknown parameter 'c3'"),
    ({"c2": -1}, "parameter 'c2' must be a number, 0 or more"),
    ({"max-iterations": "many"}, "parameter 'max-iterations' must be a number"),
    ({"far-other-share": 0}, "parameter 'far-other-share' must be a share above 0"),
    ({"far-other-share": 1.5}, "parameter 'far-other-share' must be a share above 0"),
    ({"min-sites": 0}, "parameter 'min-sites' must be a whole number, 1 or more"),
    ({"min-sites": 2.5}, "parameter 'min-sites' must be a whole number, 1 or more"),
])
def test_bad_parameters_in_a_configs_spelling_are_refused(params, fault):
    with pytest.raises(VictorError, match=fault):
        check_params(params, "crf settings")


@pytest.mark.parametrize("keywords, fault", [
    ({"c2": -1}, "parameter 'c2' must be a number, 0 or more"),
    ({"max_iterations": "many"}, "parameter 'max_iterations' must be a number"),
    ({"far_other_share": 0}, "parameter 'far_other_share' must be a share above 0"),
    ({"min_sites": 2.5}, "parameter 'min_sites' must be a whole number, 1 or more"),
])
def test_bad_keywords_are_stored_as_given_and_refused_before_training(pages, keywords, fault):
    config, train, _ = pages
    estimator = CRF(load_template(config.template), **keywords)
    assert estimator.get_params()[next(iter(keywords))] == next(iter(keywords.values()))
    with pytest.raises(VictorError, match=fault):
        estimator.fit([e.features for e in train], [e.labels for e in train])
    assert not hasattr(estimator, "model_")


def test_a_clone_has_the_same_keywords_and_none_of_the_fitted_model(pages, fitted):
    from sklearn.base import clone
    from sklearn.utils.validation import check_is_fitted
    from sklearn.exceptions import NotFittedError

    copy = clone(fitted)
    assert copy.get_params() == fitted.get_params()
    assert copy.max_iterations == 20 and "on_iteration" in copy.get_params()
    check_is_fitted(fitted)
    with pytest.raises(NotFittedError):
        check_is_fitted(copy)
    copy.set_params(c2=3.0)
    assert (copy.c2, fitted.c2) == (3.0, DEFAULT_C2)


def test_a_grid_search_over_site_folds_fits_each_candidate_and_refits_the_best(pages):
    """sklearn's GridSearchCV with GroupKFold by web site: each fold's
    sites are on one side, and the `sites` of the pages reach fit for
    min-sites."""
    from sklearn.model_selection import GridSearchCV, GroupKFold

    config, train, test = pages
    examples = train + test
    X, y = [e.features for e in examples], [e.labels for e in examples]
    sites = [e.group.site for e in examples]
    search = GridSearchCV(CRF(load_template(config.template), max_iterations=5, min_sites=2),
                          {"c2": [0.1, 10.0]}, cv=GroupKFold(n_splits=len(set(sites))))
    search.fit(X, y, groups=sites, sites=sites)
    assert [p["c2"] for p in search.cv_results_["params"]] == [0.1, 10.0]
    assert all(0 < s <= 1 for s in search.cv_results_["mean_test_score"])
    assert search.best_estimator_.c2 == search.best_params_["c2"]
    assert search.best_estimator_.model_.metadata["params"]["min_sites"] == 2
    predicted = search.predict([e.features for e in test])
    assert [len(labels) for labels in predicted] == [len(e.labels) for e in test]


def test_a_config_and_the_estimator_refuse_the_same_parameters(tmp_path):
    from victor.config import CONFIG_DIR, load_config as load

    yaml = (CONFIG_DIR / "cleaneval.yaml").read_text()
    for line, fault in (("  c3: 1\n", "unknown parameter 'c3'"),
                        ("  c2: -1\n", "parameter 'c2' must be a number, 0 or more")):
        path = tmp_path / "bad.yaml"
        path.write_text(yaml.replace("  c2: 30\n", line))
        with pytest.raises(VictorError, match=f"^{path}: key 'crf': {fault}"):
            load(path)


def test_a_crf_made_without_arguments_fits_with_the_default_configs_template():
    """scikit-learn's convention: every constructor argument has a default,
    so that `clone` and its estimator checks can make one."""
    from sklearn.base import clone

    config = load_config("general")
    train = dataset.load_examples(TRAIN[:2], config)
    estimator = CRF()
    assert estimator.get_params()["template"] is None
    assert clone(estimator).get_params() == estimator.get_params()
    estimator.set_params(max_iterations=3).fit([e.features for e in train],
                                               [e.labels for e in train])
    assert estimator.model_.template.digest == load_template(config.template).digest
