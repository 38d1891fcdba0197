#!/usr/bin/env python3
"""Fuzzing: the properties of tests/test_properties.py on as many generated
pages as fit in a budget, for every shipped config, with fresh random
examples every round.

    python3 -m benchmarks.fuzz --inputs 1000000 [-j 2] [--minutes M]
                               [--config NAME ...] [--state FILE] [--failures DIR]

Work goes in rounds of ROUND examples of one property under one config,
spread over `-j` processes. After every round the totals are saved to the
state file (fuzz-state.json): the same command run again, after an
interruption or a kill, carries on from them until `--inputs` examples
have run in all (or `--minutes` of this run have passed). Every failure is
shrunk by hypothesis to a small example, which is saved to DIR (one file a
distinct failure, with the error beside it) so that it can become a test.
Prints the examples tried per config and property and the failures found;
exits 1 if there were any.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
import warnings
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_properties import (PARSERS, charset_labels, clean_or_refuse,  # noqa: E402
                             html_pages, mutated_pages, read_with_parser)

from victor.cleaner import Cleaner  # noqa: E402
from victor.config import shipped_configs  # noqa: E402
from victor.files import write_atomic  # noqa: E402
from victor.batch.timeout import time_limit  # noqa: E402
from victor.batch.workers import exit_with_parent  # noqa: E402

# Examples in a round of one property under one config; rounds alternate
# so that every pair gets its share of any budget.
ROUND = 200
# A generated page that takes this long (wall-clock, on a busy machine) has
# hit something quadratic; the properties also check CPU time.
HANG_SECONDS = 60.0


def same_twice(cleaner: Cleaner, data: bytes) -> None:
    first, second = clean_or_refuse(cleaner, data), clean_or_refuse(cleaner, data)
    assert (first is None) == (second is None)
    if first is not None:
        assert second.render("victor") == first.render("victor")


# The inputs are small, so that a million of them take hours rather than
# days: markup of up to 60 pieces (runs of a tag up to 40 long), up to
# 1,000 arbitrary bytes, damaged 4 kB stretches of real pages. The tests
# (tests/test_properties.py) try fewer, larger ones.
SMALL_MARKUP = html_pages(max_tokens=60, most_repeats=40)
SMALL_BYTES = st.binary(max_size=1000)
# Each property cleans (or refuses) the generated page and, through
# clean_or_refuse, renders it in every output format.
PROPERTIES = {
    "any bytes": (SMALL_BYTES, clean_or_refuse),
    "markup": (SMALL_MARKUP, clean_or_refuse),
    "damaged real pages": (mutated_pages(window=4000), clean_or_refuse),
    "declared charsets": (st.tuples(SMALL_MARKUP, charset_labels),
                          lambda cleaner, d: clean_or_refuse(cleaner, *d)),
    "every parser": (st.tuples(st.one_of(SMALL_MARKUP, SMALL_BYTES),
                               st.sampled_from(sorted(PARSERS))),
                     lambda cleaner, d: read_with_parser(*d, cleaner.config.name)),
    "same output twice": (st.one_of(SMALL_MARKUP, SMALL_BYTES), same_twice),
}

_cleaners: dict[str, Cleaner] = {}  # a worker process's, one a config


def fuzz_round(config: str, name: str) -> tuple[str, str, int, dict | None]:
    """One round in a worker: (config, property, examples tried, the first
    failure as {signature, example, report} or None)."""
    if config not in _cleaners:
        _cleaners[config] = Cleaner(config)
    cleaner = _cleaners[config]
    strategy, check = PROPERTIES[name]
    tried = 0
    failing: list = []

    @settings(max_examples=ROUND, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(data=strategy)
    def run(data) -> None:
        nonlocal tried
        tried += 1
        try:
            with time_limit(HANG_SECONDS, "fuzz"):
                check(cleaner, data)
        except BaseException:
            failing.append(data)  # the last one is the shrunk example
            raise

    try:
        run()
    except Exception as e:
        where = traceback.extract_tb(e.__traceback__)[-1]
        example = failing[-1] if failing else b""
        return config, name, tried, {
            "signature": f"{type(e).__name__} at {Path(where.filename).name}:{where.lineno}",
            "example": example if isinstance(example, bytes) else repr(example).encode(),
            "report": f"{config}, {name}: {''.join(traceback.format_exception(e))}"}
    return config, name, tried, None


def _start_worker() -> None:
    """Ctrl-C goes to the parent, which stops handing out rounds; a parent
    killed outright leaves its workers to notice and exit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's _stop
    threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
    warnings.simplefilter("ignore", HypothesisWarning)  # long reprs of big examples


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt


def load_state(path: Path, configs: list[str]) -> dict:
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        state = {}
    except (OSError, ValueError) as e:
        raise SystemExit(f"{path}: cannot read fuzz state ({e}); move it away to start afresh")
    state.setdefault("tried", {})
    state.setdefault("failures", {})
    state.setdefault("seconds", 0.0)
    for config in configs:
        for name in PROPERTIES:
            state["tried"].setdefault(f"{config}/{name}", 0)
    return state


def record_failure(state: dict, failure: dict, folder: Path) -> None:
    key = f"{failure['report'].split(':', 1)[0]}: {failure['signature']}"
    if key in state["failures"]:
        return
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"failure-{len(state['failures']) + 1}.html"
    path.write_bytes(failure["example"])
    path.with_suffix(".txt").write_text(failure["report"], encoding="utf-8")
    state["failures"][key] = str(path)
    print(f"FAILURE {key}: example in {path}", flush=True)


def fuzz(configs: list[str], target: int, seconds: float, workers: int, state_path: Path,
         failures: Path) -> dict:
    state = load_state(state_path, configs)
    pairs = [(c, n) for c in configs for n in PROPERTIES]
    started = time.monotonic()
    saved_seconds = state["seconds"]
    next_pair = 0
    pending: dict[Future, tuple[str, str]] = {}
    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(workers, context, initializer=_start_worker)

    def total() -> int:
        return sum(state["tried"][f"{c}/{n}"] for c, n in pairs)

    try:
        while True:
            running = time.monotonic() - started
            while (len(pending) < 2 * workers and total() < target and running < seconds):
                # The pair that has had least goes next.
                pair = min(pairs[next_pair:] + pairs[:next_pair],
                           key=lambda p: state["tried"][f"{p[0]}/{p[1]}"])
                next_pair = (pairs.index(pair) + 1) % len(pairs)
                pending[pool.submit(fuzz_round, *pair)] = pair
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                if fut not in pending:
                    continue  # lost with a broken pool
                config, name = pending.pop(fut)
                try:
                    _, _, tried, failure = fut.result()
                except BrokenProcessPool:
                    # A worker died (a crash in C, out of memory): that is a
                    # failure too, though without its example.
                    tried, failure = 0, {"signature": "worker process died", "example": b"",
                                         "report": f"{config}, {name}: a worker died"}
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = ProcessPoolExecutor(workers, context, initializer=_start_worker)
                    pending.clear()
                state["tried"][f"{config}/{name}"] += tried
                if failure is not None:
                    record_failure(state, failure, failures)
            state["seconds"] = saved_seconds + time.monotonic() - started
            write_atomic(state_path, json.dumps(state, indent=1) + "\n")
    except KeyboardInterrupt:
        print("interrupted: run the same command again to carry on", flush=True)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    return state


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=1_000_000,
                    help="examples to reach in all, this run and those before (default 1,000,000)")
    ap.add_argument("--minutes", type=float, default=float("inf"),
                    help="stop this run after this long (default: when --inputs are done)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--config", action="append",
                    help="config to fuzz (repeatable; default: every shipped config)")
    ap.add_argument("--state", default="fuzz-state.json",
                    help="totals so far, read and updated (default fuzz-state.json)")
    ap.add_argument("--failures", default="fuzz-failures",
                    help="folder for the shrunk failing examples (default fuzz-failures)")
    args = ap.parse_args()
    # Stop after the rounds in hand on Ctrl-C or a plain kill, even when
    # started in the background (nohup, &), where SIGINT comes ignored.
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    configs = args.config or shipped_configs()
    state = fuzz(configs, args.inputs, args.minutes * 60, args.jobs, Path(args.state),
                 Path(args.failures))
    done = sum(n for key, n in state["tried"].items() if key.split("/")[0] in configs)
    print(f"{state['seconds'] / 60:.1f} minutes in all, {done:,} examples, "
          f"{len(state['failures'])} failures")
    for key, n in state["tried"].items():
        print(f"  {key}: {n:,} examples")
    for key, path in state["failures"].items():
        print(f"  failure: {key}: {path}")
    return 1 if state["failures"] else 0


if __name__ == "__main__":
    status = main()
    sys.stdout.flush()
    # Without waiting for the rounds still in the workers' hands, which an
    # interrupted run no longer counts: the workers see their parent gone
    # and exit.
    os._exit(status)
