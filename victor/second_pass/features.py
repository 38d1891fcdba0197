"""What the second pass sees of a block: page-level features of the first
pass's content probabilities (PAGE_FEATURES), and the first pass's own
feature columns as numbers (`first_columns`).

The first pass (the CRF) sees a block and its neighbours; it cannot see that
a block lies far from the page's densest run of likely content, or that the
other blocks on its path (a teaser list's items, a forum's posts) are all
unlikely. These features say so, from the first pass's probabilities over
the whole page (docs/notes/second-pass.md lists them); trees
(victor/second_pass/trees.py) decide again from them.

They are the research's matrix (research/second_pass_features.py's
`page_features`) without its container columns (tree.*, c1-c3.*, rep*),
which cost more than half the second pass's time for little of its
F1 (docs/notes/second-pass.md, "A second pass for the default config"), and with
blocks grouped by the features stage's own paths rather than by tag path
and innermost class. tests/test_second_pass_fast.py holds the other
columns equal to the research's, bit for bit, on pages of data/.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

import numpy as np

from victor.labels import OTHER

if TYPE_CHECKING:
    from victor.columns import Columns

PAGE_FEATURES = (
    "p", "logit", "first.content", "p.prev1", "p.next1", "p.prev2", "p.next2",
    "win3", "win10", "page.max", "p/max", "page.mean", "page.wmean", "page.blocks",
    "page.words", "page.likely-share", "p.rank", "words", "run.in", "run.dist",
    "run.dist-words", "run.words-share", "run.mass-share", "run.after", "run.before",
    "run.blocks", "run.mean", "path.count", "path.mean", "path.in-run", "position",
    "words-after-run-share",
)

COL = {name: i for i, name in enumerate(PAGE_FEATURES)}
# The first pass's columns are named so in the trees' model, after
# PAGE_FEATURES: both have a `position`.
FIRST_PREFIX = "crf."


def feature_names(first: Sequence[str]) -> list[str]:
    """The trees' feature names: PAGE_FEATURES, then the first pass's
    columns `first` under FIRST_PREFIX."""
    return list(PAGE_FEATURES) + [FIRST_PREFIX + name for name in first]


def densest_run(p: np.ndarray, w: np.ndarray) -> tuple[int, int]:
    """The run of blocks whose words, weighted by how far their probability
    is above one half, sum highest: where the page's content most likely
    is. Without a loop (research/second_pass_features.py's Kadane is the
    reference): the run ending at i starts after the last lowest prefix sum
    before it; the first highest run wins, and a page with no positive run
    gets its likeliest block."""
    n = len(p)
    s = w * (p - 0.5)
    S = np.concatenate([[0.0], np.cumsum(s)])
    low = np.minimum.accumulate(S[:n])
    start = np.maximum.accumulate(np.where(S[:n] <= low, np.arange(n), 0))
    gain = S[1:] - S[start]
    b = int(np.argmax(gain)) if n else -1
    if n == 0 or gain[b] <= 0:
        i = int(np.argmax(p)) if n else 0
        return i, i
    return int(start[b]), b


def fast_features(paths: np.ndarray, texts: list[str], p: np.ndarray, first: list[str],
                  words: np.ndarray | None = None) -> np.ndarray:
    """The PAGE_FEATURES of each block (a row a block), from the blocks'
    `paths` (Columns.paths: blocks on the same path of elements and
    classes share a number), `texts`, the first pass's content
    probabilities `p` (uncalibrated, as the trees were trained on) and its
    labels `first`; `words` the blocks' word counts if the caller has
    them."""
    n = len(p)
    w = (np.fromiter(map(len, map(str.split, texts)), dtype=np.float64, count=n)
         if words is None else np.asarray(words, dtype=np.float64))
    wp = w * p
    out = np.full((n, len(PAGE_FEATURES)), np.nan, dtype=np.float32)
    o = out.T  # o[COL[name]] is a column
    o[COL["p"]] = p
    q = np.clip(p, 1e-6, 1 - 1e-6)
    o[COL["logit"]] = np.log(q / (1 - q))
    o[COL["first.content"]] = np.array(first, dtype=object) != OTHER
    for k in (1, 2):
        if n > k:
            o[COL[f"p.prev{k}"], k:] = p[:-k]
            o[COL[f"p.next{k}"], :-k] = p[k:]
    cw, cwp = np.concatenate([[0], np.cumsum(w)]), np.concatenate([[0], np.cumsum(wp)])
    idx = np.arange(n)
    for r in (3, 10):
        lo, hi = np.maximum(idx - r, 0), np.minimum(idx + r + 1, n)
        o[COL[f"win{r}"]] = (cwp[hi] - cwp[lo]) / np.maximum(cw[hi] - cw[lo], 1)
    pmax = p.max()
    total = max(w.sum(), 1)
    o[COL["page.max"]] = pmax
    o[COL["p/max"]] = p / max(pmax, 1e-6)
    o[COL["page.mean"]] = p.mean()
    o[COL["page.wmean"]] = wp.sum() / total
    o[COL["page.blocks"]] = n
    o[COL["page.words"]] = total
    o[COL["page.likely-share"]] = w[p >= 0.5].sum() / total
    o[COL["p.rank"]] = np.argsort(np.argsort(p)) / max(n - 1, 1)
    o[COL["words"]] = w
    a, b = densest_run(p, w)
    o[COL["run.in"]] = (idx >= a) & (idx <= b)
    o[COL["run.dist"]] = np.where(idx < a, idx - a, np.where(idx > b, idx - b, 0))
    before = cw[a] - cw[np.minimum(idx + 1, n)]
    after = cw[idx] - cw[b + 1]
    o[COL["run.dist-words"]] = np.where(idx < a, -np.log1p(np.maximum(before, 0)),
                                        np.where(idx > b, np.log1p(np.maximum(after, 0)), 0))
    run_w = cw[b + 1] - cw[a]
    o[COL["run.words-share"]] = run_w / total
    o[COL["run.mass-share"]] = (cwp[b + 1] - cwp[a]) / max(wp.sum(), 1e-6)
    o[COL["run.after"]] = idx > b
    o[COL["run.before"]] = idx < a
    o[COL["run.blocks"]] = b - a + 1
    o[COL["run.mean"]] = (cwp[b + 1] - cwp[a]) / max(run_w, 1)
    o[COL["words-after-run-share"]] = (total - cw[b + 1]) / total
    path = np.unique(paths, return_inverse=True)[1].reshape(-1) if n else paths
    cnt = np.bincount(path, minlength=n)
    in_run = np.bincount(path, weights=(idx >= a) & (idx <= b), minlength=n)
    o[COL["path.count"]] = cnt[path]
    o[COL["path.mean"]] = np.bincount(path, weights=p, minlength=n)[path] / cnt[path]
    o[COL["path.in-run"]] = in_run[path] / cnt[path]
    o[COL["position"]] = idx / max(n - 1, 1)
    return out


def _number(value) -> float:
    """A feature's label as a number (the research read every label so);
    NaN for one that is not a number."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


@lru_cache(maxsize=8)
def _label_numbers(labels: tuple[str, ...]) -> np.ndarray:
    """Each of a labeller's labels as a number (read-only: it is shared)."""
    numbers = np.array([_number(x) for x in labels], dtype=np.float32)
    numbers.flags.writeable = False
    return numbers


def first_columns(columns: Columns, wanted: list[str]) -> np.ndarray:
    """The first pass's feature columns `wanted` as numbers, from the Columns
    the cleaner already holds (result.columns), NaN where the page has no
    such column: what the trees were trained on (each block's label read as
    a number). Every label of the labeller is converted, a few hundred,
    once a run: the labels are the same on every page."""
    where = {name: i for i, name in enumerate(columns.numeric)}
    out = np.full((columns.size, len(wanted)), np.nan, dtype=np.float32)
    have = [j for j, name in enumerate(wanted) if name in where]
    if have and columns.size:
        numbers = _label_numbers(tuple(columns.labels.tolist()))
        out[:, have] = numbers[columns.at[:, [where[wanted[j]] for j in have]]]
    for j, name in enumerate(wanted):
        if name not in where and name in columns.values:
            values = columns.values[name]  # few distinct values a page
            number = {v: _number(v) for v in dict.fromkeys(values)}
            out[:, j] = list(map(number.__getitem__, values))
    return out
