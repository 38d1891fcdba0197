"""A cheap test of a new source of information for the second pass: a
stacker over a saved draw's held-out trees' probability, with and without
the new columns, cross-fitted over groups of web sites, then decided and
scored as research.held_out replays. The control is the same stacker
without the new columns, since a stacker alone recalibrates what the bars
cut. Used by research.wordllama_stack, research.item_stack and
research.sequence_stack."""
from __future__ import annotations

from dataclasses import dataclass
from statistics import mean
from urllib.parse import urlparse

import lightgbm as lgb
import numpy as np

from research.held_out import _HEADLINE, _here, figures, replayed
from victor.annotation.annofile import Annotation, load_annotation

KEYS = ("cleaneval-dev LCS", "dragnet-train LCS", "wcxb-dev bag", "wcxb article",
        "wcxb collection", "wcxb forum", "wcxb listing", "wcxb product", "wcxb service",
        "wcxb documentation", "mean3")


@dataclass
class Rows:
    """A run's blocks as rows: the trees' probability `q`, the CRF's `raw`
    content probability, the gold (1 content), the site, the block's place
    in its page, and each page's span of rows, blocks and annotation."""
    q: np.ndarray
    raw: np.ndarray
    y: np.ndarray
    site: list[str]
    position: np.ndarray
    spans: list[tuple[int, int]]
    blocks: list[list[str]]
    annotations: list[Annotation]

    def base(self) -> np.ndarray:
        return np.column_stack([_logit(self.q), _logit(self.raw), self.position]).astype(np.float32)


def _logit(x) -> np.ndarray:
    x = np.clip(np.asarray(x, dtype=float), 1e-4, 1 - 1e-4)
    return np.log(x / (1 - x))


def rows_of(run: dict) -> Rows:
    q, raw, y, site, pos, spans, blocks_of, anns = [], [], [], [], [], [], [], []
    for i, p in enumerate(run["predictions"]):
        blocks, _ = run["layout"][p.name]
        ann = load_annotation(_here(p.name))
        assert len(ann.labels) == len(blocks), p.name
        host = urlparse(ann.url).netloc.lower().removeprefix("www.")
        start = len(y)
        q.extend(run["second"][i]); raw.extend(p.raw_content)
        y.extend(int(label != "o") for label in ann.labels)
        site.extend([host or p.name.rsplit("/", 2)[-2] + str(i)] * len(blocks))
        pos.extend(np.arange(len(blocks)) / max(len(blocks) - 1, 1))
        spans.append((start, start + len(blocks)))
        blocks_of.append(blocks); anns.append(ann)
    return Rows(np.asarray(q, float), np.asarray(raw, float), np.asarray(y), site,
                np.asarray(pos), spans, blocks_of, anns)


def site_folds(rows: Rows, groups: int = 5) -> np.ndarray:
    """Each block's group of web sites (the same seeded deal for every
    stacker, so that their figures compare)."""
    sites = sorted(set(rows.site))
    np.random.default_rng(0).shuffle(sites)
    fold_of = {s: i % groups for i, s in enumerate(sites)}
    return np.array([fold_of[s] for s in rows.site])


def cross_fit(X: np.ndarray, rows: Rows, groups: int = 5) -> np.ndarray:
    """Each block's stacked probability from a booster that saw none of its
    web site's pages."""
    fold = site_folds(rows, groups)
    out = np.zeros(len(rows.y))
    for f in range(groups):
        tr, te = fold != f, fold == f
        m = lgb.train({"objective": "binary", "learning_rate": 0.1, "num_leaves": 31,
                       "min_data_in_leaf": 100, "verbose": -1, "num_threads": 1,
                       "feature_fraction": 0.8, "seed": 0},
                      lgb.Dataset(X[tr], rows.y[tr]), 150)
        out[te] = m.predict(X[te])
    return out


def scored(run: dict, config, rows: Rows, q: np.ndarray) -> dict[str, float]:
    """The replay's figures with `q` in place of the trees' probabilities."""
    row = figures(replayed(run, config, second=[q[a:b] for a, b in rows.spans]))
    row["mean3"] = mean(row[k] for k in _HEADLINE)
    return row


def shown(name: str, row: dict[str, float]) -> str:
    return f"{name}: " + "  ".join(f"{k} {row[k]:.4f}" for k in KEYS)
