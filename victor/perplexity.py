"""Sentence perplexity under an n-gram language model, and the filter of
Fernández-Pichel et al. that drops the sentences a model of well-formed text
finds unlikely.

This is what cleaning needs: loading a model and scoring text with it.
Queries go through KenLM, an extra imported only when a model is loaded,
which reads ARPA and is fast enough to score every sentence of every page.
Models are trained by victor/ngram.py; the calibration of the limit and the
command line are research/perplexity.py.
"""

from __future__ import annotations

import math
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from victor.config import MODEL_DIR
from victor.errors import VictorError, import_extra
from victor.text import sentences, words

if TYPE_CHECKING:  # KenLM is an extra, imported when a model is loaded
    import kenlm

DEFAULT_MODEL = MODEL_DIR / "lm-default.arpa.gz"

# Calibrated for DEFAULT_MODEL only (docs/perplexity.md): the paper's 8,000
# belongs to its BNC model, and a perplexity limit means nothing across models.
DEFAULT_LIMIT = 3700.0


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


@dataclass(frozen=True)
class PerplexityModel:
    """A loaded language model; loading reads the whole file, so it happens
    only when someone asks for perplexities."""

    path: Path
    lm: kenlm.Model = field(repr=False)

    @classmethod
    def load(cls, path: Path | str = DEFAULT_MODEL) -> PerplexityModel:
        path = Path(path)
        if not path.is_file():
            raise VictorError(
                f"{path}: no language model there; train one with `python -m research.perplexity train`"
            )
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
        return cls(path, lm)

    def score(self, sentence: str) -> float:
        """Perplexity per token, the end of sentence included, as KenLM and
        the paper count it. A sentence without words is not language at all:
        its perplexity is infinite, so any limit drops it."""
        tokens = words(sentence)
        if not tokens:
            return math.inf
        return 10.0 ** (-self.lm.score(" ".join(tokens)) / (len(tokens) + 1))

    def block_perplexity(self, text: str) -> float:
        """Mean perplexity of the block's sentences, so that one long fluent
        sentence does not hide a run of short junk ones. Sentences without
        words are left out (a trailing "|" says nothing about the rest); a
        block without any word is infinite, like such a sentence."""
        scores = [self.score(s) for s in sentences(text) if words(s)]
        return sum(scores) / len(scores) if scores else math.inf


def for_config(config) -> PerplexityModel | None:
    """The language model a config's perplexity extra needs (its
    perplexity-model, else DEFAULT_MODEL), or None when the extra is off:
    then no model is loaded at all."""
    if not config.extras.get("perplexity"):
        return None
    return PerplexityModel.load(config.perplexity_model or DEFAULT_MODEL)


@dataclass(frozen=True)
class PerplexityFilter:
    """The paper's cleaner: keep a sentence only if the model finds it no
    more perplexing than `limit`."""

    model: PerplexityModel
    limit: float

    def process(self, text: str) -> str:
        """Each line is a paragraph and keeps its kept sentences joined by a
        space; a line that loses every sentence disappears, so the output
        still reads as the page's paragraphs."""
        out = []
        for line in text.splitlines():
            kept = [s for s in sentences(line) if self.model.score(s) <= self.limit]
            if kept:
                out.append(" ".join(kept))
        return "\n".join(out)
