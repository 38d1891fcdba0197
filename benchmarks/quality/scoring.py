"""How the quality benchmark scores a text against the gold: word F1 by
longest-common-subsequence alignment and WCXB's bag-of-words F1, WCXB's
snippets, and the temperatures that calibrate the held-out probabilities."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import mean
from typing import Sequence

from benchmarks.quality.running import Page, Run
from victor.decoding import calibration
from victor.reading.text import words
from victor.training import evaluate


@dataclass
class Score:
    lcs: evaluate.Overlap
    bag_f1: float
    empty: int
    pages: int


def score(pages: Sequence[Page], texts: dict[str, str]) -> Score:
    lcs = evaluate.Overlap(0, 0, 0)
    bags, empty = [], 0
    for p in pages:
        ours = words(texts.get(p.anno, ""))
        empty += not ours
        lcs += evaluate.word_overlap(ours, p.gold)
        bags.append(evaluate.bag_overlap(ours, p.gold).f1)
    return Score(lcs, mean(bags) if bags else 0.0, empty, len(pages))


def _contains(haystack: str, snippet: str) -> bool | None:
    needle = " ".join(words(snippet))
    return f" {needle} " in haystack if needle else None


def snippets(pages: Sequence[Page], texts: dict[str, str]) -> tuple[float, float]:
    """Share of `with` snippets found, share of `without` snippets kept."""
    found, kept = [], []
    for p in pages:
        haystack = f" {' '.join(words(texts.get(p.anno, '')))} "
        found += [x for x in (_contains(haystack, s) for s in p.with_) if x is not None]
        kept += [x for x in (_contains(haystack, s) for s in p.without) if x is not None]
    return (mean(found) if found else float("nan"), mean(kept) if kept else float("nan"))


def held_out_blocks(ps: list[Page], run: Run) -> tuple[list[float], list[bool]]:
    """The cross-validated content probability of every block of these
    pages, and whether the gold keeps it."""
    probabilities, content = [], []
    for p in ps:
        probabilities.extend(run.content.get(p.anno, []))
        content.extend(label != "o" for label in run.truth.get(p.anno, []))
    return probabilities, content


def fit_temperatures(pages: dict[str, list[Page]], run: Run) -> dict[str, float]:
    """The calibration's temperature fitted on every collection's held-out
    blocks ("all", what `victor learn --calibrate` records in a model trained
    on them) and, for each collection, on the other collections' alone: a
    temperature fitted on one kind of page, tried on another."""
    blocks = {c: held_out_blocks(ps, run) for c, ps in pages.items()}
    fitted = {"all": calibration.fit_temperature(
        [p for ps, _ in blocks.values() for p in ps], [c for _, cs in blocks.values() for c in cs])}
    if len(blocks) > 1:
        for held in blocks:
            others = [c for c in blocks if c != held]
            fitted[held] = calibration.fit_temperature(
                [p for c in others for p in blocks[c][0]], [x for c in others for x in blocks[c][1]])
    return fitted

