"""The reference that tests/test_second_pass_fast.py holds the package's
second-pass features to: what this research code (second_pass_features.py's
`page_features` and `densest_run`, on which the trees were first fitted)
gives for real pages of data/, written once into tests/ so that the tests
need no research/.

    python -m research.second_pass_reference   # writes tests/expected/second-pass-features.json.gz

For each page, the inputs are stored beside the output (the blocks' paths,
texts, the general config's first-pass probabilities and labels), so that
a retrained model or a changed reader does not make the reference stale:
the test feeds the same inputs to victor/second_pass/features.py.
"""

from __future__ import annotations

import gzip
import json
import math
import sys
from pathlib import Path

import numpy as np

from research.second_pass_features import PAGE_FEATURES as RESEARCH_FEATURES
from research.second_pass_features import densest_run, page_features
from research.second_pass_pages import tree_info
from victor.annotation import load_annotation
from victor.batch.inputs import read_input
from victor.cleaner import Cleaner
from victor.second_pass.features import PAGE_FEATURES

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tests" / "expected" / "second-pass-features.json.gz"
DATA = ROOT / "data"
# A page of each collection and the first WCXB page of each page type
# (article, service, listing, product, documentation, forum, collection).
PAGES = ["cleaneval/1.anno", "cleaneval/23.anno", "dragnet/100.anno"] + [
    f"wcxb/{n}.anno" for n in ("0001", "0021", "0076", "0185", "0239", "0360", "0597")]
NOISY_PAGE = "wcxb/0001.anno"


def _floats(matrix: np.ndarray) -> list:
    """Each float32 by the shortest decimal that reads back as it (a
    fifth of float64's digits); JSON has no NaN: null stands for it."""
    return [[None if math.isnan(x) else float(str(x)) for x in row] for row in matrix]


def _research_matrix(blocks, texts: list[str], paths: list[int], p: np.ndarray,
                     labels: list[str]) -> np.ndarray:
    """page_features on the package's columns, its blocks grouped by the
    features stage's paths."""
    shared = [RESEARCH_FEATURES.index(name) for name in PAGE_FEATURES]
    page = {"texts": texts, **tree_info(blocks), "paths": paths}
    return page_features(page, p, labels)[:, shared]


def reference() -> dict:
    cleaner = Cleaner("general")
    pages = []
    for name in PAGES:
        result = cleaner.clean(read_input(load_annotation(str(DATA / name)).source))
        p = np.array(result.content, dtype=np.float64)
        labels, texts = list(result.labels), list(result.texts)
        paths = result.columns.paths.tolist()
        entry = {"page": name, "paths": paths, "texts": texts, "p": p.tolist(),
                 "labels": labels,
                 "matrix": _floats(_research_matrix(result.page.blocks, texts, paths, p, labels))}
        if name == NOISY_PAGE:
            # Probabilities other than the model's: ties, zeros and ones move
            # the densest run and the ranks.
            rng = np.random.default_rng(0)
            entry["noisy"] = []
            for draw in range(5):
                q = (rng.choice([0.0, 0.2, 0.5, 0.7, 1.0], size=len(p)) if draw % 2
                     else rng.random(len(p)))
                entry["noisy"].append({"p": q.tolist(), "matrix": _floats(_research_matrix(
                    result.page.blocks, texts, paths, q, labels))})
        pages.append(entry)
    runs = []
    rng = np.random.default_rng(1)
    for n in (1, 2, 3, 10, 50):
        for _ in range(40):
            p = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=n)
            w = rng.choice([0.0, 1.0, 2.0, 7.0], size=n)
            runs.append({"p": p.tolist(), "w": w.tolist(), "run": list(densest_run(p, w))})
    return {"made_by": "python -m research.second_pass_reference",
            "research_features": RESEARCH_FEATURES, "columns": list(PAGE_FEATURES),
            "pages": pages, "densest_runs": runs}


def main() -> int:
    data = json.dumps(reference(), separators=(",", ":")).encode("utf-8")
    with open(OUTPUT, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb",
                                                  mtime=0) as out:
        out.write(data)
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(data):,} bytes of JSON, "
          f"{OUTPUT.stat().st_size:,} gzipped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
