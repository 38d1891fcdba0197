"""Training and cross-validation from annotated pages.

Cross-validation splits by web site (victor.training.folds), never by blocks or by
pages: blocks of one page, and pages of one site, share a template, and a
template on both sides of a fold makes the figures look better than
cleaning a page of an unseen site ever is.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from victor import crf, decoding, features, output, perplexity
from victor.decoding import calibration
from victor.training import evaluate
from victor.perplexity import ngram
from victor.annotation.align import read_gold
from victor.annotation import load_annotation, load_training_page
from victor.training.folds import PageGroup, page_folds, page_group, site_folds
from victor.config import MODEL_DIR, ROOT, Config, settings
from victor.errors import VictorError
from victor.labels import OTHER


@dataclass
class Example:
    name: str  # the .anno file
    url: str
    texts: list[str]
    labels: list[str]
    features: list[dict[str, str]]
    gold: str  # the person's text the labels were made from (words only matter)
    group: PageGroup  # its web site and stratum, for the folds


def gold_text(anno_path: Path, texts: list[str], labels: list[str]) -> str:
    """The text a person kept: the words of `NAME.txt` beside `NAME.anno`
    read as the gold alignment read them when the labels were made (so
    Dragnet's appended comments, labelled o, are not counted as missed),
    else the annotation's own content."""
    beside = anno_path.with_suffix(".txt")
    if not beside.exists():
        return output.plain_text(texts, labels)
    return " ".join(read_gold(beside).words)


def load_example(anno_path: str, config: Config, lm=None,
                 names: Sequence[str] | None = None) -> Example:
    """One annotated page with the `names` features (by default the
    config's selection)."""
    annotation = load_annotation(anno_path)
    page, labels = load_training_page(anno_path, config, annotation)
    texts = [b.text for b in page.blocks]
    url = annotation.url or page.url
    group = page_group(anno_path, url, page.meta.url)
    return Example(anno_path, url, texts, labels, features.compute(page, config, lm, names),
                   gold_text(Path(anno_path), texts, labels), group)


def load_examples(anno_paths: Sequence[str], config: Config, lm=None,
                  disabled: Sequence[str] = ()) -> list[Example]:
    """All pages with the config's features less the `disabled` ones
    (features.select_features), or a one-line error for the first page that
    cannot be used: training on a silently shortened set would mislead."""
    if not anno_paths:
        raise VictorError("no annotation files given")
    names = features.select_features(config, disabled)
    return [load_example(p, config, lm, names) for p in anno_paths]


def train(examples: Sequence[Example], config: Config, model_path: str | os.PathLike,
          params: dict, on_iteration: Callable[[int, float], None] | None = None,
          disabled: Sequence[str] = ()) -> dict:
    """Fits a model and writes it with what it was trained with and on;
    returns the metadata written. The examples' features are the config's
    less the `disabled` ones, which the model records so that cleaning with
    it computes the same."""
    metadata = {
        "config": config.name,
        "config_path": _portable(config.path),
        "config_sha256": config.digest,
        "settings": settings(config),
        "training_pages": [e.name for e in examples],
        **({"disabled": list(disabled)} if disabled else {}),
    }
    return fit(examples, config, params, on_iteration).save(model_path, metadata)


def fit(examples: Sequence[Example], config: Config, params: dict,
        on_iteration: Callable[[int, float], None] | None = None) -> crf.CRF:
    """A CRF of the config's template fitted to the examples, in memory."""
    template = crf.load_template(config.template)
    template = replace(template, source=_portable(Path(template.source)))
    return crf.CRF(template, params, on_iteration).fit([e.features for e in examples],
                                                       [e.labels for e in examples],
                                                       [e.group.site for e in examples])


def _portable(path: Path) -> str:
    """A path inside the project as relative to it, so that shipped model
    metadata does not name the machine it was trained on."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


@dataclass
class Prediction:
    """What a fold's model said of one test page, for scorers beyond the
    fold's own (benchmarks/quality.py)."""

    name: str  # the .anno file
    labels: list[str]  # as the Cleaner decodes them (victor.decoding)
    content: list[float]  # each block's probability of being content
    path: list[str]  # the best path, before decoding widens it
    marginals: list[dict[str, float]]  # for decoding it otherwise (benchmarks/quality.py)


@dataclass
class FoldResult:
    fold: int
    pages: int
    blocks: int
    accuracy: float
    content_accuracy: float
    words: evaluate.Overlap
    shingles: evaluate.Overlap
    predictions: list[Prediction] = field(default_factory=list, repr=False)


def folds(examples: Sequence[Example], k: int, split: str = "site",
          seed: int = 0) -> list[list[int]]:
    """Example indices of each of k folds: every page is tested exactly
    once, and the split is the same on every run."""
    if split == "page":
        return page_folds(len(examples), k, seed)
    return site_folds([e.group for e in examples], k, seed)


# The shipped language model's settings (docs/perplexity.md).
FOLD_LM_ORDER = 2
FOLD_LM_MIN_COUNT = 2


def gold_paragraphs(example: Example) -> list[str]:
    """The person's text as paragraphs, for a language model to learn
    sentences from: `NAME.txt` beside the annotation, else the annotation's
    own content."""
    beside = Path(example.name).with_suffix(".txt")
    if beside.exists():
        return ngram.text_paragraphs(beside)
    return output.plain_text(example.texts, example.labels).split("\n\n")


def fold_language_model(train_set: Sequence[Example], path: Path) -> perplexity.PerplexityModel:
    """A model of the training pages' gold text only, written to `path`.
    The shipped model has read the gold of every page we test on; scoring a
    test page with it would let the perplexity feature, and the filter,
    know the page's answer."""
    corpus = ngram.sentence_words(p for e in train_set for p in gold_paragraphs(e))
    ngram.train(corpus, FOLD_LM_ORDER, FOLD_LM_MIN_COUNT,
                     source=f"gold text of {len(train_set)} training pages").write_arpa(path)
    return perplexity.PerplexityModel.load(path)


def with_perplexity(examples: Sequence[Example], config: Config,
                    lm: perplexity.PerplexityModel) -> list[Example]:
    """The examples with their perplexity column computed under `lm` by the
    features package itself (the page is read again for it: features are
    computed from pages, and a page takes milliseconds)."""
    out = []
    for e in examples:
        page, _ = load_training_page(e.name, config)
        column = features.compute(page, config, lm, ("perplexity",))
        out.append(replace(e, features=[{**f, **c} for f, c in zip(e.features, column)]))
    return out


def _has_feature(examples: Sequence[Example], name: str) -> bool:
    return any(name in e.features[0] for e in examples if e.features)


def run_fold(args) -> FoldResult:
    fold, train_set, test_set, config, params, workdir = args
    if config.extras.get("perplexity") and _has_feature(train_set, "perplexity"):
        lm = fold_language_model(train_set, Path(workdir) / f"fold{fold}.arpa")
        train_set = with_perplexity(train_set, config, lm)
        test_set = with_perplexity(test_set, config, lm)
    return score_fold(fold, fit(train_set, config, params), test_set, config)


def score_fold(fold: int, estimator: crf.CRF, test_set: Sequence[Example],
               config: Config) -> FoldResult:
    """A fitted CRF's figures on pages it has not seen, decoded as the
    Cleaner decodes them (victor.decoding, the config's `keep-above` and
    `floor-share`)."""
    predicted, truth, predictions = [], [], []
    words = shingles = evaluate.Overlap(0, 0, 0)
    pages = [e.features for e in test_set]
    for e, path, marginals in zip(test_set, estimator.predict(pages),
                                  estimator.predict_marginals(pages)):
        labels, _ = decoding.decode(path, marginals, config.keep_above, config.floor_share)
        predictions.append(Prediction(e.name, labels, calibration.content_probabilities(marginals),
                                      path, marginals))
        predicted.extend(labels)
        truth.extend(e.labels)
        score = evaluate.score_page(e.name, output.plain_text(e.texts, labels), e.gold)
        words += score.words
        shingles += score.shingles
    return FoldResult(fold, len(test_set), len(truth), evaluate.label_accuracy(predicted, truth),
                      evaluate.content_accuracy(predicted, truth), words, shingles, predictions)


def fold_tasks(examples: list[Example], k: int,
                split: str = "site") -> Iterator[tuple[int, list[Example], list[Example]]]:
    """(fold number, training pages, test pages) for each of the k folds."""
    for i, test_idx in enumerate(folds(examples, k, split), 1):
        test = set(test_idx)
        yield (i, [e for j, e in enumerate(examples) if j not in test],
               [examples[j] for j in test_idx])


def cross_validate(examples: list[Example], config: Config, k: int, params: dict,
                   workdir: str, jobs: int = 1, split: str = "site") -> list[FoldResult]:
    """Folds run in `jobs` processes; each trains on the other folds' pages.
    With the perplexity extra on (and not disabled), each fold first
    recomputes the perplexity of every page under a language model of its
    own training pages' gold (fold_language_model), whatever model the
    examples were loaded with."""
    tasks = [(i, train_set, test_set, config, params, workdir)
             for i, train_set, test_set in fold_tasks(examples, k, split)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(run_fold, tasks))
    return [run_fold(t) for t in tasks]


def cross_validate_filter(examples: list[Example], k: int, limit: float,
                          workdir: str, split: str = "site") -> list[FoldResult]:
    """The perplexity filter on its own (no CRF), on the folds of
    cross_validate: every block of a test page is a line of its text, and
    the filter under a language model of the other folds' gold keeps the
    sentences at most `limit` perplexing. Scored by words and shingles as
    the CRF is; the filter keeps sentences, not blocks, so the block
    accuracies are NaN."""
    results = []
    for i, train_set, test_set in fold_tasks(examples, k, split):
        lm = fold_language_model(train_set, Path(workdir) / f"fold{i}.arpa")
        keep = perplexity.PerplexityFilter(lm, limit)
        words = shingles = evaluate.Overlap(0, 0, 0)
        for e in test_set:
            score = evaluate.score_page(e.name, keep.process("\n".join(e.texts)), e.gold)
            words += score.words
            shingles += score.shingles
        results.append(FoldResult(i, len(test_set), sum(len(e.labels) for e in test_set),
                                  math.nan, math.nan, words, shingles))
    return results


def total(results: list[FoldResult]) -> FoldResult:
    """Accuracies weighted by blocks, words and shingles summed over pages."""
    blocks = sum(r.blocks for r in results)
    words = shingles = evaluate.Overlap(0, 0, 0)
    for r in results:
        words += r.words
        shingles += r.shingles
    return FoldResult(0, sum(r.pages for r in results), blocks,
                      sum(r.accuracy * r.blocks for r in results) / blocks,
                      sum(r.content_accuracy * r.blocks for r in results) / blocks,
                      words, shingles)


def report(results: list[FoldResult]) -> str:
    head = (f"{'fold':>5} {'pages':>5} {'blocks':>6} {'acc':>6} {'c/n acc':>7} "
            f"{'P':>6} {'R':>6} {'F1':>6} {'sh-F1':>6}")
    rows = [head]
    all_ = total(results)
    for r in results + [all_]:
        name = "all" if r is all_ else str(r.fold)
        rows.append(f"{name:>5} {r.pages:>5} {r.blocks:>6} {r.accuracy:6.3f} "
                    f"{r.content_accuracy:7.3f} {r.words.precision:6.3f} {r.words.recall:6.3f} "
                    f"{r.words.f1:6.3f} {r.shingles.f1:6.3f}")
    rows.append(f"accuracy={all_.accuracy:.4f} content_accuracy={all_.content_accuracy:.4f} "
                f"f1={all_.words.f1:.4f}")
    return "\n".join(rows)


def calibrate(results: list[FoldResult], examples: Sequence[Example], split: str = "site") -> dict:
    """The calibration that the folds' held-out pages call for
    (fitted_calibration)."""
    gold = {e.name: e.labels for e in examples}
    probabilities, content = [], []
    for r in results:
        for p in r.predictions:
            probabilities.extend(p.content)
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


def label_counts(examples: Iterable[Example]) -> Counter[str]:
    c: Counter[str] = Counter()
    for e in examples:
        c.update(e.labels)
    return c


def main(args: argparse.Namespace) -> int:
    """learn.py's work once its arguments are parsed; returns the exit status."""
    import tempfile
    import time

    from victor.config import load_config

    try:
        config = load_config(args.config)
        params = dict(config.crf)
        for key, value in (("c1", args.c1), ("c2", args.c2), ("max-iterations", args.max_iterations),
                           ("far-other-share", args.far_other_share),
                           ("min-sites", args.min_sites)):
            if value is not None:
                params[key] = value
        model_path = Path(args.output or config.model)
        if not args.cross_validate:
            check_model_target(model_path, args.overwrite, args.replace_shipped_model)
        files = list(annotation_files(args.files))
        started = time.perf_counter()
        examples = load_examples(files, config, perplexity.for_config(config), args.disable)
        print(f"{len(examples)} pages, {sum(len(e.labels) for e in examples)} blocks, "
              f"features in {time.perf_counter() - started:.1f}s", file=sys.stderr)
        if args.cross_validate:
            with tempfile.TemporaryDirectory(prefix="victor-cv-") as workdir:
                results = cross_validate(examples, config, args.cross_validate, params,
                                         workdir, args.jobs, args.split)
            print(report(results))
            print(calibration_report(calibrate(results, examples, args.split)))
            return 0
        progress = _Progress() if sys.stderr.isatty() else None
        meta = train(examples, config, model_path, params, progress, args.disable)
        if progress:
            progress.close()
        print(f"wrote {model_path}: {meta['pages']} pages, labels {meta['labels']}, "
              f"{meta['iterations']} iterations in {meta['training_seconds']:.1f}s",
              file=sys.stderr)
        if args.calibrate:
            with tempfile.TemporaryDirectory(prefix="victor-cv-") as workdir:
                results = cross_validate(examples, config, args.calibrate, params,
                                         workdir, args.jobs, args.split)
            fitted = calibrate(results, examples, args.split)
            crf.set_calibration(model_path, fitted)
            print(f"calibrated {model_path}: " + calibration_report(fitted), file=sys.stderr)
        return 0
    except VictorError as e:
        if args.debug:
            traceback.print_exc()
        print(f"error: {e}", file=sys.stderr)
        return 2


def check_model_target(path: Path, overwrite: bool, replace_shipped: bool) -> None:
    """Before hours of training, that the model may be written there: a
    shipped model is replaced only when asked for in so many words, any
    other model file only with `overwrite`, and no folders are made (a
    mistyped -o would leave them behind)."""
    shipped = path.resolve().parent == MODEL_DIR.resolve()
    if path.exists():
        if shipped and not replace_shipped:
            raise VictorError(f"{path}: a model shipped with Victor; write yours elsewhere with "
                              "-o FILE, or give --replace-shipped-model to replace it")
        if not shipped and not overwrite:
            raise VictorError(f"{path}: exists; give --overwrite to replace it, or another -o")
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        raise VictorError(f"{path}: cannot write model ({folder} is a file, not a folder)")
    if not folder.exists():
        raise VictorError(f"{path}: cannot write model (no folder {folder}; make it first)")


class _Progress:
    """One status line on the terminal while L-BFGS iterates."""

    def __call__(self, iteration: int, loss: float) -> None:
        print(f"\riteration {iteration}  loss {loss:.2f}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        print(file=sys.stderr)


def annotation_files(inputs: Iterable[str]) -> Iterator[str]:
    """Files as given; folders walked for .anno files in sorted order."""
    for item in inputs:
        if os.path.isdir(item):
            for root, dirs, names in os.walk(item):
                dirs.sort()
                yield from (os.path.join(root, n) for n in sorted(names) if n.endswith(".anno"))
        else:
            yield item
