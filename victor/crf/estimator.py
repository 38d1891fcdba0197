"""The CRF as an estimator: sklearn-crfsuite's CRF, which the design names,
with Victor's templates, cutoff and sampling added in front of its `fit`.

`CRF(template, c2=1.0).fit(X, y, sites)` (`CRF()`: the default config's
template and parameters' defaults), then `predict`,
`predict_marginals`, `save`, and `CRF.load` for a saved one. X is a list of
pages, each a list of feature dicts (victor.features.compute); y their
label lists. The hyperparameters are keywords, stored as given and checked
when fitting, so that `sklearn.base.clone` and grid searches with grouped
folds work on it as on any scikit-learn estimator.

sklearn-crfsuite trains (crfsuite's L-BFGS) from the attribute strings the
template makes; the model file it writes is read into memory and its
scratch file removed, so that cross-validation fits and predicts without
files, and `save` is the one place a model reaches the disk. Prediction runs
on Victor's numpy tagger (victor.crf.tagger), not on crfsuite's: it labels
the same without handing crfsuite every attribute string of every block."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import platform
import random
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

import pycrfsuite
import sklearn_crfsuite

from victor.crf.cutoff import rare_items, without
from victor.crf.expansion import ATTRIBUTE_KEYS, Expander
from victor.crf.model import Model, assemble, load_model, metadata_path
from victor.crf.params import DEFAULT_PARAMS, SETTABLE, check_params, training_params
from victor.crf.sampling import stretches
from victor.crf.template import Template
from victor.errors import VictorError
from victor.files import replace_together
from victor.labels import LABELS

Pages = Sequence[Sequence[dict[str, str]]]


def default_template() -> Template:
    """The default config's template, which `CRF()` fits with."""
    from victor.config import DEFAULT_CONFIG, load_config
    from victor.crf.template import load_template

    return load_template(load_config(DEFAULT_CONFIG).template)


class CRF(sklearn_crfsuite.CRF):
    """A linear-chain CRF over a template's attributes. The keywords are
    the training parameters of victor.crf.params (c1, c2, max_iterations,
    far_other_share, min_sites); `on_iteration(i, loss)` hears of each
    L-BFGS iteration. After fit or load, `model_` is the trained Model.
    `template` None is the default config's (victor.config.DEFAULT_CONFIG),
    read when fitting: scikit-learn's convention that every constructor
    argument has a default, which its estimator checks and `clone` follow."""

    def __init__(self, template: Template | None = None, *, c1: float = DEFAULT_PARAMS["c1"],
                 c2: float = DEFAULT_PARAMS["c2"],
                 max_iterations: int = DEFAULT_PARAMS["max_iterations"],
                 far_other_share: float = DEFAULT_PARAMS["far_other_share"],
                 min_sites: int = DEFAULT_PARAMS["min_sites"],
                 on_iteration: Callable[[int, float], None] | None = None):
        super().__init__(algorithm="lbfgs", c1=c1, c2=c2, max_iterations=max_iterations,
                         all_possible_transitions=DEFAULT_PARAMS["feature.possible_transitions"],
                         trainer_cls=_Trainer)
        self.template = template
        self.far_other_share = far_other_share
        self.min_sites = min_sites
        self.on_iteration = on_iteration

    def fit(self, X: Pages, y: Sequence[Sequence[str]],
            sites: Sequence[str] | None = None) -> CRF:
        """Trains on whole pages; every bad page, label or parameter is
        refused before training starts, since training may take hours.
        `sites` names each page's web site, which min-sites counts (each
        page its own site if not given)."""
        params = training_params({k: getattr(self, k) for k in SETTABLE})
        counts = _label_counts(X, y)
        if sites is None:
            sites = [str(i) for i in range(len(X))]
        elif len(sites) != len(X):
            raise VictorError(f"{len(X)} pages of features but {len(sites)} sites")
        rare = rare_items(X, sites, int(params["min_sites"]))
        rng = random.Random(0)
        spans = [[] if not blocks else stretches(labels, float(params["far_other_share"]), rng)
                 for blocks, labels in zip(X, y)]
        template = self.template if self.template is not None else default_template()
        sequences = _Stretches(X, spans, rare, Expander(template, compact=True))
        started = time.perf_counter()
        try:
            super().fit(sequences, [list(labels[start:end]) for labels, page in zip(y, spans)
                                    for start, end in page])
            data = Path(self.modelfile.name).read_bytes()
        except pycrfsuite.CRFSuiteError as e:
            raise VictorError(f"crfsuite failed to train ({e})") from None
        finally:
            self.modelfile.cleanup()
        seconds = time.perf_counter() - started
        last = self.training_log_.last_iteration or {}
        metadata = {
            "labels": dict(sorted(counts.items())),
            "pages": len(X),
            "trained_blocks": sum(end - start for page in spans for start, end in page),
            **({"items_left_out": sum(map(len, rare.values()))} if rare else {}),
            "template": {"source": template.source, "sha256": template.digest,
                         "text": template.text},
            "attribute_keys": ATTRIBUTE_KEYS,
            "params": params,
            "iterations": last.get("num", 0),
            "final_loss": last.get("loss"),
            "training_seconds": round(seconds, 3),
            "trained_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "versions": {"python": platform.python_version(),
                         "python-crfsuite": importlib.metadata.version("python-crfsuite"),
                         "sklearn-crfsuite": importlib.metadata.version("sklearn-crfsuite")},
            "model_bytes": len(data),
            "model_sha256": hashlib.sha256(data).hexdigest(),
        }
        self.model_ = assemble(data, metadata, None)
        return self

    def _get_trainer(self) -> _Trainer:
        trainer = super()._get_trainer()
        trainer.report = self.on_iteration
        return trainer

    def predict(self, X: Pages) -> list[list[str]]:
        """The most likely labels of each page's blocks."""
        model = self._fitted()
        return [model.best_labels(model.scores(page)) for page in X]

    def predict_marginals(self, X: Pages) -> list[list[dict[str, float]]]:
        """For each page, each block's probability of every label."""
        model = self._fitted()
        return [model.marginals(model.scores(page)) for page in X]

    @property
    def classes_(self) -> list[str]:
        return list(self._fitted().labels)

    def __sklearn_is_fitted__(self) -> bool:
        return getattr(self, "model_", None) is not None

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
        estimator = cls(model.template, **{k: v for k, v in model.metadata.get("params", {}).items()
                                           if k in SETTABLE})
        estimator.model_ = model
        return estimator

    def _fitted(self) -> Model:
        model = getattr(self, "model_", None)
        if model is None:
            raise VictorError("the CRF has not been fitted or loaded")
        return model


class _Stretches:
    """The attribute strings of every stretch to train on, made page by page
    as crfsuite takes them in, so that a page's attributes are not all held
    in memory at once: crfsuite copies each sequence when it is appended."""

    def __init__(self, X: Pages, spans: list[list[tuple[int, int]]], rare, expander: Expander):
        self.X, self.spans, self.rare, self.expander = X, spans, rare, expander

    def __iter__(self) -> Iterator[list[list[str]]]:
        for blocks, page in zip(self.X, self.spans):
            if page:
                attributes = self.expander.expand(without(blocks, self.rare))
                for start, end in page:
                    yield attributes[start:end]


def train(sequences: Pages, labels: Sequence[Sequence[str]], template: Template,
          params: Mapping[str, object], model_path: str | os.PathLike,
          metadata: Mapping[str, object],
          on_iteration: Callable[[int, float], None] | None = None) -> dict:
    """Fits a CRF and saves it in one call; returns the metadata written.
    `params` as a config's `crf:` section spells them (max-iterations)."""
    return CRF(template, on_iteration=on_iteration,
               **check_params(params, "crf settings")).fit(sequences, labels).save(model_path,
                                                                                   metadata)


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
    """crfsuite's trainer as sklearn-crfsuite makes it, telling `report` of
    each iteration instead of printing its log (which its parser still
    reads: the estimator's training_log_)."""

    report: Callable[[int, float], None] | None = None

    def message(self, message: str) -> None:
        if self.logparser.feed(message) == "iteration" and self.report is not None:
            self.report(self.logparser.last_iteration["num"], self.logparser.last_iteration["loss"])
