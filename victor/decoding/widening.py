"""The best path widened: blocks it drops that the CRF thinks likely content
kept (`keep_likely`), a page it would leave empty given its likeliest
blocks (`fallback`), and the user's `--favor` and `--threshold`, which move
the labels on the calibrated probability."""

from __future__ import annotations

from typing import Mapping, Sequence

from victor.decoding.calibration import content_probabilities
from victor.labels import OTHER

def content_label(marginal: Mapping[str, float], after_content: bool) -> str:
    """What a block kept against the best path is kept as: its most
    probable label but o, so that a heading stays a heading and a list item
    an item. A continuation only continues content: after a block that is
    not kept, `c` would glue the block onto whatever was kept before it, so
    there the most probable of p, h and l is taken instead."""
    allowed = [k for k in marginal if k != OTHER and (after_content or k != "c")]
    return max(allowed, key=marginal.__getitem__)


def _kept(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
          keep: Sequence[bool]) -> list[str]:
    """The path's labels where `keep` is false, else the block's content
    label in light of the block before it as finally labelled."""
    out: list[str] = []
    for lab, m, k in zip(labels, marginals, keep):
        out.append(content_label(m, bool(out) and out[-1] != OTHER) if k else lab)
    return out


def fallback(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
             share: float, cap: float, barred: Sequence[bool] = ()) -> list[str] | None:
    """Labels that keep the page's most probable content when the CRF keeps
    none of it; None when it keeps some, or the page has no block: the
    blocks whose content probability reaches `share` of the page's highest
    (the config's `fallback_share`), and any at `cap` or above
    (`fallback_cap`). On pages neither the article nor the cleaneval model
    saw, every share did better than no fallback and 0 did best, keeping
    every block of such a page (docs/robustness.md); a model that has seen
    pages like the page hesitates less blindly, and its site-grouped folds
    chose a share above 0 (docs/general.md, "Decoding").

    On a page unlike its training pages a model hesitates: every block's
    content probability (1 - P(o)) stays under one half, so Viterbi labels
    them all o, though the page has text a reader came for (a Korean news
    page: far under one half, on the article's own text). Measured against
    people's gold on held-out pages, keeping blocks beats keeping nothing,
    and keeping all of them beat keeping the most probable ones
    (docs/robustness.md, `python3 -m benchmarks.fallback`)."""
    if not marginals or any(lab != OTHER for lab in labels):
        return None
    raw_content = content_probabilities(marginals)
    if barred:  # blocks the user asked to leave out (`--comments drop`) are no candidates
        raw_content = [0.0 if b else p for p, b in zip(raw_content, barred)]
        if not any(raw_content):
            return None
    bar = min(share * max(raw_content), cap)
    return _kept([OTHER] * len(marginals), marginals,
                 [p >= bar and not (barred and barred[i]) for i, p in enumerate(raw_content)])


def keep_likely(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
                keep_above: float) -> list[str]:
    """The path's labels, and a content label for every block it labels o
    whose content probability is at least `keep_above`. The probability is
    the CRF's own, before calibration: the setting was chosen on it and
    must not move when a model is recalibrated."""
    raw_content = content_probabilities(marginals)
    return _kept(labels, marginals, [lab == OTHER and p >= keep_above
                                     for lab, p in zip(labels, raw_content)])


def decode(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
           keep_above: float | None, fallback_share: float,
           fallback_cap: float) -> tuple[list[str], bool]:
    """The labels a page is cleaned with, and whether they are the fallback's
    (the path kept nothing, which a corpus builder may want to know: the
    jsonl record's `fallback`). `keep_above` None keeps the path as it
    is, for a config of a user's that has none; `fallback_share` is the
    config's `fallback_share` and `fallback_cap`."""
    fallen = fallback(labels, marginals, fallback_share, fallback_cap)
    if fallen is not None:
        return fallen, True
    if keep_above is None:
        return list(labels), False
    return keep_likely(labels, marginals, keep_above), False


def favored(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
            calibrated: Sequence[float], favor: str | None,
            bars: Mapping[str, float]) -> list[str]:
    """The labels moved toward precision or recall by `favor`'s bar of
    `bars` (the config's `favor`, where its second pass names no bar of
    its own for it), on the calibrated content probability, the one the
    jsonl record shows: precision drops content blocks under the bar,
    recall keeps the blocks at or above it that the decoding dropped.
    None leaves them as they are."""
    if favor is None:
        return list(labels)
    bar = bars[favor]
    if favor == "precision":
        return above_threshold(labels, calibrated, bar)
    return _kept(labels, marginals,
                 [lab == OTHER and p >= bar for lab, p in zip(labels, calibrated)])


def above_threshold(labels: Sequence[str], calibrated: Sequence[float],
                    threshold: float) -> list[str]:
    """The user's `--threshold`, applied after decoding: content blocks
    whose calibrated content probability is under it become o. It only
    takes away, and it may empty a page on purpose; on the calibrated scale
    because that is the one a user reads in the jsonl output."""
    return [lab if lab == OTHER or p >= threshold else OTHER
            for lab, p in zip(labels, calibrated)]
