"""The table of subcommands, the parser built from it, and `main`, which
runs the subcommand the arguments name."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

import victor
from victor.cli.annotate import _annotate_arguments, annotate_main
from victor.cli.clean import _clean_arguments, clean_main
from victor.cli.learn import _learn_arguments, learn_main
from victor.cli.lm import _lm_arguments, lm_main

COMMANDS = {
    "clean": ("clean web pages with a trained model", _clean_arguments, clean_main),
    "learn": ("train a model, or cross-validate, from annotated pages", _learn_arguments,
              learn_main),
    "annotate": ("label the blocks of pages for training", _annotate_arguments, annotate_main),
    "lm": ("train or query the language model of the perplexity feature", _lm_arguments,
           lm_main),
}


class _Version(argparse.Action):
    """Names the path that runs (victor.compiled) besides the version:
    found when asked, as loading the compiled twins imports their stages."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from victor import compiled

        print(f"victor {victor.__version__}, {compiled.path()}")
        parser.exit()


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="victor", description="Victor cleans web pages: a CRF labels each text block as "
                                   "paragraph, header, list item, continuation or boilerplate.")
    ap.add_argument("--version", action=_Version, nargs=0,
                    help="show the version and which path runs, compiled or pure Python")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (help_text, arguments, _) in COMMANDS.items():
        arguments(sub.add_parser(name, help=help_text, description=help_text[0].upper()
                                 + help_text[1:] + "."))
    return ap


def main(argv: Sequence[str] | None = None, default_format: str | None = None) -> int:
    """The `victor` command; returns the exit status. `default_format` is
    the format `clean` writes where none is given (clean.py's)."""
    args = parser().parse_args(argv)
    if default_format is not None:
        args.default_format = default_format
    return COMMANDS[args.command][2](args)


def script(command: str) -> int:
    """What clean.py, learn.py and annotate.py run: the subcommand with the
    script's arguments."""
    # clean.py, the original tool's script, writes CleanEval's format unless told.
    return main([command, *sys.argv[1:]], "cleaneval" if command == "clean" else None)
