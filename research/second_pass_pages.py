"""Issue 31's second pass: every annotated page read again as the general
config reads it (victor's own page reading, so blocks line up by index with
a saved benchmark run), with what the second pass needs of each block: its
text, gold label, the first pass's own features as numbers, and its place
in the tree. Written once to a pickle that research/second_pass.py reads.

    python3 -m research.second_pass_pages -o RUNS/sp_pages.pkl [-j 2]
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from benchmarks.quality.running import COLLECTIONS
from victor import features
from victor.annotation import load_annotation, load_training_page
from victor.config import DEFAULT_CONFIG, load_config
from victor.training.folds import page_group

_CONFIG = None
_NAMES = None


def _setup():
    global _CONFIG, _NAMES
    if _CONFIG is None:
        _CONFIG = load_config(DEFAULT_CONFIG)
        _NAMES = features.select_features(_CONFIG, ())
    return _CONFIG, _NAMES


def _number(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return float("nan")


def tree_info(blocks) -> dict:
    """Per block: the ids (page-local ints) of its containers, outermost
    first; the tag path with the innermost classes; and for each container
    how many element siblings share its tag and class (a teaser list's
    items repeat their shape)."""
    ids: dict[int, int] = {}
    repeat: dict[int, int] = {}
    paths, chains, reps = [], [], []
    for b in blocks:
        chain = []
        for c in b.containers:
            k = ids.setdefault(id(c), len(ids))
            chain.append(k)
        chains.append(chain)
        # repetition of the shape of each of the innermost 5 containers among
        # its parent's element children
        row = []
        cs = b.containers
        for j in range(len(cs) - 1, max(len(cs) - 6, 0), -1):
            e, parent = cs[j], cs[j - 1]
            k = ids[id(e)]
            if k not in repeat:
                shape = (e.tag, e.attrs.get("class", ""))
                repeat[k] = sum(1 for ch in parent.children
                                if not isinstance(ch, str) and ch.tag == shape[0]
                                and ch.attrs.get("class", "") == shape[1])
            row.append(repeat[k])
        reps.append(row + [0] * (5 - len(row)))
        inner = cs[-1] if cs else None
        cls = inner.attrs.get("class", "") if inner is not None else ""
        paths.append(">".join(b.tags) + "." + cls)
    return {"chains": chains, "paths": paths, "reps": np.array(reps, dtype=np.float32)}


def read_one(anno: str) -> dict:
    config, names = _setup()
    annotation = load_annotation(anno)
    page, labels = load_training_page(anno, config, annotation)
    rows = features.compute(page, config, None, names)
    columns = sorted({k for r in rows for k in r if k != "class-words"})
    matrix = np.array([[_number(r.get(k, "nan")) for k in columns] for r in rows],
                      dtype=np.float32).reshape(len(rows), len(columns))
    url = annotation.url or page.url
    group = page_group(anno, url, page.meta.url)
    info = tree_info(page.blocks)
    return {"anno": anno, "texts": [b.text for b in page.blocks], "truth": labels,
            "columns": columns, "features": matrix, "site": group.site,
            "stratum": group.stratum, **info}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--limit", type=int, help="first N pages a collection (a quick look)")
    args = ap.parse_args(argv)
    annos = []
    for folder in COLLECTIONS.values():
        found = sorted(str(p) for p in Path(folder).glob("*.anno"))
        annos += found[:args.limit] if args.limit else found
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            pages = list(pool.map(read_one, annos, chunksize=8))
    else:
        pages = [read_one(a) for a in annos]
    with open(args.output, "wb") as f:
        pickle.dump(pages, f, protocol=pickle.HIGHEST_PROTOCOL)
    print(f"{len(pages)} pages, {sum(len(p['texts']) for p in pages)} blocks in "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
