"""What the compiled and the pure-Python paths (victor.compiled) must agree
on for a page: the features, labels, CRF scores, probabilities, the page's
type and the outputs. Run as a script, it prints them for each config's
pages as JSON, in whichever path its environment selects
(VICTOR_NO_EXTENSIONS), so that one process can compare its own path's with
the other's:

    python3 tests/compiled_support.py CONFIG[,CONFIG...] PAGE...

and, once for a change to the compiled core, every page of data/ with every
shipped config, compiled against pure (minutes):

    python3 tests/compiled_support.py --all [COLLECTION...]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from victor.batch.inputs import read_input  # noqa: E402
from victor.cleaner import Cleaner  # noqa: E402
from victor.errors import VictorError  # noqa: E402

FORMATS = ("text", "markdown", "cleaneval", "html")


def fingerprint(cleaner: Cleaner, page: Path) -> dict:
    """Everything of a page that either path computes; floats as their
    repr, so that equal means equal to the bit."""
    try:
        result = cleaner.clean(read_input(str(page)), source=str(page))
    except VictorError as e:  # a page refused is refused alike by both paths
        return {"error": str(e)}
    return {
        "blocks": [b.text for b in result.page.blocks],
        "features": result.features,
        "labels": result.labels,
        "scores": [repr(x) for x in result.scores.ravel().tolist()],
        "content": [repr(x) for x in result.content],
        "second": None if result.second is None else [repr(x) for x in result.second.tolist()],
        "page_type": None if result.page_type is None else
        {k: repr(v) for k, v in result.page_type.items()},
        **{f: result.render(f) for f in FORMATS},
    }


def fingerprints(config: str, pages: list[Path]) -> list[dict]:
    cleaner = Cleaner(config)
    return [fingerprint(cleaner, p) for p in pages]


def fingerprints_in_process(configs: list[str], pages: list[Path],
                            pure: bool) -> dict[str, list[dict]]:
    """The pages through one path with each config in turn, in a fresh
    process: both paths start from the same state (nothing cached by pages
    cleaned before) and clean the same pages in the same order."""
    env = {**os.environ, "VICTOR_NO_EXTENSIONS": "1" if pure else "0"}
    with tempfile.TemporaryFile("w+") as out:
        subprocess.run([sys.executable, __file__, ",".join(configs), *map(str, pages)], env=env,
                       stdout=out, check=True)
        out.seek(0)
        return json.load(out)


def first_difference(pages: list[Path], compiled: list[dict], pure: list[dict]) -> str | None:
    """The first page and part the paths disagree on, or None."""
    for page, a, b in zip(pages, compiled, pure):
        for key in a:
            if a[key] != b[key]:
                return f"{page.relative_to(ROOT)}: {key}"
    return None


def all_of_data(collections: list[str]) -> int:
    """Every page of data/ (or of its `collections`) with every shipped
    config, compiled against pure."""
    from victor import compiled
    from victor.config import shipped_configs

    print(f"path: {compiled.path()}")
    if compiled.disabled() or not compiled.path().startswith("compiled"):
        print("the compiled core does not run here: nothing to compare")
        return 1
    pages = sorted(p for p in (ROOT / "data").glob("*/*.html*")
                   if not collections or p.parent.name in collections)
    failed = 0
    for config in shipped_configs():
        differ = []
        for start in range(0, len(pages), 200):
            chunk = pages[start:start + 200]
            a = fingerprints_in_process([config], chunk, pure=False)[config]
            b = fingerprints_in_process([config], chunk, pure=True)[config]
            differ += [str(p.relative_to(ROOT)) for p, x, y in zip(chunk, a, b) if x != y]
        print(f"{config}: {len(pages) - len(differ)} of {len(pages)} pages identical"
              + (f"; differ: {' '.join(differ[:20])}" if differ else ""))
        failed += bool(differ)
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--all"]:
        sys.exit(all_of_data(sys.argv[2:]))
    # One string, one write: json.dump encodes in Python, piece by piece, a
    # write each (a system call each where PYTHONUNBUFFERED is set).
    named = [Path(p) for p in sys.argv[2:]]
    sys.stdout.write(json.dumps({c: fingerprints(c, named) for c in sys.argv[1].split(",")}))
