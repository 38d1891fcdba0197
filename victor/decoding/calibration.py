"""A block's content probability, and its calibration on pages from unseen sites.

A CRF trained on hundreds of sites is surer of itself than it should be on
a site it has not seen: in site-grouped cross-validation of the general
config, blocks it was fairly sure of were content much less often than it
said (docs/notes/general.md). Temperature scaling (Guo, Pleiss, Sun and Weinberger,
"On calibration of modern neural networks", ICML 2017) divides the
probability's log-odds by one number, the temperature, fitted on held-out
blocks. One half stays one half and the order of blocks is kept, so the
labels Victor decodes do not change: what changes is what a probability
says, and so where `--threshold` cuts. The temperature travels in the
model's metadata (`calibration`), fitted by `learn.py --cross-validate K
--calibrate` on the same pages and config as the model."""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from victor.labels import OTHER

# Probabilities are kept this far from 0 and 1 before taking log-odds:
# marginals of exactly 0 or 1 would have infinite ones.
_EDGE = 1e-9


def content_probabilities(marginals: Sequence[Mapping[str, float]],
                          temperature: float = 1.0) -> list[float]:
    """Each block's probability of being content (any label but o), its
    log-odds divided by `temperature`."""
    content = [1.0 - m.get(OTHER, 0.0) for m in marginals]
    return content if temperature == 1.0 else scaled(content, temperature)


def scaled(probabilities: Sequence[float], temperature: float) -> list[float]:
    """Probabilities with their log-odds divided by `temperature` (above 1:
    nearer one half; under 1: nearer 0 and 1)."""
    p = np.clip(np.asarray(probabilities, dtype=float), _EDGE, 1 - _EDGE)
    logits = np.log(p) - np.log1p(-p)
    return (1.0 / (1.0 + np.exp(-logits / temperature))).tolist()


def log_loss(probabilities: Sequence[float], content: Sequence[bool],
             temperature: float = 1.0) -> float:
    """Mean negative log-likelihood of the gold under the probabilities
    scaled by `temperature`: what the fit minimises."""
    p = np.clip(np.asarray(scaled(probabilities, temperature)), _EDGE, 1 - _EDGE)
    y = np.asarray(content, dtype=bool)
    return float(-(np.log(p[y]).sum() + np.log1p(-p[~y]).sum()) / max(len(p), 1))


def fit_temperature(probabilities: Sequence[float], content: Sequence[bool]) -> float:
    """The temperature that makes held-out blocks' probabilities likeliest.

    The log-likelihood is concave in the inverse temperature (it is a
    logistic regression with one weight and no intercept), so a
    golden-section search over it finds the one optimum."""
    if len(probabilities) != len(content):
        raise ValueError(f"{len(probabilities)} probabilities for {len(content)} gold labels")
    y = np.asarray(content, dtype=bool)
    if not len(y) or y.all() or not y.any():
        return 1.0  # nothing to fit: every block the same
    p = np.clip(np.asarray(probabilities, dtype=float), _EDGE, 1 - _EDGE)
    logits = np.log(p) - np.log1p(-p)
    signs = np.where(y, 1.0, -1.0)

    def loss(inverse: float) -> float:
        return float(np.logaddexp(0.0, -signs * logits * inverse).mean())

    low, high = 0.02, 20.0
    ratio = (5 ** 0.5 - 1) / 2
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    fa, fb = loss(a), loss(b)
    for _ in range(80):
        if fa < fb:
            high, b, fb = b, a, fa
            a = high - ratio * (high - low)
            fa = loss(a)
        else:
            low, a, fa = a, b, fb
            b = low + ratio * (high - low)
            fb = loss(b)
    return 1.0 / ((low + high) / 2)


def reliability(probabilities: Sequence[float], content: Sequence[bool],
                bands: int = 10) -> list[tuple[int, int]]:
    """(blocks, of them content) in each of `bands` equal probability bands:
    calibrated probabilities have each band's share of content inside it."""
    counts = [[0, 0] for _ in range(bands)]
    for p, c in zip(probabilities, content):
        band = counts[min(int(p * bands), bands - 1)]
        band[0] += 1
        band[1] += bool(c)
    return [(n, k) for n, k in counts]


def expected_error(probabilities: Sequence[float], content: Sequence[bool],
                   bands: int = 10) -> float:
    """Expected calibration error: the mean over blocks of the gap between
    a band's mean probability and its share of content."""
    p = np.asarray(probabilities, dtype=float)
    y = np.asarray(content, dtype=float)
    if not len(p):
        return 0.0
    index = np.minimum((p * bands).astype(int), bands - 1)
    gap = 0.0
    for band in range(bands):
        inside = index == band
        if inside.any():
            gap += abs(p[inside].mean() - y[inside].mean()) * inside.sum()
    return float(gap / len(p))
