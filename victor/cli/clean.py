"""`victor clean`: pages in, cleaned pages out, with a progress line on a
terminal and a summary at the end."""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import TextIO
from urllib.parse import urlsplit

from victor import batch, files
from victor.batch import inputs, manifest, workers
from victor.batch.jobs import plan
from victor.batch.timeout import DEFAULT_TIMEOUT
from victor.cli.common import _CONFIG_HELP, CLOSED_PIPE, INTERRUPTED, _absolute, fail
from victor.config import CONFIG_DIR, DEFAULT_CONFIG, resolve
from victor.settings import BY_KEY, FAVOR
from victor.errors import VictorError
from victor.output import Rendering


def clean_main(args: argparse.Namespace) -> int:
    try:
        check_options(args)
    except VictorError as e:
        return fail(str(e), args.debug)
    named = args.config or (None if args.model else DEFAULT_CONFIG)
    config = named if named is None or resolve(named).parent == CONFIG_DIR else _absolute(named)
    from victor.model import resolve as model_folder

    model = _absolute(str(model_folder(args.model))) if args.model else None
    options = workers.RunOptions(config, model,
                                args.threshold, int(args.max_size * 1_000_000), args.overwrite,
                                args.timeout or None, args.language, args.favor,
                                Rendering(not args.no_links, not args.no_images,
                                          not args.no_tables), args.comments)
    try:
        # Built here first so that a bad config or model is one clear error
        # before any work; one process (and forked workers) use this one.
        cleaner = workers.worker_cleaner(options)
        listing = inputs.discover(args.files)
        jobs = plan(listing.inputs, args.output, args.format, args.url or "",
                           args.default_format)
        removed = skipped_again = 0
        if args.output:
            files.make_folder(args.output)
            manifest.check_and_record(
                args.output, manifest.settings_of(cleaner, options, [job.fmt for job in jobs],
                                                  args.url or ""), args.overwrite)
            # Pages an earlier run skipped for their language are not cleaned again.
            passed = manifest.skipped_before(args.output) if not args.overwrite else set()
            before = len(jobs)
            jobs = [job for job in jobs if _name_in(args.output, job.output) not in passed]
            skipped_again = before - len(jobs)
            removed = files.remove_temporaries(
                [*(job.output for job in jobs if job.output is not None),
                 files.join(args.output, manifest.MANIFEST)])
    except VictorError as e:
        return fail(str(e), args.debug)

    # A failure is shown as it happens where more is to come: a single page's
    # is in the summary a moment later.
    bar = None if args.quiet else Progress(sys.stderr, sys.stderr.isatty(),
                                           len(jobs) > 1 or any(job.warc for job in jobs))
    shared_terminal = bar is not None and bar.drawn and sys.stdout.isatty()

    def write(text: str) -> None:
        if shared_terminal:
            bar.clear()
        sys.stdout.write(text)
        sys.stdout.flush()

    on_progress = bar.update if bar is not None else None
    try:
        if args.dask:
            from victor.batch.cluster import run_dask

            report = run_dask(jobs, options, args.dask, write, on_progress)
        else:
            processes, note = bounded_processes(args.jobs, jobs)
            if note and not args.quiet:
                print(note, file=sys.stderr)
            report = batch.run(jobs, options, processes, write, on_progress)
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
    report.skipped += skipped_again
    if args.output and report.other_languages:
        outputs = {job.source: job.output for job in jobs}
        try:
            manifest.record_skipped(args.output, [_name_in(args.output, outputs[source])
                                                  for source, _ in report.other_languages
                                                  if outputs.get(source)])
        except VictorError as e:
            print(f"note: {e}", file=sys.stderr)
    report.passed_over = listing.passed_over
    report.resumable = bool(args.output)
    report.temporaries_removed = removed
    if (report.failed or report.interrupted or report.stopped or len(jobs) > 1 or args.output
            or report.not_html or report.other_language or report.passed_over.lines()):
        print(report.summary(), file=sys.stderr)
    if report.interrupted:
        return INTERRUPTED
    return 1 if report.failed or report.stopped else 0


def _name_in(outdir: str, output: str | None) -> str:
    """An output's name in its folder, as the folder's record keeps it."""
    return (output or "")[len(outdir):].lstrip("/")


def bounded_processes(asked: int, jobs: list) -> tuple[int, str]:
    """The processes `-j` gets: no more than the machine's cores, nor than
    the pages when no WARC file brings more of them (`-j 10000` started
    thousands of processes for one page); 0 is one a core. The note says
    in one line where fewer than asked run."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    pages = None if any(job.warc for job in jobs) else max(len(jobs), 1)
    bound = min(cores, pages) if pages is not None else cores
    if asked == 0:
        return bound, ""
    if asked <= bound:
        return asked, ""
    limit = "as many as the cores" if bound == cores else "one a page"
    return bound, f"note: -j {asked}: {bound} process{'es' * (bound != 1)}, {limit}"


# The longest --timeout: a timer of 1e10 s overflows the platform's time_t,
# and no page takes a day.
MAX_TIMEOUT = 86_400
# --max-size's default, in MB: a page's tree, blocks and features take many
# times its size in memory, most for a page of many small elements, so that
# a worker's memory stays bounded (docs/robustness.md, "Limits").
DEFAULT_MAX_SIZE = 10


def check_options(args: argparse.Namespace) -> None:
    """Limits no page can meet are the user's mistake, told once before any
    work: they failed every page with an internal error (a negative read
    length, an itimer error), or were taken silently (--jobs -3); so is an
    address links cannot resolve against."""
    if not (math.isfinite(args.max_size) and args.max_size > 0):
        raise VictorError(f"--max-size {args.max_size:g}: the largest page must be more "
                          "than 0 MB")
    if not (math.isfinite(args.timeout) and 0 <= args.timeout <= MAX_TIMEOUT):
        raise VictorError(f"--timeout {args.timeout:g}: give the seconds a page may take, "
                          f"at most {MAX_TIMEOUT} (a day), or 0 for no limit")
    if args.jobs < 0:
        raise VictorError(f"--jobs {args.jobs}: give the number of processes, or 0 for one "
                          "a core")
    if args.url is not None and not urlsplit(args.url).netloc:
        raise VictorError(f"--url {args.url!r}: give a whole address, as "
                          "https://example.com/news/ or https://example.com/page.html")


class Progress:
    """A failed page in one line as soon as it is known (a long batch
    listed them only at its end), and, when `drawn` (standard error is a
    terminal), one line redrawn at most five times a second: pages done,
    their rate, failures, and the time left when the input's size is known."""

    def __init__(self, stream: TextIO, drawn: bool = True, failures: bool = True):
        self.stream = stream
        self.drawn = drawn
        self.live_failures = failures
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False
        self.failures = 0  # reported so far

    def update(self, report: batch.Report, fraction: float | None) -> None:
        if self.live_failures and len(report.failed) > self.failures:
            self.clear()
            for source, why in report.failed[self.failures:]:
                self.stream.write(f"failed: {source}: {why}\n")
            self.failures = len(report.failed)
            self.stream.flush()
        if not self.drawn:
            return
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


def _clean_arguments(ap: argparse.ArgumentParser) -> None:
    from victor.output import DEFAULT_FORMAT, FORMATS

    ap.add_argument("files", nargs="+",
                    help="pages, WARC files (.warc, .warc.gz), folders of them, fsspec URLs, "
                         "or - for standard input")
    ap.add_argument("--config", help=_CONFIG_HELP + "; with --model alone, the one the "
                                      "model was trained with")
    ap.add_argument("--model", metavar="FOLDER",
                    help="a model folder, or a shipped model's name (default: the model the config "
                         "names; alone, it brings its own config: docs/models.md)")
    ap.add_argument("--format", choices=list(FORMATS),
                    help=f"output format of pages (default {DEFAULT_FORMAT}, as extract(); "
                         "clean.py: cleaneval); WARC files give jsonl")
    ap.set_defaults(default_format=DEFAULT_FORMAT)
    ap.add_argument("-o", "--output",
                    help="folder (or fsspec URL) for one output file a page and one NAME.jsonl "
                         "a WARC file (default: standard output)")
    ap.add_argument("--url", metavar="URL",
                    help="the address the pages were saved from, which their relative links "
                         "resolve against: a page's own, or a folder's (its pages' addresses "
                         "follow their paths below it); a page's own <base href> still "
                         "applies, and WARC records keep theirs")
    ap.add_argument("--threshold", type=float,
                    help="keep content blocks only if their (calibrated) content probability, "
                         "between 0 and 1, is at least this; it only takes blocks away")
    ap.add_argument("--language", metavar="CODES",
                    help="keep only pages whose cleaned text is in one of these languages "
                         "(ISO 639 codes, as en or en,de); the others are skipped, not failed")
    ap.add_argument("--favor", choices=FAVOR,
                    help="keep less (precision) or more (recall) around what the model is "
                         f"sure of; the config's key favor: {BY_KEY['favor'].meaning}; "
                         "second-pass.favor: " + BY_KEY["second-pass.favor"].meaning +
                         " (docs/settings.md)")
    ap.add_argument("--comments", choices=("keep", "drop"),
                    help="readers' comment sections: keep them on every page, or drop them "
                         "from every page but a forum's (its posts are its content); "
                         "default: by the page's type")
    ap.add_argument("--no-links", action="store_true",
                    help="markdown and html: a link's text without its address")
    ap.add_argument("--no-images", action="store_true",
                    help="markdown and html: an image's alt text in place of the image")
    ap.add_argument("--no-tables", action="store_true",
                    help="markdown and html: a table's cells as lines of text, not a table")
    ap.add_argument("--overwrite", action="store_true",
                    help="replace outputs that exist already (never an input)")
    ap.add_argument("--max-size", type=float, default=DEFAULT_MAX_SIZE,
                    help=f"largest page in MB (default {DEFAULT_MAX_SIZE}; memory grows with it)")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                    help="seconds a page may take; a slower one is reported and skipped "
                         f"(default {DEFAULT_TIMEOUT:g}; 0: no limit)")
    engine = ap.add_mutually_exclusive_group()
    engine.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                        help="worker processes (default 1; 0: one a core); never more than "
                             "the cores or the pages")
    engine.add_argument("--dask", metavar="ADDRESS",
                        help="run on a Dask cluster (the 'dask' extra): a scheduler address, "
                             "or local:N for N worker processes on this machine")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no progress bar and no failure until the summary at the end")
    ap.add_argument("--debug", action="store_true", help="show tracebacks")
