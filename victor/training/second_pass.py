"""Training the second pass (victor/rescoring/) from a saved benchmark run.

The trees must learn from first-pass probabilities like the ones they will
see: those of pages the CRF had not been trained on. A benchmark run
(`python3 -m benchmarks.quality --no-transfer --save-run RUN.json`) holds
them: each page's content probabilities and decoded labels from the model
of the 5 site folds that did not see it. Each page is read again here as
the cleaner reads it (its blocks, the first pass's feature columns), and
must line up with the run block for block (the run's gold labels equal).

Two boosters over every page, each of another seed, with the research
winner's settings (docs/second-pass.md: 100 rounds, 31 leaves, learning rate
0.15, blocks weighted by their words; the rest as research/second_pass.py's
PARAMS), written as LightGBM text models one after another, with a JSON note
beside them of what they were trained from.

The run's labels are the ones the trees read in the cleaner: the best path
widened, code, tables and lists kept whole (victor.decoding.widened).
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from victor import features, files
from victor.annotation import load_training_page
from victor.config import Config
from victor.errors import VictorError, import_extra, read_utf8
from victor.labels import OTHER
from victor.rescoring import mean_probability, page_paths, predict_options
from victor.rescoring.features import fast_features, feature_names, first_columns
from victor.training.dataset import Example

ROUNDS = 100
# Boosters of as many seeds, their probabilities averaged: one draw moved
# Dragnet's held-out F1 over 0.010, the mean of any two of five draws
# 0.003 (docs/second-pass.md, "Steadier trees"); each booster more is a
# millisecond a page that the default config's speed cannot spare.
SEEDS = 2
PARAMS = dict(objective="binary", learning_rate=0.15, num_leaves=31, min_data_in_leaf=200,
              feature_fraction=0.7, bagging_fraction=0.7, bagging_freq=1, lambda_l2=1.0,
              verbose=-1, seed=0)
# The first pass's feature columns the trees do not read: a bag of class
# words is no number (research/second_pass_pages.py left it out too).
LEFT_OUT = frozenset({"class-words"})


@dataclass
class RunPage:
    """One page of the run as the second pass trains on it."""

    name: str
    page_features: np.ndarray  # PAGE_FEATURES, a row a block
    columns: object            # the first pass's Columns
    content: np.ndarray        # gold: any label but o
    words: np.ndarray          # each block's words, its weight


def read_run(path: str | Path, config: str) -> dict[str, dict[str, list]]:
    """The run's `config` part, keyed by the annotation's folder and name
    (`wcxb/0001.anno`): a run records the paths of the clone it ran in."""
    try:
        run = json.loads(read_utf8(path, "saved benchmark run"))[config]
    except ValueError as e:
        raise VictorError(f"{path}: not a saved benchmark run ({e})") from None
    except (KeyError, TypeError):
        raise VictorError(f"{path}: no first pass of config {config!r} in this run") from None
    out: dict[str, dict[str, list]] = {}
    for anno in run["content"]:
        out[_key(anno)] = {k: run[k][anno] for k in ("content", "labels", "truth")}
    return out


def _key(anno: str | Path) -> str:
    p = Path(anno)
    return f"{p.parent.name}/{p.name}"


def run_page(anno: str, saved: dict[str, list], config: Config,
             selected: Sequence[str]) -> RunPage:
    """A page read as the cleaner reads it, with the run's first pass."""
    page, truth = load_training_page(anno, config)
    if truth != saved["truth"]:
        raise VictorError(f"{anno}: its blocks do not line up with the run's "
                          f"({len(truth)} blocks here, {len(saved['truth'])} there)")
    texts = [b.text for b in page.blocks]
    words = np.fromiter(map(len, map(str.split, texts)), dtype=np.float64, count=len(texts))
    columns = features.columns(page, config, None, selected)
    own = fast_features(page_paths(columns, page.blocks), texts,
                        np.asarray(saved["content"], dtype=np.float64), saved["labels"], words)
    return RunPage(anno, own, columns,
                   np.array([lab != OTHER for lab in truth], dtype=np.float32),
                   np.maximum(words, 1).astype(np.float32))


def first_names(pages: Sequence[RunPage]) -> list[str]:
    """The first pass's columns the trees read: every column any page has,
    but LEFT_OUT, sorted (research/second_pass.py's order)."""
    return sorted({n for pg in pages for n in pg.columns.names} - LEFT_OUT)


def _boosters(pages: Sequence[RunPage], names: Sequence[str], rounds: int,
              threads: int) -> tuple[list, int]:
    """SEEDS boosters over `pages` (the trees' matrix: PAGE_FEATURES, then
    the first-pass columns `names`), blocks weighted by their words, each of
    another seed; and the number of blocks."""
    lightgbm = import_extra("lightgbm", None, "training the second pass")
    X = np.vstack([matrix(pg, names) for pg in pages])
    y = np.concatenate([pg.content for pg in pages])
    weight = np.concatenate([pg.words for pg in pages])
    # A Dataset a seed: its bins are drawn with the seed too.
    return [lightgbm.train({**PARAMS, "seed": seed, "num_threads": threads},
                           lightgbm.Dataset(X, y, weight=weight, feature_name=feature_names(names),
                                            free_raw_data=True), rounds)
            for seed in range(SEEDS)], len(X)


def matrix(pg: RunPage, names: Sequence[str]) -> np.ndarray:
    return np.hstack([pg.page_features, first_columns(pg.columns, list(names))])


def train_second_pass(annos: Sequence[str], run_path: str | Path, config: Config,
                      output: Path, rounds: int = ROUNDS, threads: int = 1) -> dict:
    """Trains the booster on the `annos` pages of the saved run and writes
    it to `output` (a LightGBM text model) and its note to `output`.json;
    returns the note."""
    import_extra("lightgbm", None, "training the second pass")
    started = time.perf_counter()
    run = read_run(run_path, config.model_config)
    missing = [a for a in annos if _key(a) not in run]
    if missing:
        raise VictorError(f"{missing[0]}: not in the run {run_path} "
                          f"({len(missing)} of {len(annos)} pages are not)")
    selected = features.select_features(config, ())
    pages = [run_page(a, run[_key(a)], config, selected) for a in annos]
    names = first_names(pages)
    print(f"{len(pages)} pages read in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    boosters, blocks = _boosters(pages, names, rounds, threads)
    files.write_atomic(output, "".join(b.model_to_string() for b in boosters))
    note = {"first_pass_config": config.name, "run": str(run_path),
            "run_sha256": hashlib.sha256(Path(run_path).read_bytes()).hexdigest(),
            "pages": len(pages), "blocks": blocks, "rounds": rounds, "seeds": SEEDS,
            "params": PARAMS, "weight": "words", "features": feature_names(names),
            "seconds": round(time.perf_counter() - started, 1)}
    output.with_name(output.name + ".json").write_text(json.dumps(note, indent=1) + "\n",
                                                       encoding="utf-8")
    return note


def cross_fitted(pages: Sequence[RunPage], fold: Sequence[int], early_stop: float | None,
                 rounds: int = ROUNDS, threads: int = 1) -> list[np.ndarray]:
    """Each page's second-pass probabilities from trees trained, as the
    shipped ones are, on the other folds' pages only: the second pass
    measured on pages of sites neither pass saw. `fold` is each page's
    first-pass fold, so that both passes hold out the same sites. (A small
    leak, as in stacking generally: the first-pass model that scored a
    training page of fold j was trained on the other folds, the test fold
    among them.) `early_stop`: the config's prediction early stopping."""
    names = first_names(pages)
    out: list[np.ndarray] = [np.zeros(0)] * len(pages)
    for k in sorted(set(fold)):
        boosters, _ = _boosters([pg for pg, f in zip(pages, fold) if f != k], names, rounds,
                                threads)
        for i, f in enumerate(fold):
            if f == k:
                out[i] = mean_probability(boosters, matrix(pages[i], names),
                                          predict_options(early_stop))
    return out


def held_out_probabilities(predictions: Sequence, examples: Mapping[str, Example],
                           fold: Mapping[str, int], config: Config,
                           threads: int = 1) -> list[np.ndarray]:
    """Each held-out page's second-pass probabilities: `config`'s trees'
    settings cross_fitted on the folds of its first pass. `predictions`:
    the first pass's, each with the page's `name` (its .anno), decoded
    `widened` labels (what the trees read) and `content` probabilities
    (victor.training.crossval.Prediction)."""
    settings = config.second_pass
    if settings is None:
        raise VictorError(f"config {config.name} has no second pass")
    selected = features.select_features(config, ())
    pages = [run_page(p.name, {"content": p.content, "labels": p.widened,
                               "truth": examples[p.name].labels}, config, selected)
             for p in predictions]
    return cross_fitted(pages, [fold[p.name] for p in predictions], settings.early_stop,
                        threads=threads)
