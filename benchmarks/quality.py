"""How well Victor keeps the text a person kept, on pages of web sites its
model has never seen, beside the other cleaners on the same pages in the
same run.

For each annotated collection in the repo's data/ (CleanEval's development
set, 60% of Dragnet, WCXB's development split):

- Victor by 5-fold cross-validation with folds grouped by web site
  (victor.training.folds): the default config trained on all three collections, the
  `cleaneval` config on CleanEval, the `article` config on Dragnet;
- trafilatura with comments off and on, readability-lxml, resiliparse,
  jusText, and keeping every block, on the same pages.

Two measures for every score: word F1 by longest-common-subsequence
alignment of the words (CleanEval's, summed over pages), and WCXB's
bag-of-words F1 (the mean over pages of F1 over lowercased `\\w+` tokens).
Dragnet's gold is cut before its comments line (the article alone). On
WCXB: scores by page type, and the share of the benchmark's `with` snippets
found and of its `without` snippets wrongly kept. Then a transfer table
(the default config trained on one collection and tested on each other,
and trained on all but one and tested on it), and the calibration of the
content probability (victor/decoding/calibration.py): the temperature fitted on
every collection's held-out blocks and on all but one, the calibration
error before and after, blocks by probability band against the share
that is content, and word precision and recall at each `--threshold`.
Last, each config's held-out predictions, and the default config's
transfer runs (trained on all but one collection), decoded at other values
of its `keep-above` and `floor-share` (victor/decoding/), the figures
their values were chosen by.
With --record-calibration (every page only), each config's fitted
calibration is recorded in its shipped model, as `learn.py --calibrate 5`
would fit it.

    python3 -m benchmarks.quality                 # every annotated page: 21 trainings, 50 min on 2 idle cores
    python3 -m benchmarks.quality --sample 200    # 200 pages a collection
    python3 -m benchmarks.quality --sample 20     # a quick look
    python3 -m benchmarks.quality --sample 200 --seed 1   # another 200 a collection

The peers are the `bench` extra: pip install -e '.[bench]'.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import mean
from typing import Callable, Sequence

from benchmarks.common import table
from benchmarks.peers import PEERS
from victor import crf, decoding, files, output
from victor.decoding import calibration
from victor.training import crossval, dataset, evaluate
from victor.annotation.align import read_gold
from victor.annotation import load_annotation
from victor.config import DEFAULT_CONFIG, load_config
from victor.batch.inputs import read_input
from victor.reading.text import words

ROOT = Path(__file__).resolve().parent.parent
COLLECTIONS = {"cleaneval-dev": ROOT / "data" / "cleaneval",
               "dragnet-train": ROOT / "data" / "dragnet",
               "wcxb-dev": ROOT / "data" / "wcxb"}
# The config each collection's own idea of content matches (issue #14).
OWN_CONFIG = {"cleaneval-dev": "cleaneval", "dragnet-train": "article"}
THRESHOLDS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
KEEP_ABOVE = (None, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
FLOOR_SHARES = (0.0, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)


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
    return {**PEERS, "keep everything": lambda: _every_block(DEFAULT_CONFIG)}


def _run_peer(args: tuple[str, list[str]]) -> tuple[list[str], float]:
    """The texts one tool kept from some pages, and the seconds it took."""
    name, sources = args
    started = time.perf_counter()
    extract = _extractors()[name]()
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
            for chunk, future in parts:
                got, took = future.result()
                texts.update(zip(chunk, got))
                seconds += took
            out[name] = {p.anno: texts[p.source] for p in pages}
            print(f"{name}: {len(pages)} pages in {seconds:.0f} s", file=sys.stderr)
        return out
    return collect


# --- Victor ------------------------------------------------------------------

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


def _collect(results: Sequence[crossval.FoldResult],
             examples: dict[str, dataset.Example]) -> Run:
    run = Run({}, {}, {}, {}, {}, {}, {})
    for r in results:
        for p in r.predictions:
            e = examples[p.name]
            run.texts[p.name] = output.plain_text(e.texts, p.labels)
            run.content[p.name] = p.content
            run.truth[p.name] = e.labels
            run.block_texts[p.name] = e.texts
            run.labels[p.name] = p.labels
            run.paths[p.name] = p.path
            run.marginals[p.name] = p.marginals
    return run


def submit_victor(pool: Executor, pages: dict[str, list[Page]], folds: int,
                  max_iterations: int | None, transfer: bool
                  ) -> Callable[[], tuple[dict[str, Run], dict[tuple[str, str], Run]]]:
    """Queues every training, largest first so that the last ones to finish
    are short; the returned function waits for them and gives the
    cross-validated runs by config name, and the transfer runs by (trained
    on, tested on)."""
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
    work = tempfile.mkdtemp(prefix="victor-quality-")
    tasks, owners = [], []

    def add(owner, config, train_set, test_sets: dict[str, list[dataset.Example]]) -> None:
        """One training, tested on each of `test_sets` (collection -> pages)."""
        params = dict(config.crf)
        if max_iterations:
            params["max-iterations"] = max_iterations
        test_set = [e for ps in test_sets.values() for e in ps]
        tasks.append((len(tasks), train_set, test_set, config, params, work))
        owners.append((owner, {e.name: c for c, ps in test_sets.items() for e in ps}))

    for name, by_collection in loaded.items():
        examples = [e for c in by_collection for e in by_collection[c]]
        for _, train_set, test_set in crossval.fold_tasks(examples, folds, "site"):
            add(("cv", name), configs[name], train_set, {"": test_set})
    if transfer:
        everything = loaded[DEFAULT_CONFIG]
        for held in everything:
            others = [c for c in everything if c != held]
            add(("transfer", held), default, everything[held], {c: everything[c] for c in others})
            add(("transfer", "all but " + held), default,
                [e for c in others for e in everything[c]], {held: everything[held]})
    order = sorted(range(len(tasks)), key=lambda i: -sum(len(e.labels) for e in tasks[i][1]))
    started = time.perf_counter()
    futures = {i: pool.submit(crossval.run_fold, tasks[i]) for i in order}

    def collect() -> tuple[dict[str, Run], dict[tuple[str, str], Run]]:
        results = [futures[i].result() for i in range(len(tasks))]
        print(f"{len(tasks)} trainings done {time.perf_counter() - started:.0f} s after "
              "they were queued", file=sys.stderr)
        by_name = {name: {e.name: e for c in loaded[name].values() for e in c} for name in loaded}
        cv: dict[str, list] = defaultdict(list)
        moved: dict[tuple[str, str], list] = defaultdict(list)
        for (owner, tested), r in zip(owners, results):
            if owner[0] == "cv":
                cv[owner[1]].append(r)
                continue
            for collection in set(tested.values()):
                part = [p for p in r.predictions if tested[p.name] == collection]
                moved[owner[1], collection].append(replace(r, predictions=part))
        return ({n: _collect(rs, by_name[n]) for n, rs in cv.items()},
                {k: _collect(rs, by_name[DEFAULT_CONFIG]) for k, rs in moved.items()})
    return collect


# --- scores ------------------------------------------------------------------

@dataclass
class Score:
    lcs: evaluate.Overlap
    bag_f1: float
    empty: int
    pages: int


def score(pages: Sequence[Page], texts: dict[str, str]) -> Score:
    lcs = evaluate.Overlap(0, 0, 0)
    bags, empty = [], 0
    for p in pages:
        ours = words(texts.get(p.anno, ""))
        empty += not ours
        lcs += evaluate.word_overlap(ours, p.gold)
        bags.append(evaluate.bag_overlap(ours, p.gold).f1)
    return Score(lcs, mean(bags) if bags else 0.0, empty, len(pages))


def _contains(haystack: str, snippet: str) -> bool | None:
    needle = " ".join(words(snippet))
    return f" {needle} " in haystack if needle else None


def snippets(pages: Sequence[Page], texts: dict[str, str]) -> tuple[float, float]:
    """Share of `with` snippets found, share of `without` snippets kept."""
    found, kept = [], []
    for p in pages:
        haystack = f" {' '.join(words(texts.get(p.anno, '')))} "
        found += [x for x in (_contains(haystack, s) for s in p.with_) if x is not None]
        kept += [x for x in (_contains(haystack, s) for s in p.without) if x is not None]
    return (mean(found) if found else float("nan"), mean(kept) if kept else float("nan"))


def quality_table(pages: dict[str, list[Page]], systems: dict[str, dict[str, str]]) -> str:
    rows = []
    for collection, ps in pages.items():
        for name, texts in systems.items():
            if not all(p.anno in texts for p in ps):
                continue
            s = score(ps, texts)
            rows.append([collection, name, s.pages, s.empty, s.lcs.precision, s.lcs.recall,
                         s.lcs.f1, s.bag_f1])
    return table(["collection", "system", "pages", "empty", "LCS word P", "LCS word R",
                  "LCS word F1", "bag-of-words F1"], rows)


def page_type_table(ps: list[Page], systems: dict[str, dict[str, str]]) -> str:
    kinds = sorted({p.page_type for p in ps})
    names = [n for n, texts in systems.items() if all(p.anno in texts for p in ps)]
    rows = []
    for kind in kinds + ["all"]:
        sel = [p for p in ps if kind in ("all", p.page_type)]
        rows.append([kind, len(sel)] + [score(sel, systems[n]).bag_f1 for n in names])
    rows.append(["`with` found", ""] + [snippets(ps, systems[n])[0] for n in names])
    rows.append(["`without` kept", ""] + [snippets(ps, systems[n])[1] for n in names])
    return table(["page type", "pages"] + names, rows)


def transfer_table(pages: dict[str, list[Page]], moved: dict[tuple[str, str], Run],
                   peers: dict[str, dict[str, str]]) -> str:
    rows = []
    for (trained, tested), run in sorted(moved.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        s = score(pages[tested], run.texts)
        rows.append([trained, tested, s.lcs.f1, s.bag_f1])
    for tested, ps in pages.items():
        for name in ("trafilatura", "readability"):
            if name in peers:
                s = score(ps, peers[name])
                rows.append([f"({name})", tested, s.lcs.f1, s.bag_f1])
    return table(["trained on", "tested on", "LCS word F1", "bag-of-words F1"], rows)


def _blocks(ps: list[Page], run: Run) -> tuple[list[float], list[bool]]:
    """The cross-validated content probability of every block of these
    pages, and whether the gold keeps it."""
    probabilities, content = [], []
    for p in ps:
        probabilities.extend(run.content.get(p.anno, []))
        content.extend(label != "o" for label in run.truth.get(p.anno, []))
    return probabilities, content


def fit_temperatures(pages: dict[str, list[Page]], run: Run) -> dict[str, float]:
    """The calibration's temperature fitted on every collection's held-out
    blocks ("all", what `learn.py --calibrate` records in a model trained
    on them) and, for each collection, on the other collections' alone: a
    temperature fitted on one kind of page, tried on another."""
    blocks = {c: _blocks(ps, run) for c, ps in pages.items()}
    fitted = {"all": calibration.fit_temperature(
        [p for ps, _ in blocks.values() for p in ps], [c for _, cs in blocks.values() for c in cs])}
    if len(blocks) > 1:
        for held in blocks:
            others = [c for c in blocks if c != held]
            fitted[held] = calibration.fit_temperature(
                [p for c in others for p in blocks[c][0]], [x for c in others for x in blocks[c][1]])
    return fitted


def record_calibration(cv: dict[str, Run], folds: int) -> list[str]:
    """Records in each config's shipped model the calibration fitted on
    that config's cross-validated blocks: the same held-out predictions
    `learn.py --calibrate` would fit on, when every page the model was
    trained on took part. Returns what was written, a line a model."""
    written = []
    for name, run in cv.items():
        probabilities = [p for page in run.content for p in run.content[page]]
        content = [lab != "o" for page in run.content for lab in run.truth[page]]
        fitted = crossval.fitted_calibration(probabilities, content, folds, "site")
        model = load_config(name).model
        crf.set_calibration(model, fitted)
        written.append(f"calibrated {model}: {crossval.calibration_report(fitted)}")
    return written


def calibration_table(pages: dict[str, list[Page]], run: Run, fitted: dict[str, float]) -> str:
    """Expected calibration error and log loss of each collection's blocks:
    as the folds' models give them, at the temperature fitted on the other
    collections, and at the one fitted on all."""
    rows = []
    for collection, ps in pages.items():
        probabilities, content = _blocks(ps, run)
        row = [collection]
        for t in (1.0, fitted.get(collection), fitted["all"]):
            if t is None:
                row.append("-")
                continue
            scaled = calibration.scaled(probabilities, t)
            row.append(f"{calibration.expected_error(scaled, content):.3f} / "
                       f"{calibration.log_loss(scaled, content):.3f}")
        rows.append(row)
    return table(["collection (error / log loss)", "uncalibrated",
                  "temperature of the other collections", f"temperature of all ({fitted['all']:.2f})"],
                 rows)


def reliability_table(pages: dict[str, list[Page]], run: Run, temperature: float) -> str:
    """Blocks by content-probability band, and the share of them the gold
    keeps, before and after calibration: calibrated probabilities have the
    share inside the band."""
    bands = [i / 10 for i in range(11)]
    rows = []
    for collection, ps in pages.items():
        probabilities, content = _blocks(ps, run)
        for name, t in (("", 1.0), (f" at {temperature:.2f}", temperature)):
            counts = calibration.reliability(calibration.scaled(probabilities, t), content)
            rows.append([collection + name] + [f"{k / n:.2f} ({n})" if n else "-" for n, k in counts])
    return table(["collection"] + [f"{a:.1f}-{b:.1f}" for a, b in zip(bands, bands[1:])], rows)


def threshold_table(pages: dict[str, list[Page]], run: Run, temperature: float) -> str:
    """Word precision and recall (LCS) when only content blocks with at
    least this calibrated probability are kept (clean.py --threshold)."""
    rows = []
    for collection, ps in pages.items():
        cells = []
        scaled = {p.anno: calibration.scaled(run.content[p.anno], temperature) for p in ps}
        for t in THRESHOLDS:
            texts = {}
            for p in ps:
                labels = decoding.above_threshold(run.labels[p.anno], scaled[p.anno], t)
                texts[p.anno] = output.plain_text(run.block_texts[p.anno], labels)
            s = score(ps, texts)
            cells.append(f"{s.lcs.precision:.3f} / {s.lcs.recall:.3f}")
        rows.append([collection] + cells)
    return table(["collection (P / R)"] + [f"≥{t}" for t in THRESHOLDS], rows)


def decoding_table(pages: dict[str, list[Page]], run: Run, config) -> str:
    """Each collection's word F1 (LCS / bag-of-words) and WCXB's by page
    type when the same held-out predictions are decoded with other values
    of the config's `keep-above` (its floor-share kept) and of its
    `floor-share` (its keep-above kept): victor/decoding/. "-": the best
    path and the floor alone."""
    kinds = sorted({p.page_type for p in pages.get("wcxb-dev", [])})
    settings = [(f"keep-above {bar if bar is not None else '-'}", bar, config.floor_share)
                for bar in KEEP_ABOVE]
    settings += [(f"floor-share {share}", config.keep_above, share) for share in FLOOR_SHARES]
    rows = []
    for name, bar, share in settings:
        texts = {}
        for ps in pages.values():
            for p in ps:
                labels, _ = decoding.decode(run.paths[p.anno], run.marginals[p.anno], bar, share)
                texts[p.anno] = output.plain_text(run.block_texts[p.anno], labels)
        row = [name]
        for ps in pages.values():
            s = score(ps, texts)
            row.append(f"{s.lcs.f1:.3f} / {s.bag_f1:.3f}")
        if "wcxb-dev" in pages:
            row += [score([p for p in pages["wcxb-dev"] if p.page_type == k], texts).bag_f1
                    for k in kinds]
        rows.append(row)
    return table(["decoding"] + [f"{c} (LCS / BoW)" for c in pages] + kinds, rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, metavar="N", help="a seeded random N pages a collection")
    ap.add_argument("--seed", type=int, default=0,
                    help="the seed of --sample's draw (default 0): another draw of pages")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("-j", "--jobs", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--max-iterations", type=int, help="L-BFGS iterations (default: each config's)")
    ap.add_argument("--no-transfer", action="store_true", help="skip the transfer table")
    ap.add_argument("--no-peers", action="store_true", help="Victor only")
    ap.add_argument("--record-calibration", action="store_true",
                    help="record each config's fitted calibration in its shipped model "
                         "(every page only: not with --sample)")
    ap.add_argument("--save-run", metavar="FILE",
                    help="also write Victor's cross-validated labels and probabilities (JSON)")
    args = ap.parse_args(argv)
    if args.record_calibration and args.sample:
        ap.error("--record-calibration: the shipped models were trained on every page, "
                 "so calibrate them on every page (no --sample)")
    started = time.perf_counter()
    pages = {c: pages_of(c, args.sample, args.seed) for c in COLLECTIONS}
    everything = [p for ps in pages.values() for p in ps]
    # One pool: the peers' small tasks queue behind the trainings and fill
    # the core that the last, longest training leaves idle.
    with ProcessPoolExecutor(args.jobs) as pool:
        victor = submit_victor(pool, pages, args.folds, args.max_iterations,
                               not args.no_transfer)
        peer_texts = None if args.no_peers else submit_peers(pool, everything)
        cv, moved = victor()
        peers = peer_texts() if peer_texts else {}
    systems = {f"victor {name}": run.texts for name, run in cv.items()}
    systems.update(peers)
    print(f"Pages of web sites the model has not seen: {args.folds} folds grouped by site; "
          f"{sum(map(len, pages.values()))} pages.\n")
    print(quality_table(pages, systems) + "\n")
    if "wcxb-dev" in pages:
        print("wcxb-dev by page type (bag-of-words F1), and WCXB's snippets:\n")
        print(page_type_table(pages["wcxb-dev"], systems) + "\n")
    if moved:
        print(f"Transfer: the {DEFAULT_CONFIG} config trained on one collection (or all but one) "
              "and tested on another:\n")
        print(transfer_table(pages, moved, peers) + "\n")
    default = cv[DEFAULT_CONFIG]
    if args.save_run:
        files.write_atomic(args.save_run, json.dumps(
            {name: {"content": run.content, "truth": run.truth, "labels": run.labels}
             for name, run in cv.items()}) + "\n")
    fitted = fit_temperatures(pages, default)
    print(f"Calibration of the {DEFAULT_CONFIG} config's content probability (cross-validated), "
          "by temperature scaling (victor/decoding/calibration.py): expected calibration error and log "
          "loss of the blocks, uncalibrated, at the temperature fitted on the other "
          "collections' blocks, and at the one fitted on every collection's (as "
          "`learn.py --calibrate` fits it):\n")
    print(calibration_table(pages, default, fitted) + "\n")
    print("Share of blocks that are content, by probability band (blocks), uncalibrated and "
          "at the temperature fitted on all:\n")
    print(reliability_table(pages, default, fitted["all"]) + "\n")
    print(f"Word precision / recall with --threshold (content blocks kept only at or above it; "
          f"probabilities at temperature {fitted['all']:.2f}):\n")
    print(threshold_table(pages, default, fitted["all"]) + "\n")
    for name, run in cv.items():
        config = load_config(name)
        print(f"The {name} config's held-out predictions decoded with other settings "
              f"(victor/decoding/; it has keep-above {config.keep_above}, floor-share "
              f"{config.floor_share}):\n")
        print(decoding_table({c: ps for c, ps in pages.items()
                              if all(p.anno in run.paths for p in ps)}, run, config) + "\n")
    for (trained, tested), run in sorted(moved.items()):
        if trained.startswith("all but "):
            print(f"The {DEFAULT_CONFIG} config trained on {trained}, on {tested}, decoded with "
                  "other settings:\n")
            print(decoding_table({tested: pages[tested]}, run, load_config(DEFAULT_CONFIG)) + "\n")
    if args.record_calibration:
        print("\n".join(record_calibration(cv, args.folds)) + "\n")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
