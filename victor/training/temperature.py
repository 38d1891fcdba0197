"""The calibration a model records: the temperature its held-out pages
call for (victor/decoding/calibration.py applies it), fitted on the
folds' content probabilities and gold."""

from __future__ import annotations

from typing import Sequence

from victor.decoding import calibration
from victor.labels import OTHER
from victor.training.crossval import FoldResult
from victor.training.dataset import Example


def calibrate(results: list[FoldResult], examples: Sequence[Example], split: str = "site") -> dict:
    """The calibration that the folds' held-out pages call for
    (fitted_calibration)."""
    gold = {e.name: e.labels for e in examples}
    probabilities, content = [], []
    for r in results:
        for p in r.predictions:
            probabilities.extend(p.raw_content)
            content.extend(label != OTHER for label in gold[p.name])
    return fitted_calibration(probabilities, content, len(results), split)


def fitted_calibration(probabilities: Sequence[float], content: Sequence[bool],
                       folds: int, split: str) -> dict:
    """A model's `calibration` metadata (victor/decoding/calibration.py): the
    temperature fitted on held-out blocks' content probabilities and gold,
    what it was fitted on, and the log loss and expected calibration error
    before and after."""
    t = calibration.fit_temperature(probabilities, content)
    after = calibration.scaled(probabilities, t)
    return {"temperature": round(t, 4), "folds": folds, "split": split, "blocks": len(content),
            "log_loss": [round(calibration.log_loss(probabilities, content), 4),
                         round(calibration.log_loss(after, content), 4)],
            "expected_error": [round(calibration.expected_error(probabilities, content), 4),
                               round(calibration.expected_error(after, content), 4)]}


def calibration_report(fitted: dict) -> str:
    before, after = fitted["log_loss"]
    error_before, error_after = fitted["expected_error"]
    return (f"temperature {fitted['temperature']:g} on {fitted['blocks']} held-out blocks: "
            f"log loss {before:.4f} -> {after:.4f}, "
            f"expected calibration error {error_before:.4f} -> {error_after:.4f}")
