"""The CRF as an estimator, in the manner of sklearn-crfsuite:
`CRF(template, params).fit(X, y)`, then `predict`, `predict_marginals`,
`save`, and `CRF.load` for a saved one. X is a list of pages, each a list
of feature dicts (victor.features.compute); y their label lists.

crfsuite trains (L-BFGS) and writes its model file, which is kept in memory
as bytes: cross-validation fits and predicts without files, and `save` is
the one place a model reaches the disk, written under temporary names and
renamed into place, so that an interrupted run leaves the previous model
usable."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import platform
import random
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Mapping, Sequence

import pycrfsuite

from victor.crf.cutoff import rare_items, without
from victor.crf.expansion import ATTRIBUTE_KEYS, Expander
from victor.crf.model import Model, assemble, load_model, metadata_path
from victor.crf.params import SETTABLE, VICTOR_ONLY, training_params
from victor.crf.sampling import stretches
from victor.crf.template import Template
from victor.errors import VictorError
from victor.files import replace_together
from victor.labels import LABELS

Pages = Sequence[Sequence[dict[str, str]]]


class CRF:
    """A linear-chain CRF over a template's attributes. `params` are c1, c2,
    max-iterations, far-other-share and min-sites (victor.crf.params); `on_iteration(i, loss)` hears of
    each L-BFGS iteration. After fit or load, `model_` is the trained Model."""

    def __init__(self, template: Template, params: Mapping[str, object] | None = None,
                 on_iteration: Callable[[int, float], None] | None = None):
        self.template = template
        self.params = training_params(params or {})
        self.on_iteration = on_iteration
        self.model_: Model | None = None

    def fit(self, X: Pages, y: Sequence[Sequence[str]],
            sites: Sequence[str] | None = None) -> CRF:
        """Trains on whole pages; every bad page or label is refused before
        training starts, since training may take hours. `sites` names each
        page's web site, which min-sites counts (each page its own site if
        not given)."""
        counts = _label_counts(X, y)
        if sites is None:
            sites = [str(i) for i in range(len(X))]
        elif len(sites) != len(X):
            raise VictorError(f"{len(X)} pages of features but {len(sites)} sites")
        rare = rare_items(X, sites, int(self.params["min_sites"]))
        trainer = _Trainer(self.on_iteration)
        trainer.set_params({k: v for k, v in self.params.items() if k not in VICTOR_ONLY})
        expander = Expander(self.template, compact=True)
        share = float(self.params["far_other_share"])
        rng = random.Random(0)
        trained = 0
        for blocks, page_labels in zip(X, y):
            if blocks:
                attributes = expander.expand(without(blocks, rare))
                for start, end in stretches(page_labels, share, rng):
                    trainer.append(attributes[start:end], list(page_labels[start:end]))
                    trained += end - start
        with tempfile.TemporaryDirectory(prefix="victor-crf-") as folder:
            started = time.perf_counter()
            try:
                trainer.train(str(Path(folder) / "model.crfsuite"))
            except pycrfsuite.CRFSuiteError as e:
                raise VictorError(f"crfsuite failed to train ({e})") from None
            seconds = time.perf_counter() - started
            data = (Path(folder) / "model.crfsuite").read_bytes()
        template = self.template
        metadata = {
            "labels": dict(sorted(counts.items())),
            "pages": len(X),
            "trained_blocks": trained,
            **({"items_left_out": sum(map(len, rare.values()))} if rare else {}),
            "template": {"source": template.source, "sha256": template.digest,
                         "text": template.text},
            "attribute_keys": ATTRIBUTE_KEYS,
            "params": dict(self.params),
            "iterations": trainer.iterations,
            "final_loss": trainer.loss,
            "training_seconds": round(seconds, 3),
            "trained_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "versions": {"python": platform.python_version(),
                         "python-crfsuite": importlib.metadata.version("python-crfsuite")},
            "model_bytes": len(data),
            "model_sha256": hashlib.sha256(data).hexdigest(),
        }
        self.model_ = assemble(data, metadata, None)
        return self

    def predict(self, X: Pages) -> list[list[str]]:
        """The most likely labels of each page's blocks."""
        model = self._fitted()
        return [model.best_labels(model.scores(page)) for page in X]

    def predict_marginals(self, X: Pages) -> list[list[dict[str, float]]]:
        """For each page, each block's probability of every label."""
        model = self._fitted()
        return [model.marginals(model.scores(page)) for page in X]

    def save(self, path: str | os.PathLike, metadata: Mapping[str, object] | None = None) -> dict:
        """Writes MODEL and MODEL.json beside it, and returns the metadata
        written: the caller's (JSON-serialisable) keys, a `config` key being
        what load_model checks, then what training recorded, overriding any
        key of the same name: the template itself, since tagging must expand
        features exactly as training did, and the model file's size and
        hash, which is how a truncated or mismatched file is recognised."""
        model = self._fitted()
        path = Path(path)
        written = {**(metadata or {}), **model.metadata}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            replace_together({path: model.data, metadata_path(path): (
                json.dumps(written, indent=2, ensure_ascii=False) + "\n").encode("utf-8")})
        except FileExistsError:  # from mkdir: "File exists" would not say which
            raise VictorError(f"{path}: cannot write model ({path.parent} is a file, "
                              "not a folder)") from None
        except OSError as e:
            raise VictorError(f"{path}: cannot write model ({e.strerror or e})") from None
        model.path, model.metadata = path, written
        return written

    @classmethod
    def load(cls, path: str | os.PathLike, expected_config: object = None,
             expected_settings: dict | None = None) -> CRF:
        """A saved model, checked as load_model checks it."""
        model = load_model(path, expected_config, expected_settings)
        estimator = cls(model.template, {k: v for k, v in model.metadata.get("params", {}).items()
                                         if k in SETTABLE})
        estimator.model_ = model
        return estimator

    def _fitted(self) -> Model:
        if self.model_ is None:
            raise VictorError("the CRF has not been fitted or loaded")
        return self.model_


def train(sequences: Pages, labels: Sequence[Sequence[str]], template: Template,
          params: Mapping[str, object], model_path: str | os.PathLike,
          metadata: Mapping[str, object],
          on_iteration: Callable[[int, float], None] | None = None) -> dict:
    """Fits a CRF and saves it in one call; returns the metadata written."""
    return CRF(template, params, on_iteration).fit(sequences, labels).save(model_path, metadata)


def _label_counts(X: Pages, y: Sequence[Sequence[str]]) -> Counter[str]:
    if len(X) != len(y):
        raise VictorError(f"{len(X)} pages of features but {len(y)} of labels")
    counts: Counter[str] = Counter()
    for number, (blocks, page_labels) in enumerate(zip(X, y), start=1):
        if len(blocks) != len(page_labels):
            raise VictorError(f"training page {number} has {len(blocks)} blocks "
                              f"but {len(page_labels)} labels")
        counts.update(page_labels)
    unknown = sorted(set(counts) - set(LABELS))
    if unknown:
        raise VictorError(f"unknown labels {unknown} in training data "
                          f"(expected {', '.join(LABELS)})")
    if not counts:
        raise VictorError("no training blocks")
    return counts


class _Trainer(pycrfsuite.Trainer):
    """crfsuite's L-BFGS trainer, reporting iterations to a callback instead
    of printing its log."""

    def __init__(self, on_iteration: Callable[[int, float], None] | None):
        super().__init__(algorithm="lbfgs", verbose=True)
        self.report = on_iteration
        self.iterations = 0
        self.loss: float | None = None

    def on_iteration(self, log, info):
        self.iterations = info["num"]
        self.loss = info["loss"]
        if self.report is not None:
            self.report(self.iterations, self.loss)

    def on_start(self, log): pass
    def on_featgen_progress(self, log, percent): pass
    def on_featgen_end(self, log): pass
    def on_prepared(self, log): pass
    def on_prepare_error(self, log): pass
    def on_optimization_end(self, log): pass
    def on_end(self, log): pass
