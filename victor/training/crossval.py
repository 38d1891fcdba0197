"""Cross-validation from annotated pages (the calibration its held-out
pages call for is fitted in temperature.py).

Cross-validation splits by web site (victor.training.folds), never by blocks or by
pages: blocks of one page, and pages of one site, share a template, and a
template on both sides of a fold makes the figures look better than
cleaning a page of an unseen site ever is.
"""

from __future__ import annotations

from contextlib import nullcontext
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from victor import crf, decoding, output
from victor.config import Config
from victor.decoding import calibration
from victor.training import evaluate
from victor.training.dataset import Example
from victor.training.fitting import fit
from victor.training.fold_perplexity import fold_language_model, has_feature, with_perplexity
from victor.training.folds import page_folds, site_folds
from victor.training.second_pass import held_out


@dataclass
class Prediction:
    """What a fold's model said of one test page, for scorers beyond the
    fold's own (benchmarks/quality/)."""

    name: str  # the .anno file
    labels: list[str]  # as the Cleaner decides them (victor.decoding.decide)
    # Each block's probability of being content, the CRF's own (before the
    # calibration these pages are fitting).
    raw_content: list[float]
    path: list[str]  # the best path, before decoding widens it
    marginals: list[dict[str, float]]  # for deciding it otherwise (benchmarks/)
    widened: list[str]  # what the second pass's trees read (victor.decoding.widened)
    # The second pass's probabilities, once its trees are cross-fitted (with_second_pass).
    second: list[float] | None = None
    # The held-out probability of each page type, where the config's
    # decision reads it: deciding the page again needs it too.
    page_type: dict[str, float] | None = None


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
    scores: list[evaluate.PageScore] = field(default_factory=list, repr=False)  # page by page


def folds(examples: Sequence[Example], k: int, split: str = "site",
          seed: int = 0) -> list[list[int]]:
    """Example indices of each of k folds: every page is tested exactly
    once, and the split is the same on every run. The pages are dealt in
    the order of their names, whatever order they were given in: the
    dealing breaks ties (a site with as many pages of two kinds) by the
    first page seen, and a tie settled otherwise moves every later site
    of the shuffle, so that `learn data/wcxb data/dragnet` and the
    benchmark's collections in another order tested most pages in other
    folds."""
    order = sorted(range(len(examples)), key=lambda i: examples[i].name)
    dealt = (page_folds(len(order), k, seed) if split == "page"
             else site_folds([examples[i].group for i in order], k, seed))
    return [sorted(order[j] for j in fold) for fold in dealt]


@dataclass(frozen=True)
class FoldTask:
    """One training and its test, as a worker process runs it."""

    fold: int  # numbers the fold, and names its language model (fold{N}.arpa)
    train_set: Sequence[Example]
    test_set: Sequence[Example]
    config: Config
    params: dict  # the CRF's training parameters (the config's crf, overridden)
    workdir: Path  # where the fold's language model is written
    # hears of each L-BFGS iteration (a progress line), in this process only
    on_iteration: Callable[[int, float], None] | None = None


def run_fold(task: FoldTask) -> FoldResult:
    fold, train_set, test_set = task.fold, task.train_set, task.test_set
    config, params, workdir = task.config, task.params, task.workdir
    if has_feature(train_set, "perplexity"):
        lm = fold_language_model(train_set, Path(workdir) / f"fold{fold}.arpa")
        train_set = with_perplexity(train_set, config, lm)
        test_set = with_perplexity(test_set, config, lm)
    return score_fold(fold, fit(train_set, config, params, task.on_iteration), test_set, config)


def score_fold(fold: int, estimator: crf.CRF, test_set: Sequence[Example],
               config: Config) -> FoldResult:
    """A fitted CRF's figures on pages it has not seen, its labels decided
    as the Cleaner decides them (victor.decoding.decide, without the
    output's own step). A config with a second pass is decided here without
    it: its trees are cross-fitted once every fold is done (with_second_pass)."""
    predictions = []
    pages = [e.features for e in test_set]
    first = replace(config, second_pass=None)
    for e, path, marginals in zip(test_set, estimator.predict(pages),
                                  estimator.predict_marginals(pages)):
        decided = decoding.decide(path, marginals, e.texts, e.layout, first)
        widened, _ = decoding.widened(path, marginals, e.texts, e.layout, config)
        predictions.append(Prediction(e.name, decided.labels,
                                      calibration.content_probabilities(marginals), path,
                                      marginals, widened))
    return scored(fold, test_set, predictions)


def scored(fold: int, test_set: Sequence[Example], predictions: list[Prediction]) -> FoldResult:
    """A fold's figures from its pages' predicted labels."""
    predicted, truth, scores = [], [], []
    words = shingles = evaluate.Overlap(0, 0, 0)
    for e, p in zip(test_set, predictions):
        predicted.extend(p.labels)
        truth.extend(e.labels)
        score = evaluate.score_page(e.name, output.plain_text(e.texts, p.labels), e.gold)
        scores.append(score)
        words += score.words
        shingles += score.shingles
    return FoldResult(fold, len(test_set), len(truth), evaluate.label_accuracy(predicted, truth),
                      evaluate.content_accuracy(predicted, truth), words, shingles, predictions,
                      scores)


def with_second_pass(results: list[FoldResult], examples: Sequence[Example],
                     config: Config, threads: int = 1,
                     disabled: Sequence[str] = ()) -> list[FoldResult]:
    """The folds again with `config`'s second pass: trees cross-fitted on
    the same folds (victor.training.second_pass) give each held-out page's
    probabilities, and the page is decided again with them, so that neither
    pass saw the sites it is scored on."""
    by_name = {e.name: e for e in examples}
    fold = {p.name: r.fold for r in results for p in r.predictions}
    predictions = [p for r in results for p in r.predictions]
    q, types = held_out(predictions, by_name, fold, config, threads, disabled)
    q_of = dict(zip((p.name for p in predictions), q))
    type_of = dict(zip((p.name for p in predictions), types))
    return [scored(r.fold, [by_name[p.name] for p in r.predictions],
                   [decided_again(p, by_name[p.name], q_of[p.name], config, type_of[p.name])
                    for p in r.predictions])
            for r in results]


def decided_again(p: Prediction, e: Example, q: Sequence[float], config: Config,
                  page_type: dict[str, float] | None = None) -> Prediction:
    """A held-out page's prediction decided by `config` with its second
    pass's probabilities `q` and, where the config's decision reads them,
    its held-out page-type probabilities."""
    decided = decoding.decide(p.path, p.marginals, e.texts, e.layout, config,
                              trees=lambda _: q, page_type=page_type)
    return replace(p, labels=decided.labels, second=[float(x) for x in q], page_type=page_type)


def fold_tasks(examples: list[Example], k: int, split: str = "site",
               seed: int = 0) -> Iterator[tuple[int, list[Example], list[Example]]]:
    """(fold number, training pages, test pages) for each of the k folds,
    dealt by `seed` (another seed, another draw of the same kind of folds:
    docs/notes/results.md, "How far a draw of the site folds moves the figures")."""
    for i, test_idx in enumerate(folds(examples, k, split, seed), 1):
        test = set(test_idx)
        yield (i, [e for j, e in enumerate(examples) if j not in test],
               [examples[j] for j in test_idx])


def cross_validate(examples: list[Example], config: Config, k: int, params: dict,
                   workdir: str, jobs: int = 1, split: str = "site",
                   on_fold: Callable[[FoldResult], None] | None = None,
                   on_iteration: Callable[[int, float], None] | None = None,
                   seed: int = 0) -> list[FoldResult]:
    """Folds run in `jobs` processes; each trains on the other folds' pages.
    With the perplexity extra on (and not disabled), each fold first
    recomputes the perplexity of every page under a language model of its
    own training pages' gold (fold_language_model), whatever model the
    examples were loaded with. `on_fold` hears of each fold as it is done;
    `on_iteration` of each L-BFGS iteration, in one process only."""
    tasks = [FoldTask(i, train_set, test_set, config, params, Path(workdir),
                      on_iteration if jobs <= 1 else None)
             for i, train_set, test_set in fold_tasks(examples, k, split, seed)]
    results = []
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        for result in (pool.map if pool is not None else map)(run_fold, tasks):
            results.append(result)
            if on_fold is not None:
                on_fold(result)
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


def report(results: list[FoldResult], sources: Mapping[str, str] | None = None) -> str:
    """The folds' figures, then all pages'. `sources` (page -> where it
    came from, such as the folder named on the command line) adds a line
    of word figures for each source, when there are several: pages of
    different collections are scored by different people's gold, and one
    figure over all of them hides which one moved."""
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
    if sources and len(set(sources.values())) > 1:
        rows.extend(_source_rows(results, sources))
    return "\n".join(rows)


def _source_rows(results: list[FoldResult], sources: Mapping[str, str]) -> list[str]:
    """Word and shingle figures summed over each source's held-out pages."""
    pages: dict[str, int] = {}
    words: dict[str, evaluate.Overlap] = {}
    shingles: dict[str, evaluate.Overlap] = {}
    for r in results:
        for score in r.scores:
            source = sources[score.name]
            pages[source] = pages.get(source, 0) + 1
            words[source] = words.get(source, evaluate.Overlap(0, 0, 0)) + score.words
            shingles[source] = shingles.get(source, evaluate.Overlap(0, 0, 0)) + score.shingles
    return [f"{source}: {pages[source]} pages, word F1 {words[source].f1:.4f} "
            f"(P {words[source].precision:.4f}, R {words[source].recall:.4f}), "
            f"shingle F1 {shingles[source].f1:.4f}" for source in dict.fromkeys(sources.values())
            if source in pages]
