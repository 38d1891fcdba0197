"""What the quality benchmark trains and predicts: the annotated pages of
each collection, Victor's site folds and transfer runs (every test page's
text and block probabilities), and the peers' texts of the same pages."""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from benchmarks.peers import PEERS, Unavailable, rs_trafilatura
from victor import decoding, output
from victor.annotation import load_annotation
from victor.annotation.gold import read_gold
from victor.batch.inputs import read_input
from victor.config import DEFAULT_CONFIG, Config, load_config, recipe, shipped_configs
from victor.config.second_pass import training
from victor.training import crossval, dataset, second_pass

ROOT = Path(__file__).resolve().parents[2]
COLLECTIONS = {"cleaneval-dev": ROOT / "data" / "cleaneval",
               "dragnet-train": ROOT / "data" / "dragnet",
               "wcxb-dev": ROOT / "data" / "wcxb"}
# The config each collection's own idea of content matches (issue #14).
OWN_CONFIG = {"cleaneval-dev": "cleaneval"}


@dataclass
class Page:
    collection: str
    anno: str
    source: str  # the page file
    gold: list[str]  # the gold's words, as the alignment read them
    page_type: str  # WCXB's; empty elsewhere
    with_: list[str]  # WCXB's snippets a correct extraction keeps
    without: list[str]  # and those it drops


def pages_of(collection: str, sample: int | None, seed: int = 0) -> list[Page]:
    folder = COLLECTIONS[collection]
    annos = sorted(folder.glob("*.anno"))
    if sample is not None and sample < len(annos):
        annos = sorted(random.Random(seed).sample(annos, sample))
    out = []
    for a in annos:
        meta_path = a.with_suffix(".json")
        meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
        out.append(Page(collection, str(a), load_annotation(a).source,
                        read_gold(a.with_suffix(".txt")).words, meta.get("page_type", ""),
                        meta.get("with", []), meta.get("without", [])))
    return out


# --- the peers ---------------------------------------------------------------

def _every_block(config_name: str) -> Callable[[bytes], str]:
    from victor.reading.page import read_page

    config = load_config(config_name)
    return lambda data: "\n".join(b.text for b in read_page(data, config).blocks)


def _extractors() -> dict[str, Callable[[], Callable[[bytes], str]]]:
    """The peers, with rs-trafilatura (WCXB's best published system) where
    its venv is made: its text, as a user of its defaults gets it."""
    return {**PEERS, "rs-trafilatura": rs_trafilatura,
            "keep everything": lambda: _every_block(DEFAULT_CONFIG)}


def _run_peer(args: tuple[str, list[str]]) -> tuple[list[str] | str, float]:
    """The texts one tool kept from some pages, and the seconds it took;
    instead of the texts, why the tool is not on this machine."""
    name, sources = args
    started = time.perf_counter()
    try:
        extract = _extractors()[name]()
    except Unavailable as e:
        return str(e), 0.0
    texts = []
    for source in sources:
        try:
            texts.append(extract(read_input(source)))
        except Exception as e:  # a crash loses the page, as an empty answer does
            print(f"{source}: {name}: {type(e).__name__}: {e}", file=sys.stderr)
            texts.append("")
    return texts, time.perf_counter() - started


PEER_CHUNK = 100  # pages a task: small enough to fill a core the trainings leave idle


def submit_peers(pool: Executor, pages: list[Page]) -> Callable[[], dict[str, dict[str, str]]]:
    """Queues every tool on every page; the returned function waits for
    them and gives tool -> .anno -> the text it kept."""
    sources = [p.source for p in pages]
    chunks = [sources[i:i + PEER_CHUNK] for i in range(0, len(sources), PEER_CHUNK)]
    futures = {name: [(chunk, pool.submit(_run_peer, (name, chunk))) for chunk in chunks]
               for name in _extractors()}

    def collect() -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for name, parts in futures.items():
            texts: dict[str, str] = {}
            seconds = 0.0
            missing = ""
            for chunk, future in parts:
                got, took = future.result()
                if isinstance(got, str):
                    missing = got
                    continue
                texts.update(zip(chunk, got))
                seconds += took
            if missing:
                print(f"{name}: skipped: {missing}", file=sys.stderr)
                continue
            out[name] = {p.anno: texts[p.source] for p in pages}
            print(f"{name}: {len(pages)} pages in {seconds:.0f} s", file=sys.stderr)
        return out
    return collect


# --- Victor ------------------------------------------------------------------

def submit_fold(pool: Executor, fold: int, train_set: list[dataset.Example],
                test_set: list[dataset.Example], config: Config, params: dict,
                workdir: str) -> Future[crossval.FoldResult]:
    """Queues one training on `train_set`, tested on `test_set`: the one
    place the benchmarks call victor.training.crossval.run_fold."""
    return pool.submit(crossval.run_fold,
                       crossval.FoldTask(fold, train_set, test_set, config, params, Path(workdir)))


@dataclass
class Run:
    """Victor's folds or transfer runs: every test page's text and block
    probabilities, and its gold labels for the calibration."""

    texts: dict[str, str]
    content: dict[str, list[float]]
    truth: dict[str, list[str]]
    block_texts: dict[str, list[str]]
    labels: dict[str, list[str]]
    paths: dict[str, list[str]]  # the best paths, before decoding widens them
    marginals: dict[str, list[dict[str, float]]]
    fold: dict[str, int]  # the training whose model scored the page
    widened: dict[str, list[str]]  # what the second pass's trees read
    layout: dict[str, decoding.Layout]
    second: dict[str, list[float]]  # the second pass's probabilities, where there is one
    # each page's held-out page-type probabilities, where the config's decision reads them
    page_type: dict[str, dict[str, float] | None] = field(default_factory=dict)

    def decided(self, anno: str, config: Config, **options) -> list[str]:
        """The page's labels decided again by `config` with `options`
        (victor.decoding.decide's: threshold, temperature, favor), with
        this run's second-pass probabilities where the config has a second pass."""
        q = self.second.get(anno)
        return decoding.decide(self.paths[anno], self.marginals[anno], self.block_texts[anno],
                               self.layout[anno], config,
                               trees=None if q is None else (lambda _: q),
                               page_type=self.page_type.get(anno), **options).labels


def _collect(results: Sequence[crossval.FoldResult],
             examples: dict[str, dataset.Example]) -> Run:
    run = Run({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {})
    for r in results:
        for p in r.predictions:
            e = examples[p.name]
            run.texts[p.name] = output.plain_text(e.texts, p.labels)
            run.content[p.name] = p.raw_content
            run.truth[p.name] = e.labels
            run.block_texts[p.name] = e.texts
            run.labels[p.name] = p.labels
            run.paths[p.name] = p.path
            run.marginals[p.name] = p.marginals
            run.fold[p.name] = r.fold
            run.widened[p.name] = p.widened
            run.layout[p.name] = e.layout
    return run


# The run of the default config's CRF alone, before its second pass.
FIRST_PASS = f"{DEFAULT_CONFIG} first pass"


def second_pass_configs() -> list[Config]:
    """The shipped configs that are the default config's first pass and a
    second pass (the default config itself, the article config): the
    benchmark measures them from the default config's folds."""
    first = {k: v for k, v in recipe(load_config(DEFAULT_CONFIG)).items()
             if k in ("settings", "template", "crf")}
    out = []
    for name in shipped_configs():
        config = load_config(name)
        if config.second_pass is not None and all(recipe(config)[k] == v
                                                  for k, v in first.items()):
            out.append(config)
    return out


def stacked(first: Run, examples: dict[str, dataset.Example],
            configs: list[Config]) -> dict[str, Run]:
    """Each config's run: the first pass's held-out labels decided again by
    its second pass, trees cross-fitted on the same site folds
    (victor.training.second_pass), once for configs that share trees."""
    predictions = [crossval.Prediction(a, first.labels[a], first.content[a], first.paths[a],
                                       first.marginals[a], first.widened[a])
                   for a in first.labels]
    fitted: dict[tuple, list] = {}
    runs = {}
    for config in configs:
        # configs whose trees are trained and predict alike, and that read
        # the page's type or do not, share them (and its cross-fitted classifier)
        sp = config.second_pass
        trees = json.dumps([training(sp), sp.early_stop, sp.early_stop_every,
                            sp.reads_page_type, sp.page_type_share])
        if trees not in fitted:
            started = time.perf_counter()
            fitted[trees] = second_pass.held_out(predictions, examples, first.fold, config)
            print(f"{config.name}: second pass cross-fitted on {len(predictions)} pages in "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
        q_all, types = fitted[trees]
        labels = {p.name: crossval.decided_again(p, examples[p.name], q, config, kind).labels
                  for p, q, kind in zip(predictions, q_all, types)}
        texts = {a: output.plain_text(examples[a].texts, labels[a]) for a in labels}
        runs[config.name] = replace(first, texts=texts, labels=labels, second={
            p.name: [float(x) for x in q] for p, q in zip(predictions, q_all)},
            page_type=dict(zip((p.name for p in predictions), types)))
    return runs


@dataclass
class _Training:
    """One of the benchmark's trainings, and whose figures its predictions
    are: ("cv", config name) or ("transfer", what it was trained on)."""

    owner: tuple[str, str]
    config: Config
    train_set: list[dataset.Example]
    test_sets: dict[str, list[dataset.Example]]  # collection -> its test pages

    def test_set(self) -> list[dataset.Example]:
        return [e for ps in self.test_sets.values() for e in ps]

    def params(self, max_iterations: int | None) -> dict:
        params = dict(self.config.crf)
        if max_iterations:
            params["max-iterations"] = max_iterations
        return params


def submit_victor(pool: Executor, pages: dict[str, list[Page]], folds: int,
                  max_iterations: int | None, transfer: bool, fold_seed: int = 0
                  ) -> Callable[[], tuple[dict[str, Run], dict[tuple[str, str], Run]]]:
    """Queues every training, largest first so that the last ones to finish
    are short; the returned function waits for them and gives the
    cross-validated runs by config name (and the default config's CRF
    alone as FIRST_PASS), and the transfer runs by (trained on, tested on),
    the default config's CRF alone."""
    default = load_config(DEFAULT_CONFIG)
    configs = {DEFAULT_CONFIG: default}
    configs.update({name: load_config(name) for name in OWN_CONFIG.values()})
    loaded: dict[str, dict[str, list[dataset.Example]]] = {}
    for name, config in configs.items():
        t = time.perf_counter()
        wanted = [c for c in pages if name == DEFAULT_CONFIG or OWN_CONFIG.get(c) == name]
        loaded[name] = {c: dataset.load_examples([p.anno for p in pages[c]], config)
                        for c in wanted}
        print(f"{name}: features of {sum(map(len, loaded[name].values()))} pages in "
              f"{time.perf_counter() - t:.0f} s", file=sys.stderr)
    trainings: list[_Training] = []

    def add(owner, config, train_set, test_sets: dict[str, list[dataset.Example]]) -> None:
        """One training, tested on each of `test_sets` (collection -> pages)."""
        trainings.append(_Training(owner, config, train_set, test_sets))

    for name, by_collection in loaded.items():
        examples = [e for c in by_collection for e in by_collection[c]]
        for _, train_set, test_set in crossval.fold_tasks(examples, folds, "site", fold_seed):
            add(("cv", name), configs[name], train_set, {"": test_set})
    if transfer:
        everything = loaded[DEFAULT_CONFIG]
        for held in everything:
            others = [c for c in everything if c != held]
            add(("transfer", held), default, everything[held], {c: everything[c] for c in others})
            add(("transfer", "all but " + held), default,
                [e for c in others for e in everything[c]], {held: everything[held]})
    work = tempfile.mkdtemp(prefix="victor-quality-")
    order = sorted(range(len(trainings)),
                   key=lambda i: -sum(len(e.labels) for e in trainings[i].train_set))
    started = time.perf_counter()
    futures = {i: submit_fold(pool, i, trainings[i].train_set, trainings[i].test_set(),
                              trainings[i].config, trainings[i].params(max_iterations), work)
               for i in order}

    def collect() -> tuple[dict[str, Run], dict[tuple[str, str], Run]]:
        results = [futures[i].result() for i in range(len(trainings))]
        print(f"{len(trainings)} trainings done {time.perf_counter() - started:.0f} s after "
              "they were queued", file=sys.stderr)
        by_name = {name: {e.name: e for c in loaded[name].values() for e in c} for name in loaded}
        cv: dict[str, list] = defaultdict(list)
        moved: dict[tuple[str, str], list] = defaultdict(list)
        for task, r in zip(trainings, results):
            kind, owner = task.owner
            if kind == "cv":
                cv[owner].append(r)
                continue
            for collection, ps in task.test_sets.items():
                names = {e.name for e in ps}
                part = [p for p in r.predictions if p.name in names]
                moved[owner, collection].append(replace(r, predictions=part))
        runs = {n: _collect(rs, by_name[n]) for n, rs in cv.items()}
        first = runs[FIRST_PASS] = runs[DEFAULT_CONFIG]
        runs.update(stacked(first, by_name[DEFAULT_CONFIG], second_pass_configs()))
        return (runs,
                {k: _collect(rs, by_name[DEFAULT_CONFIG]) for k, rs in moved.items()})
    return collect
