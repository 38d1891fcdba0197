"""Training the page-type classifier (victor/page_type/) that the second
pass's article bars read: a LightGBM multiclass booster over each page's
signals, learnt from the training pages whose NAME.json (beside NAME.anno,
as data/wcxb's) gives a `page_type`, one of victor.page_type.TYPES. Other
pages (Dragnet's, CleanEval's) carry no type and teach it nothing; they
still get its probabilities when cross-validation measures the bars.

The settings are the research's (docs/notes/second-pass.md, "Page types", has
how often they type held-out pages right); training takes seconds.
"""

from __future__ import annotations

import importlib.metadata
import json
import time
from collections import Counter
from pathlib import Path
from typing import Sequence

import numpy as np

from victor.errors import VictorError, import_extra
from victor.page_type import SIGNALS, TYPES
from victor.settings import key_of

ROUNDS = 300
PARAMS = {"objective": "multiclass", "num_class": len(TYPES), "learning_rate": 0.05,
          "num_leaves": 15, "min_data_in_leaf": 10, "feature_fraction": 0.7,
          "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0, "seed": 0}


def declared(anno: str) -> tuple[str, str]:
    """The page type and address that the NAME.json beside `anno` gives
    (empty where there is none): a cleaned page's address is the one its
    user gives with --url, and a collection's record gives it for its
    pages. A type that is none of TYPES is a one-line error naming the
    file."""
    path = Path(anno).with_suffix(".json")
    if not path.is_file():
        return "", ""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise VictorError(f"{path}: unreadable page record ({e})") from None
    if not isinstance(data, dict):
        return "", ""
    kind = data.get("page_type") or ""
    if kind and kind not in TYPES:
        raise VictorError(f"{path}: page_type {kind!r} is none of {', '.join(TYPES)}")
    url = data.get("url")
    return kind, url if isinstance(url, str) else ""


# LightGBM makes no dataset of one row: fewer typed pages count as none.
FEWEST = 2


def _booster(rows: np.ndarray, kinds: Sequence[str], threads: int):
    lightgbm = import_extra("lightgbm", None, "training the page-type classifier")
    y = np.array([TYPES.index(k) for k in kinds])
    data = lightgbm.Dataset(rows, y, feature_name=list(SIGNALS), free_raw_data=True)
    return lightgbm.train({**PARAMS, "verbose": -1, "num_threads": threads}, data, ROUNDS)


def trained_classifier(rows: np.ndarray, kinds: Sequence[str],
                       threads: int = 1) -> tuple[str, dict]:
    """The classifier over the pages with a type (`kinds`, "" for none)
    of `rows` (each page's victor.page_type.row), as the model file's
    text, and the note a model records of it."""
    started = time.perf_counter()
    typed = np.array([bool(k) for k in kinds], dtype=bool)
    if typed.sum() < FEWEST:
        return shipped_classifier()
    booster = _booster(rows[typed], [k for k in kinds if k], threads)
    note = {"pages": int(typed.sum()), "types": dict(sorted(Counter(k for k in kinds if k)
                                                            .items())),
            "rounds": ROUNDS, "lightgbm": importlib.metadata.version("lightgbm"),
            "seconds": round(time.perf_counter() - started, 1)}
    return booster.model_to_string(), note


def shipped_classifier() -> tuple[str, dict]:
    """The shipped general model's classifier, for a model trained on pages
    of which none gives its type (a user's own): it reads the page alone,
    not the CRF or the trees, so it serves any model of the same signals."""
    from victor.model import load, part_bytes

    shipped = load("general")
    if shipped.page_type is None:
        raise VictorError(f"the config's {key_of('article_bars', 'second-pass')} read a page-type "
                          "classifier, no training page's NAME.json gives a page_type "
                          "(data/wcxb's do), and the shipped general model has none to lend")
    return part_bytes(shipped, "page-type").decode("utf-8"), {**shipped.record["page-type"],
                                    "from": "the shipped general model: no training page "
                                            "gave its type"}


def cross_fitted_types(rows: np.ndarray, kinds: Sequence[str], fold: Sequence[int],
                       threads: int = 1) -> list[dict[str, float] | None]:
    """Each page's probability of every type from a classifier of the
    other folds' typed pages, the same site folds as the trees': the bars
    and readers' sections measured on pages of sites the classifier never
    saw. None for the pages of a fold whose other folds hold fewer than
    FEWEST typed pages; where fewer are typed at all, the shipped
    classifier's, which the model will read."""
    fold_of = np.asarray(fold)
    typed = np.array([bool(k) for k in kinds], dtype=bool)
    if typed.sum() < FEWEST:  # the model will read the shipped classifier: so do its figures
        from victor.page_type import load

        lent = load(shipped_classifier()[0], "the shipped general model's page-type classifier")
        return [_named(p) for p in lent.probabilities(rows)]
    out: list[dict[str, float] | None] = [None] * len(kinds)
    for k in sorted(set(fold_of.tolist())):
        train = typed & (fold_of != k)
        if train.sum() < FEWEST:
            continue
        booster = _booster(rows[train], [kinds[i] for i in np.flatnonzero(train)], threads)
        held = np.flatnonzero(fold_of == k)
        for i, p in zip(held, booster.predict(rows[held])):
            out[i] = _named(p)
    return out


def _named(p: np.ndarray) -> dict[str, float]:
    return {kind: float(q) for kind, q in zip(TYPES, p)}
