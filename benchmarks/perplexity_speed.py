"""How many sentences a second `PerplexityModel.score` rates in one process,
on the gold sentences of the training pages: the CRF feature scores every
block of every page, so this bounds what the feature costs.

Run from the repository root: python -m benchmarks.perplexity_speed [DATA_DIR...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from victor.perplexity.ngram import text_paragraphs
from victor.perplexity import DEFAULT_MODEL, PerplexityModel
from victor.reading.text import sentences

# shared/ sits beside the clone in CI and at /work/shared on developers' machines.
_DATA = next(
    (d for d in (Path(__file__).resolve().parents[2] / "shared" / "data", Path("/work/shared/data")) if d.is_dir()),
    Path("/work/shared/data"),
)
_COLLECTIONS = [_DATA / "cleaneval-dev", _DATA / "dragnet-train"]


def gold_sentences(collections: list[Path]) -> list[str]:
    return [
        sentence
        for collection in collections
        for path in sorted((collection / "gold").glob("*.txt"))
        for paragraph in text_paragraphs(path)
        for sentence in sentences(paragraph)
    ]


def main(argv: list[str]) -> None:
    collections = [Path(a) for a in argv] or _COLLECTIONS
    texts = gold_sentences(collections)
    model = PerplexityModel.load(DEFAULT_MODEL)
    best = float("inf")
    for _ in range(3):  # the best of three runs: the least disturbed by other processes
        start = time.perf_counter()
        for text in texts:
            model.score(text)
        best = min(best, time.perf_counter() - start)
    print(f"{len(texts)} gold sentences in {best:.2f} s: {len(texts) / best:,.0f} sentences/s")


if __name__ == "__main__":
    main(sys.argv[1:])
