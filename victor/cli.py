"""What the scripts do once their arguments are parsed. Kept apart from the
scripts so that they stay argument parsing only, and from the stages so
that no stage knows about terminals or exit codes."""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from typing import TextIO

from victor import batch
from victor.config import CONFIG_DIR, resolve
from victor.errors import VictorError

INTERRUPTED = 130  # what a shell reports for a program stopped by Ctrl-C
CLOSED_PIPE = 141  # and for one stopped by writing to a pipe nobody reads


def fail(message: str, debug: bool = False) -> int:
    if debug:
        traceback.print_exc()
    print(f"error: {message}", file=sys.stderr)
    return 2


def _absolute(path: str | None) -> str | None:
    """Worker processes started elsewhere (a cluster) must find the same
    files whatever their working folder."""
    return os.path.abspath(path) if path else None


def clean_main(args: argparse.Namespace) -> int:
    config = args.config if resolve(args.config).parent == CONFIG_DIR else _absolute(args.config)
    settings = batch.Settings(config, _absolute(args.model),
                              args.threshold, int(args.max_size * 1_000_000), args.overwrite,
                              args.timeout or None)
    try:
        # Built here first so that a bad config or model is one clear error
        # before any work; one process (and forked workers) use this one.
        batch.worker_cleaner(settings)
        jobs = batch.plan(batch.discover(args.files), args.output, args.format)
        if args.output:
            batch.make_folder(args.output)
    except VictorError as e:
        return fail(str(e), args.debug)

    bar = Progress(sys.stderr) if sys.stderr.isatty() else None
    shared_terminal = bar is not None and sys.stdout.isatty()

    def write(text: str) -> None:
        if shared_terminal:
            bar.clear()
        sys.stdout.write(text)
        sys.stdout.flush()

    on_progress = bar.update if bar is not None else None
    try:
        if args.dask:
            from victor.cluster import run_dask

            report = run_dask(jobs, settings, args.dask, write, on_progress)
        else:
            workers = args.jobs if args.jobs > 0 else os.cpu_count() or 1
            report = batch.run(jobs, settings, workers, write, on_progress)
    except VictorError as e:
        return fail(str(e), args.debug)
    except KeyboardInterrupt:  # before the batch began, or while a cluster started
        print("interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:  # the reader of standard output has gone (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_PIPE
    finally:
        if bar is not None:
            bar.clear()
    if report.failed or report.interrupted or len(jobs) > 1 or args.output or report.not_html:
        print(report.summary(), file=sys.stderr)
    if report.interrupted:
        return INTERRUPTED
    return 1 if report.failed else 0


class Progress:
    """One line on the terminal's standard error, redrawn at most five
    times a second: pages done, their rate, failures, and the time left
    when the input's size is known."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, report: batch.Report, fraction: float | None) -> None:
        now = time.monotonic()
        if now - self.last < 0.2:
            return
        self.last = now
        self.shown = True
        self.stream.write("\r" + progress_line(report, fraction, now - self.start) + "\033[K")
        self.stream.flush()

    def clear(self) -> None:
        """Before page text goes to the same terminal, and at the end."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False


def progress_line(report: batch.Report, fraction: float | None, elapsed: float) -> str:
    rate = report.done / elapsed if elapsed > 0 else 0.0
    parts = [f"{report.done} pages", f"{rate:.1f} pages/s", f"{len(report.failed)} errors"]
    if fraction is not None:
        fraction = min(max(fraction, 0.0), 1.0)
        filled = round(fraction * 20)
        parts.insert(0, f"[{'#' * filled}{'.' * (20 - filled)}] {fraction:4.0%}")
        if fraction > 0:
            parts.append(f"{_duration(elapsed * (1 - fraction) / fraction)} left")
    return "  ".join(parts)


def _duration(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"

