"""`victor learn --search`: the CRF's parameters chosen on held-out web
sites, each candidate scored as `--cross-validate` scores it, then the
model trained with the best. Real CleanEval pages from data/cleaneval."""

from pathlib import Path

import pytest

from victor.cli import main
from victor.config import load_config
from victor.model import load as load_model
from victor.errors import VictorError
from victor.training import crossval, dataset
from victor.training.search import parse_grid

DATA = Path(__file__).resolve().parent.parent / "data" / "cleaneval"
# Six pages of four web sites or more, so that two site folds can be made.
PAGES = [str(DATA / f"{n}.anno") for n in (12, 14, 31, 49, 51, 23)]


def test_search_prints_each_candidates_held_out_f1_and_trains_with_the_best(tmp_path, capsys):
    model = tmp_path / "m"
    status = main(["learn", "--config", "cleaneval", "--search", "c2=0.01,30",
                   "--search-folds", "2", "--max-iterations", "10", "--calibrate", "0",
                   "-o", str(model), *PAGES])
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    scores = {line.split(":")[0]: float(line.split("word F1 ")[1].split()[0]) for line in lines[:2]}
    assert list(scores) == ["c2=0.01", "c2=30"]
    chosen = max(scores, key=scores.get)
    assert lines[2].startswith(f"chosen: {chosen} ")

    record = load_model(model).record
    metadata = record["crf"]
    assert metadata["params"]["c2"] == float(chosen.removeprefix("c2="))
    assert metadata["params"]["max_iterations"] == 10
    assert record["recipe"]["crf"]["c2"] == metadata["params"]["c2"]
    search = record["training"]["search"]
    assert [c["c2"] for c in search["candidates"]] == [0.01, 30]
    assert search["folds"] == 2 and search["split"] == "site"

    # Each figure is the held-out one --cross-validate gives with those parameters.
    config = load_config("cleaneval")
    examples = dataset.load_examples(PAGES, config)
    results = crossval.cross_validate(examples, config, 2,
                                      {**config.crf, "c2": 30, "max-iterations": 10},
                                      str(tmp_path))
    assert crossval.total(results).words.f1 == pytest.approx(scores["c2=30"], abs=5e-5)


def test_a_grid_of_two_parameters_spans_every_combination():
    from victor.training.search import candidates

    grid = parse_grid(["c2=1,10", "max-iterations=5,20"])
    assert grid == {"c2": [1, 10], "max_iterations": [5, 20]}
    assert candidates(grid) == [{"c2": 1, "max_iterations": 5}, {"c2": 1, "max_iterations": 20},
                                {"c2": 10, "max_iterations": 5}, {"c2": 10, "max_iterations": 20}]


@pytest.mark.parametrize("spec, fault", [
    ("c3=1,2", "--search c3=1,2: unknown parameter 'c3'"),
    ("c2", "--search c2: expected NAME=VALUE,VALUE,..."),
    ("c2=1,,2", "--search c2=1,,2: expected NAME=VALUE"),
    ("c2=1,lots", "--search c2=1,lots: 'lots' is not a number"),
    ("c2=-1", "--search c2=-1: parameter 'c2' must be a number, 0 or more"),
    ("min-sites=1.5", "--search min-sites=1.5: parameter 'min-sites' must be a whole number"),
])
def test_a_bad_search_is_a_one_line_error_naming_it(spec, fault):
    with pytest.raises(VictorError, match=f"^{fault}"):
        parse_grid([spec])


@pytest.mark.parametrize("extra, fault", [
    (["--c2", "3"], "--c2 and --search c2=... both given"),
    (["--cross-validate", "2"], "give it or --cross-validate, not both"),
])
def test_a_search_at_odds_with_other_options_is_refused_before_reading_pages(
        tmp_path, capsys, extra, fault):
    status = main(["learn", "--config", "cleaneval", "--search", "c2=1,3", *extra,
                   "-o", str(tmp_path / "m"), str(tmp_path / "missing.anno")])
    err = capsys.readouterr().err
    assert status == 2 and fault in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []
