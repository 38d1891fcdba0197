"""A language model loaded to score text: the engine that reads it (KenLM
or victor/perplexity/ngram.py's pure-Python reader, chosen by
`default_engine`) and the perplexity of a sentence or a block under it.
Loading reads the whole file, so it happens only when someone asks for
perplexities (`for_config`)."""

from __future__ import annotations

import importlib.util
import math
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from victor.perplexity import ngram
from victor.config import MODEL_DIR
from victor.errors import VictorError, import_extra
from victor.reading.text import sentences, words

if TYPE_CHECKING:
    from victor.config import Config

# "kenlm": the compiled extra; "python": victor/perplexity/ngram.py's reader.
ENGINES = ("kenlm", "python")

DEFAULT_MODEL = MODEL_DIR / "lm-default.arpa.gz"


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """KenLM writes a progress bar and advice to build a binary straight to
    file descriptor 2; a CLI that prints one number should not show them.
    Its errors still arrive as exceptions."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def default_engine() -> str:
    """KenLM where it is installed (it is the faster), else the pure-Python
    reader: looked up, not imported, so that choosing costs nothing."""
    try:
        found = importlib.util.find_spec("kenlm") is not None
    except (ImportError, ValueError):  # a stand-in module set to None, or no spec
        found = False
    return "kenlm" if found else "python"


@dataclass(frozen=True)
class PerplexityModel:
    """A loaded language model; loading reads the whole file, so it happens
    only when someone asks for perplexities."""

    path: Path
    engine: str
    # The engine's model: a kenlm.Model, or a victor.perplexity.ngram.NgramModel.
    lm: Any = field(repr=False)
    # log10 of a sentence of tokens after <s>, its end included.
    _log10: Callable[[Sequence[str]], float] = field(repr=False, compare=False)

    @classmethod
    def load(cls, path: Path | str = DEFAULT_MODEL, engine: str | None = None) -> PerplexityModel:
        """`engine` None takes the default (`default_engine`); naming
        "kenlm" where it is not installed is a one-line error naming the
        extra."""
        path = Path(path)
        if not path.is_file():
            raise VictorError(
                f"{path}: no language model there; train one with `victor lm train -o {path} TEXTS...`"
            )
        engine = engine or default_engine()
        if engine == "python":
            model = ngram.read_arpa(path)
            return cls(path, engine, model, model.log10_sentence)
        if engine != "kenlm":
            raise VictorError(f"unknown language model engine {engine!r}; choose one of "
                              f"{', '.join(ENGINES)}")
        kenlm = import_extra("kenlm", "kenlm", "the perplexity feature")
        config = kenlm.Config()
        config.show_progress = False
        try:
            with _quiet_stderr():
                lm = kenlm.Model(str(path), config)
        except (OSError, RuntimeError) as e:
            raise VictorError(
                f"{path}: not a language model KenLM can read (an ARPA file, gzipped or not, is expected)"
            ) from e
        return cls(path, engine, lm, lambda tokens: lm.score(" ".join(tokens)))

    def score(self, sentence: str) -> float:
        """Perplexity per token, the end of sentence included, as KenLM and
        the paper count it. A sentence without words is not language at all:
        its perplexity is infinite, so any limit drops it."""
        tokens = words(sentence)
        if not tokens:
            return math.inf
        return 10.0 ** (-self._log10(tokens) / (len(tokens) + 1))

    def block_perplexity(self, text: str) -> float:
        """Mean perplexity of the block's sentences, so that one long fluent
        sentence does not hide a run of short junk ones. Sentences without
        words are left out (a trailing "|" says nothing about the rest); a
        block without any word is infinite, like such a sentence."""
        scores = [self.score(s) for s in sentences(text) if words(s)]
        return sum(scores) / len(scores) if scores else math.inf


def for_config(config: Config, selected: Sequence[str]) -> PerplexityModel | None:
    """The language model the perplexity feature needs (the config's own,
    else DEFAULT_MODEL), or None when `selected` (the
    features the CRF sees) leaves it out: then no model is loaded at all."""
    if "perplexity" not in selected:
        return None
    return PerplexityModel.load(config.perplexity_model or DEFAULT_MODEL)
