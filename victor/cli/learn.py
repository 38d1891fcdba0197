"""`victor learn`: train a model (the CRF, its calibration, its second
pass: victor/training/pipeline.py) or cross-validate, from annotated
pages."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from victor.cli.common import _CONFIG_HELP, fail
from victor.config import DEFAULT_CONFIG, load_config
from victor.errors import VictorError
from victor.training.folds import DEFAULT_FOLDS, SPLITS


def learn_main(args: argparse.Namespace) -> int:
    """`victor learn` once its arguments are parsed; returns the exit status.
    Training is imported here, so that `victor clean` never loads it."""
    from victor import features, perplexity
    from victor.model import dependents, save
    from victor.training.crossval import cross_validate, report, with_second_pass
    from victor.training.dataset import annotation_files, load_examples
    from victor.training.fitting import check_model_target
    from victor.training.pipeline import checked_recipe, train
    from victor.training.temperature import calibrate, calibration_report

    try:
        config = load_config(args.config)
        if args.second_pass:
            raise VictorError("--second-pass RUN.json is gone: victor learn --config NAME -o "
                              "FOLDER FILES.anno trains the CRF and its second pass together "
                              "(docs/models.md)")
        if args.from_model:
            return _from_model(args, config)
        params = dict(config.crf)
        given = {key: value for key, value in (
            ("c1", args.c1), ("c2", args.c2), ("max-iterations", args.max_iterations),
            ("far-other-share", args.far_other_share), ("min-sites", args.min_sites))
            if value is not None}
        params.update(given)
        grid = _search_grid(args, given)
        model_path = Path(args.output or config.model)
        trains = args.output is not None or not args.cross_validate
        folds = args.cross_validate or args.calibrate
        if trains:
            check_model_target(model_path, args.overwrite, args.replace_shipped_model)
            checked_recipe(config, params, folds)
        # Each page's folder, for the held-out figures per collection.
        sources = {f: source if Path(source).is_dir() else str(Path(source).parent)
                   for source in args.files for f in annotation_files([source])}
        files = sorted(sources)  # the same pages make the same model, in any order given
        if args.cross_validate:
            _check_folds(args.cross_validate, len(files), args.split)
        started = time.perf_counter()
        selected = features.select_features(config, args.disable)
        examples = load_examples(files, config, perplexity.for_config(config, selected),
                                 args.disable)
        print(f"{len(examples)} pages, {sum(len(e.labels) for e in examples)} blocks, "
              f"features in {time.perf_counter() - started:.1f}s", file=sys.stderr)

        def held_out(results) -> None:
            """The whole pipeline's held-out figures on the folds' results."""
            if config.second_pass is not None:
                results = with_second_pass(results, examples, config, args.jobs, args.disable)
                print(f"{config.name}'s second pass applied, its trees cross-fitted on the "
                      "same folds", file=sys.stderr)
            print(report(results, {e.name: sources[e.name] for e in examples}), flush=True)
            if not trains:  # training says it as its calibration step
                print(calibration_report(calibrate(results, examples, args.split)))

        if not trains:
            with tempfile.TemporaryDirectory(prefix="victor-cv-") as workdir:
                held_out(cross_validate(examples, config, args.cross_validate, params,
                                        workdir, args.jobs, args.split))
            return 0
        notes = {}
        if grid:
            params, notes["search"] = _search(args, examples, config, params, grid)
        progress = _Progress(started)
        model = train(examples, config, params, folds=folds, split=args.split,
                      jobs=args.jobs, disabled=args.disable, notes=notes,
                      progress=progress.for_training(),
                      on_folds=held_out if args.cross_validate else None)
        progress.close()
        saved = save(model, model_path)
        print(f"wrote {model_path}: {len(examples)} pages, labels {saved.crf.metadata['labels']}"
              f"{', with its second pass' if saved.trees is not None else ''}; "
              f"took {_duration(time.perf_counter() - started)} in all", file=sys.stderr)
        _note_dependents(model_path, dependents)
        return 0
    except VictorError as e:
        return fail(str(e), args.debug)


def _search_grid(args: argparse.Namespace, given: dict) -> dict:
    """The grid `--search` asks for, refused before any page is read if it
    cannot be run."""
    from victor.training.search import parse_grid

    if not args.search:
        return {}
    if args.cross_validate:
        raise VictorError("--search cross-validates each candidate itself; give it or "
                          "--cross-validate, not both")
    grid = parse_grid(args.search)
    both = [key for key in given if key.replace("-", "_") in grid]
    if both:
        raise VictorError(f"--{both[0]} and --search {both[0]}=... both given; "
                          "search it or set it, not both")
    return grid


def _search(args: argparse.Namespace, examples, config, params: dict,
            grid: dict) -> tuple[dict, dict]:
    """`--search`: each candidate's held-out figures printed as it is
    done, then the chosen one; returns the parameters to train with and
    what the model records of the search."""
    from victor.crf import check_params
    from victor.training.search import best, candidates, record, search

    count = len(candidates(grid))
    print(f"searching {count} candidates on {args.search_folds} {args.split} folds "
          f"({count * args.search_folds} trainings)", file=sys.stderr)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="victor-search-") as workdir:
        found = search(examples, config, params, grid, args.search_folds, workdir, args.jobs,
                       args.split, lambda c: print(f"{c.name}: held-out word F1 {c.f1:.4f} "
                                                   f"(P {c.precision:.4f}, R {c.recall:.4f})",
                                                   flush=True))
    chosen = best(found)
    print(f"chosen: {chosen.name} (word F1 {chosen.f1:.4f}; "
          f"{time.perf_counter() - started:.0f} s)", flush=True)
    return ({**check_params(params, "crf settings"), **chosen.params},
            record(found, args.search_folds, args.split))


def _from_model(args: argparse.Namespace, config) -> int:
    """`victor learn --config NAME --from-model MODEL -o FOLDER`: MODEL's
    CRF, calibration and trees with the config's decoding keys, no
    training (victor.model.with_decoding)."""
    from victor.model import dependents, load, save, with_decoding
    from victor.training.fitting import check_model_target

    if args.files:
        raise VictorError("--from-model trains nothing: give no FILES")
    model_path = Path(args.output or config.model)
    check_model_target(model_path, args.overwrite, args.replace_shipped_model)
    saved = save(with_decoding(load(args.from_model, config), config), model_path)
    print(f"wrote {model_path}: {saved.record['made_from']['model']}'s trained parts with "
          f"{config.name}'s decoding", file=sys.stderr)
    _note_dependents(model_path, dependents)
    return 0


def _check_folds(k: int, pages: int, split: str) -> None:
    """Before the pages' features are computed: each fold needs a site (or
    a page) of its own. More sites than pages cannot be, so the pages'
    number alone tells the case the folds' own check put as 'between 2
    and 1 folds'."""
    if k < 2:
        raise VictorError(f"--cross-validate {k}: give 2 folds or more")
    if pages < k:
        need = (f"pages from at least {k} web sites (a fold holds out whole sites)"
                if split == "site" else f"at least {k} pages, one a fold")
        raise VictorError(f"--cross-validate {k}: needs {need}; {pages} annotated "
                          f"page{'s' if pages != 1 else ''} given")


def _note_dependents(folder: Path, dependents) -> None:
    """A shipped model that names files of the one just written (the
    article model, the general one's) must be written again."""
    for other in dependents(folder):
        print(f"note: {other} names files of {folder}, which changed: write it again with "
              f"victor learn --config {other.name} --from-model {folder} -o {other} "
              "--replace-shipped-model", file=sys.stderr)


class _Progress:
    """What training says on standard error: a line a step, with the time
    since the command started, and on a terminal one status line redrawn
    while L-BFGS iterates."""

    def __init__(self, started: float):
        self.started = started
        self.drawn = sys.stderr.isatty()
        self.shown = False

    def for_training(self):
        from victor.training.pipeline import Progress

        return Progress(self.stage, self.iteration if self.drawn else None, self.started)

    def stage(self, line: str) -> None:
        self.close()
        print(f"[{_duration(time.perf_counter() - self.started)}] {line}", file=sys.stderr,
              flush=True)

    def iteration(self, iteration: int, loss: float) -> None:
        self.shown = True
        print(f"\riteration {iteration}  loss {loss:.2f}\033[K", end="", file=sys.stderr,
              flush=True)

    def close(self) -> None:
        if self.shown:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
            self.shown = False


def _duration(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def _learn_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("files", nargs="*", help=".anno files (or folders of them)")
    ap.add_argument("--config", default=DEFAULT_CONFIG, help=_CONFIG_HELP)
    ap.add_argument("-o", "--output", metavar="FOLDER",
                    help="the model folder to write (default: the config's model, which must "
                         "not be a shipped one; docs/models.md)")
    ap.add_argument("--overwrite", action="store_true",
                    help="replace the model folder if it exists (a model folder only)")
    ap.add_argument("--replace-shipped-model", action="store_true",
                    help="allow writing over a model shipped with Victor (victor/models/)")
    ap.add_argument("--cross-validate", type=int, metavar="K",
                    help="split the pages into K folds, train and test each, print the "
                         "whole pipeline's held-out figures (per FILES argument too); with "
                         "-o, then train the model, its calibration and trees on those folds")
    ap.add_argument("--calibrate", type=int, metavar="K", default=DEFAULT_FOLDS,
                    help=f"site folds (K more CRF trainings, default {DEFAULT_FOLDS}) whose "
                         "held-out pages give the content probability's calibration "
                         "(victor/decoding/calibration.py) and the second pass's training "
                         "pages; 0: the CRF alone, uncalibrated, for a config without a "
                         "second pass")
    ap.add_argument("--split", choices=SPLITS, default="site",
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
    ap.add_argument("--search", action="append", metavar="NAME=V1,V2,...",
                    help="choose a CRF parameter (c1, c2, max-iterations, far-other-share, "
                         "min-sites) among these values by --search-folds folds of held-out "
                         "sites, then train with the best; repeat for a grid of several")
    ap.add_argument("--search-folds", type=int, default=5, metavar="K",
                    help="folds for --search (default 5)")
    ap.add_argument("--from-model", metavar="MODEL",
                    help="train nothing: write MODEL's CRF, calibration and trees with the "
                         "config's decoding keys (bars, shares) to -o FOLDER")
    ap.add_argument("--second-pass", metavar="RUN.json", help=argparse.SUPPRESS)
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="processes for the folds (threads for the second pass's trees)")
    ap.add_argument("--debug", action="store_true", help="show tracebacks")
