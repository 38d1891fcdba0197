"""`victor annotate`: label pages by hand in the terminal, from a person's
cleaned text, or export and count labels."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from victor.cli.common import _CONFIG_HELP, fail
from victor.config import DEFAULT_CONFIG
from victor import files
from victor.errors import VictorError


def annotate_main(args: argparse.Namespace) -> int:
    try:
        if (args.export or args.stats) and not args.files:
            raise VictorError("annotate: name the .anno files to read")
        # --from-gold with a page and its .anno pre-fills the full-screen tool.
        if args.from_gold_dir or (args.from_gold and (args.output or len(args.files) != 2)):
            return _from_gold(args)
        if args.export:
            return _export(args)
        if args.stats:
            return _stats(args)
        return _interactive(args)
    except VictorError as e:
        return fail(str(e), args.debug)


def _from_gold(args: argparse.Namespace) -> int:
    from victor.annotation import from_gold
    from victor.config import load_config

    if args.from_gold and len(args.files) == 1 and not args.output:
        raise VictorError("annotate --from-gold: name the .anno file to write with -o "
                          "PAGE.anno (or give PAGE.html PAGE.anno to correct the labels by hand)")
    if len(args.files) != 1 or not args.output:
        usage = ("--from-gold GOLD PAGE -o PAGE.anno" if args.from_gold
                 else "--from-gold-dir GOLD_DIR HTML_DIR -o OUT_DIR")
        raise VictorError(f"annotate: usage: {usage}")
    config = load_config(args.config)
    if args.from_gold:
        pairs = [(Path(args.from_gold), Path(args.files[0]), Path(args.output))]
    else:
        pairs = from_gold.gold_pairs(args.from_gold_dir, args.files[0], args.output)
    report = from_gold.annotate_pairs(pairs, config, sys.stdout, args.overwrite)
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
            from victor.annotation import align, gold

            # As `--from-gold-dir` labels (victor/annotation/from_gold.py).
            prefill = align.label_from_gold(
                [b.text for b in page.blocks], gold.read_gold(Path(args.from_gold)),
                args.files[0], [align.markup_kind(b.tags) for b in page.blocks],
                [align.is_alt_text(b.tags) for b in page.blocks]).labels
        else:
            from victor.cleaner import Cleaner

            prefill = Cleaner(config, args.model).label(page).labels
    return tui.run(config, args.files[0], args.files[1], prefill)


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
