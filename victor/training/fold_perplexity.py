"""The perplexity feature in cross-validation: each fold scores its pages
under a language model of its own training pages' gold, never under the
shipped model, which has read the gold of every page we test on."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Sequence

from victor import features, output, perplexity
from victor.annotation import load_training_page
from victor.config import Config
from victor.perplexity import ngram
from victor.training.dataset import Example

# The shipped language model's settings (docs/notes/perplexity.md).
FOLD_LM_ORDER = 2
FOLD_LM_MIN_COUNT = 2


def gold_paragraphs(example: Example) -> list[str]:
    """The person's text as paragraphs, for a language model to learn
    sentences from: `NAME.txt` beside the annotation, else the annotation's
    own content."""
    beside = Path(example.name).with_suffix(".txt")
    if beside.exists():
        return ngram.text_paragraphs(beside)
    return output.plain_text(example.texts, example.labels).split("\n\n")


def fold_language_model(train_set: Sequence[Example], path: Path) -> perplexity.PerplexityModel:
    """A model of the training pages' gold text only, written to `path`.
    The shipped model has read the gold of every page we test on; scoring a
    test page with it would let the perplexity feature, and the filter,
    know the page's answer."""
    corpus = ngram.sentence_words(p for e in train_set for p in gold_paragraphs(e))
    ngram.train(corpus, FOLD_LM_ORDER, FOLD_LM_MIN_COUNT,
                     source=f"gold text of {len(train_set)} training pages").write_arpa(path)
    return perplexity.PerplexityModel.load(path)


def with_perplexity(examples: Sequence[Example], config: Config,
                    lm: perplexity.PerplexityModel) -> list[Example]:
    """The examples with their perplexity column computed under `lm` by the
    features package itself (the page is read again for it: features are
    computed from pages, and reading one again is cheap)."""
    out = []
    for e in examples:
        page, _ = load_training_page(e.name, config)
        column = features.compute(page, config, lm, ("perplexity",))
        out.append(replace(e, features=[{**f, **c} for f, c in zip(e.features, column)]))
    return out


def has_feature(examples: Sequence[Example], name: str) -> bool:
    return any(name in e.features[0] for e in examples if e.features)
