"""The `victor` command (also `python -m victor`, and the scripts clean.py,
learn.py and annotate.py): its arguments, and what each subcommand does
once they are parsed. Kept apart from the stages so that no stage knows
about terminals or exit codes.

    victor clean [--config NAME] [--format F] [-o DIR] PAGES...
    victor learn [--config NAME] -o MODEL FILES.anno...
    victor annotate [--config NAME] PAGE.html PAGE.anno
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Sequence, TextIO

import victor
from victor import batch, files
from victor.batch import inputs, workers
from victor.config import CONFIG_DIR, DEFAULT_CONFIG, resolve
from victor.errors import VictorError
from victor.batch.timeout import DEFAULT_TIMEOUT
from victor.output import Rendering

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
    from victor.cleaner import config_of

    try:
        named = args.config or (config_of(args.model) if args.model else DEFAULT_CONFIG)
    except VictorError as e:
        return fail(str(e), args.debug)
    config = named if resolve(named).parent == CONFIG_DIR else _absolute(named)
    settings = workers.Settings(config, _absolute(args.model),
                                args.threshold, int(args.max_size * 1_000_000), args.overwrite,
                                args.timeout or None, args.language, args.favor,
                                Rendering(not args.no_links, not args.no_images,
                                          not args.no_tables))
    try:
        # Built here first so that a bad config or model is one clear error
        # before any work; one process (and forked workers) use this one.
        workers.worker_cleaner(settings)
        jobs = inputs.plan(inputs.discover(args.files), args.output, args.format)
        if args.output:
            files.make_folder(args.output)
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

            report = run_dask(jobs, settings, args.dask, write, on_progress)
        else:
            processes = args.jobs if args.jobs > 0 else os.cpu_count() or 1
            report = batch.run(jobs, settings, processes, write, on_progress)
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
    if (report.failed or report.interrupted or len(jobs) > 1 or args.output or report.not_html
            or report.other_language):
        print(report.summary(), file=sys.stderr)
    if report.interrupted:
        return INTERRUPTED
    return 1 if report.failed else 0


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



# --- learn and annotate ------------------------------------------------------

def learn_main(args: argparse.Namespace) -> int:
    from victor.training.learning import main as train_main

    return train_main(args)


def annotate_main(args: argparse.Namespace) -> int:
    try:
        if (args.export or args.stats) and not args.files:
            raise VictorError("annotate: name the .anno files to read")
        if args.from_gold_dir or (args.from_gold and args.output):
            return _from_gold(args)
        if args.export:
            return _export(args)
        if args.stats:
            return _stats(args)
        return _interactive(args)
    except VictorError as e:
        return fail(str(e), args.debug)


def _from_gold(args: argparse.Namespace) -> int:
    from victor import annotation as anno
    from victor.config import load_config

    if len(args.files) != 1 or not args.output:
        usage = ("--from-gold GOLD PAGE -o PAGE.anno" if args.from_gold
                 else "--from-gold-dir GOLD_DIR HTML_DIR -o OUT_DIR")
        raise VictorError(f"annotate: usage: {usage}")
    config = load_config(args.config)
    if args.from_gold:
        pairs = [(Path(args.from_gold), Path(args.files[0]), Path(args.output))]
    else:
        pairs = anno.gold_pairs(args.from_gold_dir, args.files[0], args.output)
    report = anno.annotate_pairs(pairs, config, sys.stdout, args.overwrite)
    print(report.summary(), file=sys.stdout if not report.failed else sys.stderr)
    return 1 if report.failed else 0


def _export(args: argparse.Namespace) -> int:
    from victor import annotation as anno

    for name in args.files:
        text = anno.export(anno.load_annotation(name), args.export)
        if args.output:
            target = Path(args.output) / (Path(name).stem + ".txt")
            if target.exists() and not args.overwrite:
                # Beside the pages, NAME.txt is often the gold text itself.
                raise VictorError(f"{target}: exists; export elsewhere or give --overwrite")
            files.write_atomic(target, text)
        else:
            sys.stdout.write(text)
    return 0


def _stats(args: argparse.Namespace) -> int:
    from victor import annotation as anno

    counts: Counter[str] = Counter()
    for name in args.files:
        counts.update(anno.load_annotation(name).labels)
    sys.stdout.write(f"{len(args.files)} annotated pages\n" + anno.label_stats(counts))
    return 0


def _interactive(args: argparse.Namespace) -> int:
    """The full-screen tool, victor/annotation/tui.py: one page and its .anno, optionally
    pre-filled from gold text or a model for a person to correct."""
    if len(args.files) != 2:
        raise VictorError("annotate: give a page and its .anno file (or --from-gold, --export, --stats)")
    from victor import annotation as anno
    from victor.annotation import tui
    from victor.config import load_config

    config = load_config(args.config)
    prefill = None
    if args.from_gold or args.model:
        page = anno.read_page_file(args.files[0], config)
        if args.from_gold:
            prefill = anno.label_from_gold([b.text for b in page.blocks],
                                           anno.read_gold(Path(args.from_gold)), args.files[0]).labels
        else:
            from victor.cleaner import Cleaner

            prefill = Cleaner(config, args.model).label(page).labels
    return tui.run(config, args.files[0], args.files[1], prefill)


# --- the arguments -------------------------------------------------------------

_CONFIG_HELP = (f"config name (victor/configs/NAME.yaml: "
                f"{', '.join(sorted(p.stem for p in CONFIG_DIR.glob('*.yaml')))}) or path "
                f"(default {DEFAULT_CONFIG})")


def _clean_arguments(ap: argparse.ArgumentParser) -> None:
    from victor.output import DEFAULT_FORMAT, FORMATS

    ap.add_argument("files", nargs="+",
                    help="pages, WARC files (.warc, .warc.gz), folders of them, fsspec URLs, "
                         "or - for standard input")
    ap.add_argument("--config", help=_CONFIG_HELP + "; with --model alone, the one the "
                                      "model was trained with")
    ap.add_argument("--model", help="model file (default: the config's shipped model)")
    ap.add_argument("--format", choices=FORMATS,
                    help=f"output format of pages (default {DEFAULT_FORMAT}); "
                         "WARC files give jsonl")
    ap.add_argument("-o", "--output",
                    help="folder (or fsspec URL) for one output file a page and one NAME.jsonl "
                         "a WARC file (default: standard output)")
    ap.add_argument("--threshold", type=float,
                    help="keep content blocks only if their (calibrated) content probability, "
                         "between 0 and 1, is at least this; it only takes blocks away")
    ap.add_argument("--language", metavar="CODES",
                    help="keep only pages whose cleaned text is in one of these languages "
                         "(ISO 639 codes, as en or en,de); the others are skipped, not failed")
    ap.add_argument("--favor", choices=("precision", "recall"),
                    help="keep less (precision) or more (recall) around what the model is "
                         "sure of (docs/output.md)")
    ap.add_argument("--no-links", action="store_true",
                    help="markdown and html: a link's text without its address")
    ap.add_argument("--no-images", action="store_true",
                    help="markdown and html: an image's alt text in place of the image")
    ap.add_argument("--no-tables", action="store_true",
                    help="markdown and html: a table's cells as lines of text, not a table")
    ap.add_argument("--overwrite", action="store_true",
                    help="replace outputs that exist already (never an input)")
    ap.add_argument("--max-size", type=float, default=50, help="largest page in MB (default 50)")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                    help="seconds a page may take; a slower one is reported and skipped "
                         f"(default {DEFAULT_TIMEOUT:g}; 0: no limit)")
    engine = ap.add_mutually_exclusive_group()
    engine.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                        help="worker processes (default 1; 0: one a core)")
    engine.add_argument("--dask", metavar="ADDRESS",
                        help="run on a Dask cluster (the 'dask' extra): a scheduler address, "
                             "or local:N for N worker processes on this machine")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no progress bar and no failure until the summary at the end")
    ap.add_argument("--debug", action="store_true", help="show tracebacks")


def _learn_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("files", nargs="+", help=".anno files (or folders of them)")
    ap.add_argument("--config", default=DEFAULT_CONFIG, help=_CONFIG_HELP)
    ap.add_argument("-o", "--output",
                    help="model file to write (default: the config's model, which must not be "
                         "a shipped one)")
    ap.add_argument("--overwrite", action="store_true",
                    help="replace the model file if it exists")
    ap.add_argument("--replace-shipped-model", action="store_true",
                    help="allow writing over a model shipped with Victor (victor/models/)")
    ap.add_argument("--cross-validate", type=int, metavar="K",
                    help="split the pages into K folds, train and test each, print the figures")
    ap.add_argument("--calibrate", type=int, metavar="K",
                    help="after training, fit the content probability's calibration on K folds "
                         "(K more trainings) and record it in the model (victor/decoding/calibration.py)")
    ap.add_argument("--split", choices=("site", "page"), default="site",
                    help="cross-validation folds keep each web site on one side (default), "
                         "or split pages regardless of site (the old, optimistic figures)")
    ap.add_argument("--disable", nargs="+", default=[], metavar="FEATURE",
                    help="leave these features out (FAMILY.* for a whole family)")
    ap.add_argument("--c1", type=float, help="L1 regularisation (default: from the config)")
    ap.add_argument("--c2", type=float, help="L2 regularisation (default: from the config)")
    ap.add_argument("--max-iterations", type=int,
                    help="L-BFGS iterations (default: from the config)")
    ap.add_argument("--far-other-share", type=float, metavar="SHARE",
                    help="train on this share of the boilerplate runs beyond 10 blocks of "
                         "any content (default: from the config)")
    ap.add_argument("--min-sites", type=int, metavar="N",
                    help="train only on feature values (class words...) that N training sites "
                         "or more show (default: from the config)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="processes for cross-validation folds")
    ap.add_argument("--debug", action="store_true", help="show tracebacks")


def _annotate_arguments(ap: argparse.ArgumentParser) -> None:
    from victor.annotation import EXPORTS
    from victor.annotation.guide import guide

    # The guide in docs/annotate.md is not installed with the package: what
    # a person needs to start is here, and on ? in the tool.
    ap.formatter_class = argparse.RawDescriptionHelpFormatter
    ap.epilog = (guide() + "\nThe full guide: docs/annotate.md in Victor's source; the .anno "
                 "format: docs/annotation.md.")

    ap.add_argument("files", nargs="*",
                    help="PAGE.html PAGE.anno (interactive); the page (--from-gold); the folder of "
                         "pages (--from-gold-dir); .anno files (--export, --stats)")
    ap.add_argument("--config", default=DEFAULT_CONFIG, help=_CONFIG_HELP)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--from-gold", metavar="GOLD", help="label the page from this gold text")
    mode.add_argument("--from-gold-dir", metavar="GOLD_DIR",
                      help="label every HTML_DIR/NAME.html from GOLD_DIR/NAME.txt into OUT_DIR/NAME.anno")
    mode.add_argument("--export", choices=EXPORTS, help="print the text the annotations keep")
    mode.add_argument("--stats", action="store_true", help="count the labels (the thesis's Table 5.1)")
    ap.add_argument("-o", "--output",
                    help="the .anno file (--from-gold); the folder for .anno files (--from-gold-dir) "
                         "or for NAME.txt files (--export)")
    ap.add_argument("--overwrite", action="store_true",
                    help="replace .anno files (they may hold a person's corrections) or exported "
                         "texts that exist")
    ap.add_argument("--model", help="interactive: pre-fill labels from this model for correction")
    ap.add_argument("--debug", action="store_true", help="show tracebacks")


# subcommand: (help, arguments, what it does)
COMMANDS = {
    "clean": ("clean web pages with a trained model", _clean_arguments, clean_main),
    "learn": ("train a model, or cross-validate, from annotated pages", _learn_arguments,
              learn_main),
    "annotate": ("label the blocks of pages for training", _annotate_arguments, annotate_main),
}


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="victor", description="Victor cleans web pages: a CRF labels each text block as "
                                   "paragraph, header, list item, continuation or boilerplate.")
    ap.add_argument("--version", action="version", version=f"victor {victor.__version__}")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (help_text, arguments, _) in COMMANDS.items():
        arguments(sub.add_parser(name, help=help_text, description=help_text[0].upper()
                                 + help_text[1:] + "."))
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """The `victor` command; returns the exit status."""
    args = parser().parse_args(argv)
    return COMMANDS[args.command][2](args)


def script(command: str) -> int:
    """What clean.py, learn.py and annotate.py run: the subcommand with the
    script's arguments."""
    return main([command, *sys.argv[1:]])
