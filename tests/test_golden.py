"""Thirty real pages of data/, cleaned by the shipped configs and written
in the format a user reads (tests/golden/CONFIG--COLLECTION-NAME.md or
.txt): a change to what Victor keeps, or to how it writes it, shows in
`git diff tests/golden/` as the lines a reader would see change.

This guards nothing by itself: it makes a change visible. A change meant
to alter the output (a retrained model, a feature, a renderer) regenerates
every file with one command, and its commit says so:

    python3 tests/test_golden.py --write

How good the output is, is the quality gate's job (tests/quality_gate.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from model_support import shipped_cleaner  # noqa: E402
from victor.batch.inputs import read_input  # noqa: E402

# Every test here reads one shipped model's exact output (pytest -m shipped_model).
pytestmark = pytest.mark.shipped_model

GOLDEN = ROOT / "tests" / "golden"
DATA = ROOT / "data"
# config -> (format, pages of data/): each config on its own kind of page,
# and the default on all three collections; pages of 3 to 60 kB, so that a
# diff stays readable.
PAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "general": ("markdown", ("wcxb/0003", "wcxb/0009", "wcxb/0010", "wcxb/0014", "wcxb/0015",
                             "wcxb/0019", "dragnet/116", "dragnet/134", "cleaneval/1",
                             "cleaneval/10")),
    "cleaneval": ("text", ("cleaneval/11", "cleaneval/12", "cleaneval/13", "cleaneval/14",
                           "cleaneval/18", "cleaneval/19", "cleaneval/2", "cleaneval/21",
                           "cleaneval/23", "cleaneval/25")),
    "article": ("markdown", ("dragnet/145", "dragnet/147", "dragnet/152", "dragnet/176",
                             "dragnet/186", "dragnet/188", "dragnet/190", "dragnet/192",
                             "dragnet/196", "dragnet/199")),
}
SUFFIX = {"markdown": ".md", "text": ".txt"}
CASES = [(config, fmt, page) for config, (fmt, pages) in PAGES.items() for page in pages]


def golden_file(config: str, fmt: str, page: str) -> Path:
    return GOLDEN / f"{config}--{page.replace('/', '-')}{SUFFIX[fmt]}"


def render(config: str, fmt: str, page: str) -> str:
    path = next(p for p in (DATA / f"{page}.html", DATA / f"{page}.html.gz") if p.is_file())
    return shipped_cleaner(config).clean(read_input(str(path)), source=page).render(fmt)


@pytest.mark.parametrize(("config", "fmt", "page"), CASES,
                         ids=[f"{c}--{p}" for c, _, p in CASES])
def test_the_page_cleans_as_its_golden_output_reads(config: str, fmt: str, page: str) -> None:
    expected = golden_file(config, fmt, page).read_text(encoding="utf-8")
    assert render(config, fmt, page) == expected, (
        f"{config} cleans {page} differently; if meant: python3 tests/test_golden.py --write")


def test_every_golden_file_belongs_to_a_page_listed_here() -> None:
    """A page taken off the list leaves no stale file to mislead."""
    listed = {golden_file(*case).name for case in CASES}
    assert {p.name for p in GOLDEN.iterdir()} == listed


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python3 tests/test_golden.py --write")
    GOLDEN.mkdir(exist_ok=True)
    for stale in GOLDEN.iterdir():
        stale.unlink()
    for case in CASES:
        golden_file(*case).write_text(render(*case), encoding="utf-8")
    print(f"{len(CASES)} golden outputs written to {GOLDEN.relative_to(ROOT)}")
