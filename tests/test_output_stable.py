"""A change of structure must not change what Victor writes: every page in
data/, cleaned under every shipped config, gives the same `victor` listing
(labels and text) and `jsonl` record (metadata and probabilities) byte for
byte as when tests/expected/output-digests.json was written.

A change meant to alter the output (a retrained model, a new feature)
rewrites the digests, and its commit says so:

    python3 tests/test_output_stable.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from repo_data import DATA

from victor.config import shipped_configs
from victor.errors import VictorError

DIGESTS = Path(__file__).resolve().parent / "expected" / "output-digests.json"
FORMATS = ("victor", "jsonl")


def data_pages() -> list[Path]:
    """Every page in data/: NAME.html and NAME.html.gz."""
    return sorted(p for p in DATA.rglob("*") if p.name.endswith((".html", ".html.gz")))


def _digests(args: tuple[str, list[str]]) -> dict[str, str]:
    from victor.inputs import read_input
    from victor.cleaner import Cleaner

    config, paths = args
    cleaner = Cleaner(config)
    out = {}
    for path in paths:
        # Named relative to data/, so that the digests hold in any checkout.
        name = Path(path).relative_to(DATA).as_posix()
        try:
            result = cleaner.clean(read_input(path), source=name)
            body = "\0".join(result.render(f) for f in FORMATS)
        except VictorError as e:
            body = f"error: {e}"
        out[name] = hashlib.sha256(body.encode()).hexdigest()
    return out


def current_digests(jobs: int = 2) -> dict[str, dict[str, str]]:
    """config -> page (relative to data/) -> sha256 of its outputs."""
    paths = [str(p) for p in data_pages()]
    chunks = [paths[i::jobs] for i in range(jobs)]
    configs = shipped_configs()
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_digests, [(c, chunk) for c in configs for chunk in chunks]))
    out: dict[str, dict[str, str]] = {c: {} for c in configs}
    for (config, _), part in zip([(c, chunk) for c in configs for chunk in chunks], parts):
        out[config].update(part)
    return {c: dict(sorted(d.items())) for c, d in out.items()}


def test_every_page_cleans_as_recorded():
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))
    got = current_digests()
    assert sorted(got) == sorted(expected), "shipped configs differ from the recorded ones"
    for config in expected:
        changed = sorted(p for p in expected[config] if got[config].get(p) != expected[config][p])
        added = sorted(set(got[config]) - set(expected[config]))
        assert not changed and not added, (
            f"{config}: {len(changed)} pages clean differently, {len(added)} new "
            f"(first: {(changed + added)[:5]}); if meant, rewrite the digests "
            "(python3 tests/test_output_stable.py --write)")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    DIGESTS.parent.mkdir(exist_ok=True)
    DIGESTS.write_text(json.dumps(current_digests(), indent=0) + "\n", encoding="utf-8")
    print(f"wrote {DIGESTS}")
