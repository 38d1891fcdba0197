"""`victor lm`: the n-gram language model behind the perplexity feature
(docs/notes/perplexity.md): train one from text files, or score sentences with
one."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from victor.cli.common import fail
from victor.errors import VictorError
from victor.settings import key_of


def lm_main(args: argparse.Namespace) -> int:
    """`victor lm train|score` once its arguments are parsed; returns the
    exit status."""
    try:
        if args.lm_command == "train":
            return _train(args)
        return _score(args)
    except VictorError as e:
        return fail(str(e), args.debug)


def _train(args: argparse.Namespace) -> int:
    from victor.perplexity import ngram

    output = Path(args.output)
    if output.exists() and not args.overwrite:
        raise VictorError(f"{output}: exists; give --overwrite to replace it, or another -o")
    if not output.parent.is_dir():
        raise VictorError(f"{output}: cannot write the model (no folder {output.parent})")
    started = time.perf_counter()
    model = ngram.train_on_files([Path(t) for t in args.texts], args.order or ngram.ORDER,
                                 ngram.MIN_COUNT if args.min_count is None else args.min_count)
    model.write_arpa(output)
    counts = ", ".join(f"{sum(len(g) == n for g in model.log10_probs):,} {n}-grams"
                       for n in range(1, model.order + 1))
    print(f"wrote {output}: {counts} in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    return 0


def _score(args: argparse.Namespace) -> int:
    from victor.perplexity import DEFAULT_MODEL, PerplexityModel

    if (args.sentence is None) == (args.file is None):
        raise VictorError("lm score: give either a sentence or --file FILE, not both or neither")
    model = PerplexityModel.load(args.model or DEFAULT_MODEL)
    if args.sentence is not None:
        lines = [args.sentence]
    else:
        try:
            lines = Path(args.file).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as e:
            raise VictorError(f"{args.file}: cannot read the sentences ({e.strerror})") from None
    print("\n".join(f"{model.score(line):.1f}" for line in lines))
    return 0


def _lm_arguments(ap: argparse.ArgumentParser) -> None:
    sub = ap.add_subparsers(dest="lm_command", required=True, metavar="COMMAND")
    train = sub.add_parser(
        "train", help="train a Kneser-Ney model from text files into an ARPA file",
        description="Train an interpolated modified Kneser-Ney model of the texts' sentences "
                    "into an ARPA file (gzipped if its name ends in .gz), which a config's "
                    f"{key_of('perplexity_model')} names.")
    train.add_argument("texts", nargs="+", metavar="TEXT",
                       help="plain text, a paragraph a line, or CleanEval gold (URL: line, "
                            "<p>/<h>/<l> segments)")
    train.add_argument("-o", "--output", required=True, metavar="LM.arpa.gz",
                       help="the model file to write")
    train.add_argument("--order", type=int, choices=(2, 3),
                       help="bigrams or trigrams (default: the shipped model's, bigrams)")
    train.add_argument("--min-count", type=int, metavar="K",
                       help="leave out n-grams above unigrams seen fewer than K times "
                            "(default: the shipped model's, 2)")
    train.add_argument("--overwrite", action="store_true", help="replace the model if it exists")
    score = sub.add_parser(
        "score", help="print the perplexity of a sentence, or of each line of a file",
        description="Print the perplexity of a sentence, or of each line of a file.")
    score.add_argument("sentence", nargs="?")
    score.add_argument("--file", help="score each line of this file")
    score.add_argument("--model", help="the language model (default: the shipped one)")
    for command in (train, score):
        command.add_argument("--debug", action="store_true", help="show tracebacks")
