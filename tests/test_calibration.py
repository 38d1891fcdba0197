"""The content probability's calibration (victor/decoding/calibration.py): a
temperature fitted on held-out blocks, recorded in the model, that moves
what a probability says and never which blocks are kept."""

from __future__ import annotations

import json
import random

import pytest

from front_door_support import victor_main
from model_support import model_copy
from victor.decoding import calibration
from victor.model import load as load_model
from victor.training import dataset
from victor.cleaner import Cleaner
from victor.config import load_config, shipped_configs
from victor.errors import VictorError

from repo_data import CLEANEVAL, ROOT

PAGES = [str(CLEANEVAL / f"{n}.anno") for n in (12, 14, 31, 49)]


def test_scaling_keeps_one_half_and_the_order_of_blocks():
    probabilities = [0.01, 0.2, 0.5, 0.7, 0.99]
    for t in (0.5, 1.0, 2.0):
        scaled = calibration.scaled(probabilities, t)
        assert scaled[2] == pytest.approx(0.5)
        assert scaled == sorted(scaled)
    assert calibration.scaled(probabilities, 1.0) == pytest.approx(probabilities)
    hotter = calibration.scaled(probabilities, 2.0)
    assert hotter[0] > 0.01 and hotter[-1] < 0.99  # drawn toward one half


@pytest.mark.parametrize("truth", [0.5, 1.0, 2.5])
def test_the_fit_finds_the_temperature_the_gold_was_drawn_at(truth):
    """Gold drawn at probabilities overconfident by `truth`: the fitted
    temperature undoes it."""
    rng = random.Random(7)
    said = [rng.random() for _ in range(20000)]
    content = [rng.random() < q for q in calibration.scaled(said, truth)]
    assert calibration.fit_temperature(said, content) == pytest.approx(truth, rel=0.08)
    fitted = calibration.scaled(said, calibration.fit_temperature(said, content))
    assert calibration.log_loss(fitted, content) <= calibration.log_loss(said, content)
    assert calibration.expected_error(fitted, content) < 0.02


def test_nothing_to_fit_leaves_the_probabilities_alone():
    assert calibration.fit_temperature([0.2, 0.9], [True, True]) == 1.0
    assert calibration.fit_temperature([], []) == 1.0


def test_reliability_counts_blocks_and_content_by_band():
    bands = calibration.reliability([0.05, 0.07, 0.55, 1.0], [False, True, True, True])
    assert bands[0] == (2, 1) and bands[5] == (1, 1) and bands[9] == (1, 1)
    assert sum(n for n, _ in bands) == 4


def _shipped_at(folder, temperature: float):
    """The shipped cleaneval model, with this temperature in its record."""
    model = model_copy(folder / "cleaneval", "cleaneval")
    record = json.loads((model / "model.json").read_text(encoding="utf-8"))
    record["crf"]["calibration"] = {"temperature": temperature}
    (model / "model.json").write_text(json.dumps(record), encoding="utf-8")
    return model


@pytest.fixture(scope="module")
def calibrated_model(tmp_path_factory):
    return _shipped_at(tmp_path_factory.mktemp("hot"), 2.0)


@pytest.fixture(scope="module")
def plain_model(tmp_path_factory):
    return _shipped_at(tmp_path_factory.mktemp("plain"), 1.0)


def test_every_shipped_model_is_calibrated():
    for config in shipped_configs():
        fitted = load_model(config).record["crf"]["calibration"]
        assert fitted["temperature"] > 1 and fitted["split"] == "site"
        assert fitted["expected_error"][1] < fitted["expected_error"][0]


def test_a_calibrated_model_keeps_the_same_blocks_with_other_probabilities(calibrated_model,
                                                                          plain_model):
    page = (CLEANEVAL / "14.html").read_bytes()
    plain = Cleaner("cleaneval", plain_model).clean(page)
    calibrated = Cleaner("cleaneval", calibrated_model).clean(page)
    assert calibrated.labels == plain.labels
    assert calibrated.content == pytest.approx(calibration.scaled(plain.content, 2.0))
    assert calibrated.content != pytest.approx(plain.content)


def test_the_threshold_cuts_the_calibrated_probability(calibrated_model, plain_model):
    page = (CLEANEVAL / "14.html").read_bytes()
    plain = Cleaner("cleaneval", plain_model).clean(page)
    # A content block at 0.95 uncalibrated is about 0.81 at temperature 2.
    bar = 0.9
    sure = [p >= bar for lab, p in zip(plain.labels, plain.content) if lab != "o"]
    kept = Cleaner("cleaneval", calibrated_model, threshold=bar).clean(page)
    scaled = calibration.scaled(plain.content, 2.0)
    assert [lab != "o" for lab in kept.labels] == [
        lab != "o" and p >= bar for lab, p in zip(plain.labels, scaled)]
    assert sum(lab != "o" for lab in kept.labels) < sum(sure)


def test_a_bad_temperature_is_refused_in_one_line(tmp_path):
    model = _shipped_at(tmp_path, -1)
    with pytest.raises(VictorError, match=r"cleaneval/model\.json: calibration temperature -1 ") as e:
        Cleaner("cleaneval", model)
    assert "\n" not in str(e.value)


def test_learn_py_calibrate_records_the_fitted_temperature(tmp_path):
    model = tmp_path / "m"
    proc = victor_main("--config", "cleaneval", "-o", model, "--max-iterations", "5",
                       "--calibrate", "2", *PAGES, cwd=ROOT, command="learn")
    assert proc.returncode == 0, proc.stderr
    fitted = load_model(model).record["crf"]["calibration"]
    assert fitted["folds"] == 2 and fitted["split"] == "site"
    examples = dataset.load_examples(PAGES, load_config("cleaneval"))
    assert fitted["blocks"] == sum(len(e.labels) for e in examples)  # every page held out once
    assert fitted["log_loss"][1] <= fitted["log_loss"][0]
    assert f"temperature {fitted['temperature']:g} on {fitted['blocks']} held-out blocks" in proc.stderr
    assert Cleaner(load_config("cleaneval"), model).model.temperature == fitted["temperature"]
