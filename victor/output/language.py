"""The language of a page's cleaned text, and the choice of languages a
run keeps (`--language`, `language=`).

What a page declares (`<html lang>`, meta tags: victor/reading/metadata.py) is
often missing or wrong: templates keep `lang="en"` on pages in any
language. A corpus builder filters on the language of the text itself, so
that is identified here, by py3langid (langid.py's naive Bayes model over
byte n-grams, 140 languages in py3langid 0.4, BSD licence, its model shipped inside the
package: nothing is downloaded). It is loaded on first use, which takes
a while, so a run that keeps every language never loads it (its cost:
docs/language.md).
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Iterable

from victor.errors import VictorError

# The text looked at: the language shows in its first few thousand
# characters, and a page of megabytes must not cost more. This many agreed
# with a longer reading on as many pages at a fraction of the cost
# (docs/language.md).
SAMPLE_CHARS = 3_000
# Less text than this (word characters) is too little to tell: a caption,
# a few names. The record then says "" rather than a guess.
MIN_LETTERS = 20


def identify(text: str, sample_chars: int = SAMPLE_CHARS) -> str:
    """The ISO 639 code (two letters where there is one) of the language
    `text` is in, or "" where there is too little text to tell."""
    sample = text[:sample_chars]
    if sum(ch.isalpha() for ch in sample[:MIN_LETTERS * 10]) < MIN_LETTERS:
        return ""
    return _identifier().classify(sample)[0]


def known() -> list[str]:
    """Every language code the model can tell."""
    return sorted(set(_identifier().labels))


@lru_cache(maxsize=1)
def _identifier():
    """py3langid's model, unpacked in memory. Its own loader unpacks the
    68 MB model into a temporary file, so a full disk (or a limit on file
    size) failed every page of a jsonl run. The layout read here is that
    of py3langid 0.4 (pyproject.toml pins it)."""
    import lzma

    import numpy as np
    from py3langid import modelio
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    with lzma.open(MODEL_DIR / MODEL_FILE) as packed:
        raw = io.BytesIO(packed.read())
    with np.load(raw, allow_pickle=False) as data:
        return LanguageIdentifier(
            np.asarray(data["ptc"]), np.asarray(data["pc"]), data["classes"].tolist(),
            modelio._to_array(data["nextmove"]), data["out_feat"].tolist(),
            tk_row=modelio._to_array(data["nextmove_row"]))


def parse_languages(spec: str | Iterable[str]) -> tuple[str, ...]:
    """`en,de` (or a list of codes) as sorted codes; a code the model
    cannot tell is an error before any work, not a filter that drops every
    page."""
    codes = spec.split(",") if isinstance(spec, str) else list(spec)
    if not all(isinstance(c, str) for c in codes):
        raise VictorError(f"language {spec!r}: give ISO 639 codes, as 'en' or 'en,de'")
    wanted = {c.strip().lower() for c in codes if c.strip()}
    if not wanted:
        raise VictorError(f"language {spec!r}: give ISO 639 codes, as 'en' or 'en,de'")
    unknown = wanted - set(known())
    if unknown:
        raise VictorError(f"language {', '.join(sorted(unknown))}: not a language the "
                          f"identifier knows; it knows {' '.join(known())}")
    return tuple(sorted(wanted))
