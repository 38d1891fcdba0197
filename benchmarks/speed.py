"""Pages/s, MB/s and peak memory of Victor's stages and of other cleaners,
in one run over the same pages.

Every row runs in a process of its own, so that one tool's imports, caches
and garbage do not weigh on another's figures: the process sets the tool
up (imports, models, stoplists) and cleans the first page once before the
clock starts, then cleans every page, reading each file just before it is
cleaned; it does so `--repeat` times or more, until its passes took
`--min-seconds`, and the fastest pass counts (a third of a second over the
58 CleanEval pages is short enough for a busy neighbour to spoil it).
The first pass is shown too: a tool that keeps what it learnt of earlier
pages (Victor's tagger keeps the weights of class names and bags it has
met) meets every page afresh only there, as a crawl of new sites does;
with `--rounds K`, a line after the table gives each round's fastest
pass and first pass of every row.
Reported: wall-clock and CPU rates (CPU time includes the row's
own worker processes, and is less disturbed by other jobs on a shared
machine), the peak resident memory of the row's process (ru_maxrss; for
rows with worker processes, also the largest worker's), and its resident
memory once set up, before the first page.

    python3 -m benchmarks.speed                      # cleaneval-dev, every row
    python3 -m benchmarks.speed --data /work/shared/data/dragnet-train --sample 200
    python3 -m benchmarks.speed --rows trafilatura,resiliparse --repeat 3
    python3 -m benchmarks.speed --rows trafilatura,victor-clean --repeat 5 --rounds 3

rs-trafilatura's rows run it in a venv of its own (its wheels need Python
3.12; benchmarks.peers), one process of it fed page after page through a
pipe: their times and CPU are its extraction's, timed in that process,
plus reading the page in the row's; the pipe is not counted. Its peak
memory is shown as the worker's, beside the row's own process's.

Rows ending in `-pure` run Victor's pure-Python path (VICTOR_NO_EXTENSIONS=1
in their process; victor/compiled/), the others whichever path the install
built, which the report names. Rows ending in `-jobs` clean the pages in
`--jobs` processes of the tool, each set up before the clock starts and fed
five pages at a time; their pages/s is the wall clock's, their CPU the
processes' own, their peak memory the largest process's:

    python3 -m benchmarks.speed --data /work/shared/data/wcxb-dev --sample 200 \
        --rows trafilatura,rs-trafilatura,victor-text,victor-text-pure --rounds 2
    python3 -m benchmarks.speed --data /work/shared/data/wcxb-dev --sample 200 \
        --rows trafilatura-jobs,rs-trafilatura-jobs,victor-text-jobs -j 2

A new row is one function below that sets the tool up and returns a
`Runner`, and one entry in ROWS.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from benchmarks.common import CLEANEVAL, page_files, page_megabytes, table
from benchmarks import peers
from benchmarks.peers import PEERS
from victor.config import DEFAULT_CONFIG
from victor.batch.inputs import read_input

@dataclass
class Timed:
    """A pass whose tool ran in another process and timed itself there."""

    failures: list[str]
    wall: float
    cpu: float
    peak_mb: float  # the tool's process's


# Cleans all the pages given; returns what failed, one line a page (and,
# for a tool in a process of its own, its time there).
Runner = Callable[[list[Path]], list[str] | Timed]


def per_page(clean: Callable[[bytes], object]) -> Runner:
    def run(paths: list[Path]) -> list[str]:
        failures = []
        for path in paths:
            data = read_input(str(path))  # a .html.gz page decompressed, for every tool alike
            try:
                clean(data)
            except Exception as e:  # a benchmark counts a crash and goes on
                failures.append(f"{path.name}: {type(e).__name__}: {e}")
        return failures
    return run


# --- the rows: each sets its tool up and returns a Runner, or the reason
# it cannot run here (a message starting with "skipped") ---------------

def victor_blocks(opts: argparse.Namespace) -> Runner | str:
    from victor.config import load_config
    from victor.reading.page import read_page

    config = load_config(opts.config)
    return per_page(lambda data: read_page(data, config))


def victor_features(opts: argparse.Namespace) -> Runner | str:
    from victor import features, perplexity
    from victor.config import load_config
    from victor.reading.page import read_page

    config = load_config(opts.config)
    if not features.select_features(config):
        return f"skipped: config {config.name} selects no features"
    lm = perplexity.for_config(config, features.select_features(config))
    return per_page(lambda data: features.compute(read_page(data, config), config, lm))


def victor_clean(opts: argparse.Namespace, render: str = "cleaneval") -> Runner | str:
    """bytes -> labels -> the format `render` names; "blocks" is the text
    of the kept blocks joined, as the text output was before it was
    rendered from the page's tree (issue #30), the base its cost is
    measured against."""
    from victor import output
    from victor.cleaner import Cleaner
    from victor.errors import VictorError

    try:
        cleaner = Cleaner(opts.config, opts.model)
    except VictorError as e:
        return f"skipped: {e}"
    if render == "blocks":
        return per_page(lambda data: output.plain_text(*_texts_and_labels(cleaner.clean(data))))
    return per_page(lambda data: cleaner.clean(data).render(render))


def _texts_and_labels(result) -> tuple[list[str], list[str]]:
    return result.texts, result.labels


def victor_batch(opts: argparse.Namespace, jobs: int | None = None) -> Runner | str:
    """clean.py -j N: the batch runner, writing CleanEval files to a
    temporary folder; in one process (-j 1) when `jobs` is 1, else in
    --jobs worker processes."""
    from victor import batch
    from victor.batch import workers
    from victor.batch.jobs import plan
    from victor.cleaner import Cleaner
    from victor.errors import VictorError

    try:
        Cleaner(opts.config, opts.model)  # fail here, not on every page in the workers
    except VictorError as e:
        return f"skipped: {e}"
    settings = workers.RunOptions(config=opts.config, model=opts.model, overwrite=True)

    def batch_run(paths: list[Path]) -> list[str]:
        with tempfile.TemporaryDirectory() as out:
            jobs_ = plan([str(p) for p in paths], out, "cleaneval")
            report = batch.run(jobs_, settings, workers=jobs or opts.jobs)
        return [f"{source}: {why}" for source, why in report.failed]

    def run(paths: list[Path]) -> list[str]:
        # In a new thread every time: the one-process batch cleans in the
        # calling thread with that thread's Cleaner, which would otherwise
        # come warm from the row's first pass, while the workers of -j N
        # always start cold, as every clean.py run does.
        with ThreadPoolExecutor(1) as fresh:
            return fresh.submit(batch_run, paths).result()
    return run


def peer(name: str) -> Callable[[argparse.Namespace], Runner | str]:
    return lambda opts: per_page(PEERS[name]())


def rs_trafilatura(opts: argparse.Namespace, markdown: bool = False) -> Runner | str:
    """rs-trafilatura in its own venv's process: each page read here, then
    cleaned there, the two times summed."""
    try:
        ask = peers.rs_trafilatura_pipe(markdown)
    except peers.Unavailable as e:
        return f"skipped: {e}"

    def run(paths: list[Path]) -> Timed:
        out = Timed([], 0.0, 0.0, 0.0)
        for path in paths:
            wall, cpu = time.perf_counter(), time.process_time()
            data = peers.without_wrapper(read_input(str(path)))
            out.wall += time.perf_counter() - wall
            out.cpu += time.process_time() - cpu
            try:
                answer = ask(data)
            except peers.PeerFailed as e:
                out.failures.append(f"{path.name}: {e}")
                continue
            out.wall += answer.wall
            out.cpu += answer.cpu
            out.peak_mb = max(out.peak_mb, answer.peak_mb)
        return out
    return run


ROWS: dict[str, Callable[[argparse.Namespace], Runner | str]] = {
    "victor-blocks": victor_blocks,  # bytes -> blocks (parse, preclean, blocks)
    "victor-features": victor_features,  # bytes -> feature table
    "victor-clean": victor_clean,  # bytes -> CleanEval text (features, CRF, output)
    "victor-blocks-text": lambda opts: victor_clean(opts, "blocks"),  # the kept blocks joined
    "victor-text": lambda opts: victor_clean(opts, "text"),  # text from the kept tree
    "victor-markdown": lambda opts: victor_clean(opts, "markdown"),  # Markdown from it
    # The article config: the default config's first pass and the second pass.
    "victor-article": lambda opts: victor_clean(argparse.Namespace(**{**vars(opts),
                                                                      "config": "article"})),
    "victor-batch": lambda opts: victor_batch(opts, jobs=1),  # clean.py -j 1 -o DIR
    "victor-clean-j": victor_batch,  # clean.py -j N -o DIR
    **{name: peer(name) for name in PEERS},
    # In a venv of its own, skipped where there is none (benchmarks.peers).
    "rs-trafilatura": rs_trafilatura,  # its text
    "rs-trafilatura-markdown": lambda opts: rs_trafilatura(opts, markdown=True),
}
# The pure-Python path of Victor's rows (run_row sets VICTOR_NO_EXTENSIONS).
PURE = "-pure"
ROWS.update({name + PURE: ROWS[name] for name in ("victor-clean", "victor-text",
                                                  "victor-markdown", "victor-article")})
# Rows in --jobs processes of the tool (in_processes).
PARALLEL = "-jobs"
ROWS.update({name + PARALLEL: ROWS[name] for name in ("victor-text", "victor-text-pure",
                                                      "trafilatura", "rs-trafilatura")})


# --- measuring ---------------------------------------------------------

def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # kilobytes on Linux


# --- rows in several processes: each process sets its tool up once ------

_WORKER_RUNNER: list[Runner | str] = []  # the row's runner in a worker, or why it cannot run


def _set_up_worker(name: str, opts: argparse.Namespace, first: list[Path],
                   ready: multiprocessing.synchronize.Barrier) -> None:
    runner = ROWS[name](opts)
    if not isinstance(runner, str):
        runner(first)
    _WORKER_RUNNER.append(runner)
    ready.wait()


def _skipped() -> str | None:
    return _WORKER_RUNNER[0] if isinstance(_WORKER_RUNNER[0], str) else None


def _work(chunk: list[Path]) -> tuple[list[str], float, float]:
    """A chunk's failures, CPU seconds and the process's peak memory."""
    cpu = time.process_time()
    failures = _WORKER_RUNNER[0](chunk)
    if isinstance(failures, Timed):  # rs-trafilatura: its own process's CPU
        return failures.failures, failures.cpu, failures.peak_mb
    return failures, time.process_time() - cpu, _peak_mb(resource.RUSAGE_SELF)


def in_processes(name: str, opts: argparse.Namespace, paths: list[Path]) -> Runner | str:
    """The row `name` in opts.jobs processes, started afresh (a fork would
    inherit LightGBM's OpenMP threads, which deadlock in the child); a pass
    is timed from the first chunk handed out to the last one done."""
    spawn = multiprocessing.get_context("spawn")
    ready = spawn.Barrier(opts.jobs + 1)
    pool = spawn.Pool(opts.jobs, _set_up_worker, (name, opts, paths[:1], ready))
    ready.wait(timeout=600)
    reason = pool.apply(_skipped)
    if reason is not None:
        pool.terminate()
        return reason
    chunks = [paths[i:i + 5] for i in range(0, len(paths), 5)]

    def run(_: list[Path]) -> Timed:
        wall = time.perf_counter()
        out = Timed([], 0.0, 0.0, 0.0)
        for failures, cpu, peak in pool.imap_unordered(_work, chunks):
            out.failures += failures
            out.cpu += cpu
            out.peak_mb = max(out.peak_mb, peak)
        out.wall = time.perf_counter() - wall
        return out
    return run


def measure(name: str, opts: argparse.Namespace) -> dict:
    """Runs in the row's own process; returns what the table shows."""
    paths = page_files(opts.data, opts.sample)
    if name.endswith(PARALLEL):
        runner = in_processes(name.removesuffix(PARALLEL), opts, paths)
    else:
        runner = ROWS[name](opts)
    if isinstance(runner, str):
        return {"row": name, "skipped": runner}
    if not name.endswith(PARALLEL):  # set up in each of its processes
        runner(paths[:1])
    setup_mb = _peak_mb(resource.RUSAGE_SELF)
    walls, cpus, worker_mb = [], [], 0.0
    while len(walls) < opts.repeat or sum(walls) < opts.min_seconds:
        cpu, wall = _cpu(), time.perf_counter()
        failures = runner(paths)
        walls.append(time.perf_counter() - wall)
        cpus.append(_cpu() - cpu)
        if isinstance(failures, Timed):  # the tool's own process timed it
            walls[-1], cpus[-1], worker_mb = failures.wall, failures.cpu, failures.peak_mb
            failures = failures.failures
    return {
        "row": name, "pages": len(paths), "megabytes": page_megabytes(paths),
        "wall": min(walls), "first": walls[0], "cpu": min(cpus), "failures": failures,
        "setup_mb": setup_mb, "peak_mb": _peak_mb(resource.RUSAGE_SELF),
        "path": victor_path() if name.startswith("victor") else "",
        "worker_peak_mb": max(worker_mb, _peak_mb(resource.RUSAGE_CHILDREN)),
    }


def victor_path() -> str:
    """Which of Victor's paths the row runs (victor.compiled)."""
    from victor import compiled

    return compiled.path()


def run_row(name: str, argv: list[str]) -> dict:
    env = {**os.environ, "VICTOR_NO_EXTENSIONS": "1"} if PURE in name else None
    proc = subprocess.run([sys.executable, "-m", "benchmarks.speed", "--worker", name, *argv],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1],
                          env=env)
    if proc.returncode != 0:
        return {"row": name, "skipped": f"crashed: {proc.stderr.strip().splitlines()[-1:]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def report(results: list[dict], jobs: int) -> str:
    rows = []
    for r in results:
        label = {"victor-batch": "victor clean.py -j 1",
                 "victor-clean-j": f"victor clean.py -j {jobs}"}.get(r["row"], r["row"])
        if "skipped" in r:
            rows.append([label] + ["-"] * 9)
            continue
        ok = r["pages"] - len(r["failures"])
        worker = f"{r['worker_peak_mb']:.0f}" if r["worker_peak_mb"] else "-"
        rows.append([label, r["pages"], len(r["failures"]),
                     ok / r["wall"], ok / r["first"], r["megabytes"] / r["wall"], ok / r["cpu"],
                     f"{r['peak_mb']:.0f}", worker, f"{r['setup_mb']:.0f}"])
    return table(["row", "pages", "failed", "pages/s", "first pass pages/s", "MB/s", "pages/CPU-s",
                  "peak RSS MB", "worker peak MB", "RSS set up MB"], rows)


def each_round(rounds: dict[str, list[dict]]) -> str:
    """Each row's pages a second in each round: its fastest pass and, in
    brackets, its first, which the table gives for the fastest round only.
    A target set for every round and for the first pass as for the
    fastest is read off this line."""
    def rates(r: dict) -> str:
        if "skipped" in r:
            return "-"
        ok = r["pages"] - len(r["failures"])
        return f"{ok / r['wall']:.1f} ({ok / r['first']:.1f})"
    return "pages/s of each round, fastest pass (first pass): " + "; ".join(
        f"{name} " + " ".join(map(rates, runs)) for name, runs in rounds.items())


def _speedup(results: list[dict], jobs: int) -> str:
    """How much faster clean.py -j N runs than clean.py -j 1 (both writing
    files), by wall clock: the point of more processes. The load line
    below says whether the cores were free to show it."""
    done = {r["row"]: r for r in results if "skipped" not in r}
    one, many = done.get("victor-batch"), done.get("victor-clean-j")
    if not one or not many:
        return ""
    rate = lambda r: (r["pages"] - len(r["failures"])) / r["wall"]
    return f"-j {jobs}: {rate(many) / rate(one):.2f} times -j 1's pages/s\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", metavar="DIR",
                    help=f"a folder of pages or a collection (repeatable; default {CLEANEVAL})")
    ap.add_argument("--sample", type=int, metavar="N", help="a seeded random N pages of each folder")
    ap.add_argument("--rows", default=",".join(ROWS), help=f"comma-separated, of: {', '.join(ROWS)}")
    ap.add_argument("--config", default=DEFAULT_CONFIG, help=f"Victor's config (default {DEFAULT_CONFIG})")
    ap.add_argument("--model", help="Victor's model (default: the config's)")
    ap.add_argument("--jobs", "-j", type=int, default=2,
                    help="processes of the victor-clean-j row and the -jobs rows")
    ap.add_argument("--repeat", type=int, default=1,
                    help="time each row at least N times, keep the fastest")
    ap.add_argument("--min-seconds", type=float, default=3.0, metavar="S",
                    help="and repeat each row until its passes took S seconds (default 3): a "
                         "pass of a fraction of a second catches the machine's swings")
    ap.add_argument("--rounds", type=int, default=1, metavar="K",
                    help="run the rows K times in turn, each keeping its fastest round: a slow "
                         "spell of the machine then falls on every row, not on one")
    ap.add_argument("--worker", metavar="ROW", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.data = args.data or [str(CLEANEVAL)]
    if args.worker:
        print(json.dumps(measure(args.worker, args)))
        return 0
    names = args.rows.split(",")
    unknown = [n for n in names if n not in ROWS]
    if unknown:
        ap.error(f"unknown rows {', '.join(unknown)}; known: {', '.join(ROWS)}")
    passed = [a for d in args.data for a in ("--data", d)] + [
        "--config", args.config, "--jobs", str(args.jobs), "--repeat", str(args.repeat),
        "--min-seconds", str(args.min_seconds)]
    if args.sample is not None:
        passed += ["--sample", str(args.sample)]
    if args.model is not None:
        passed += ["--model", str(Path(args.model).resolve())]
    rounds: dict[str, list[dict]] = {name: [] for name in names}
    for _ in range(max(args.rounds, 1)):
        for name in names:
            r = run_row(name, passed)
            rounds[name].append(r)
            print(f"{name}: " + (r["skipped"] if "skipped" in r else f"{r['wall']:.1f} s"),
                  file=sys.stderr)
    results = [min(runs, key=lambda r: r.get("wall", float("inf"))) for runs in rounds.values()]
    files = page_files(args.data, args.sample)
    print(f"{len(files)} pages, {page_megabytes(files):.1f} MB, "
          f"from {', '.join(args.data)}\n")
    print(report(results, args.jobs))
    if args.rounds > 1:
        print("\n" + each_round(rounds))
    print(f"\n{_speedup(results, args.jobs)}load average at the end: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    for r in results:
        if r.get("path"):
            print(f"{r['row']}: {r['path']}")
        if "skipped" in r:
            print(f"{r['row']}: {r['skipped']}")
        for f in r.get("failures", []):
            print(f"{r['row']} failed on {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
