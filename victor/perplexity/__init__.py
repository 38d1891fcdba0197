"""Sentence perplexity under an n-gram language model, and the filter of
Fernández-Pichel et al. that drops the sentences a model of well-formed text
finds unlikely.

This is what cleaning needs: loading a model and scoring text with it.
Two engines read the same ARPA files and give the same scores (to 2e-6 in
log10, tests/test_perplexity.py): KenLM, an extra that must be compiled
and is imported only when a model is loaded, fast enough to score every
sentence of every page; and victor/perplexity/ngram.py's reader in pure Python, so
that nobody has to compile anything to use or test the feature. Models are
trained by victor/perplexity/ngram.py (`victor lm train`); the calibration of
the filter's limit is research (research/perplexity.py).
"""

from victor.perplexity.model import (DEFAULT_MODEL, ENGINES, PerplexityModel, default_engine,
                                     for_config)
from victor.perplexity.sentence_filter import DEFAULT_LIMIT, PerplexityFilter

__all__ = ["DEFAULT_LIMIT", "DEFAULT_MODEL", "ENGINES", "PerplexityFilter", "PerplexityModel",
           "default_engine", "for_config"]
