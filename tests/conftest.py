"""The pages every test reads: the repo's own data/ (CleanEval's 58
development pages and 808 Dragnet pages, each NAME.html with its gold
NAME.txt and labels NAME.anno), so that the tests run in a bare clone with
nothing beside it. Modules that parametrize over pages import the same
paths from tests/repo_data.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from repo_data import CLEANEVAL, DRAGNET, ROOT


@pytest.fixture(scope="session")
def repo() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cleaneval() -> Path:
    """data/cleaneval: NAME.html, NAME.txt (gold), NAME.anno."""
    return CLEANEVAL


@pytest.fixture(scope="session")
def dragnet() -> Path:
    """data/dragnet: NAME.html, NAME.txt (gold, UTF-16 for some), NAME.anno."""
    return DRAGNET
