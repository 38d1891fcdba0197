"""Where the tests' pages are: the repo's own data/, never anything beside
the clone."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
CLEANEVAL = DATA / "cleaneval"
DRAGNET = DATA / "dragnet"
WCXB = DATA / "wcxb"


def pages(folder: Path) -> list[Path]:
    """The folder's pages, NAME.html, sorted by name."""
    return sorted(folder.glob("*.html"))
