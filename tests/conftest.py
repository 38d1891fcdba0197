"""The pages every test reads: the repo's own data/ (CleanEval's 58
development pages and 808 Dragnet pages, each NAME.html with its gold
NAME.txt and labels NAME.anno), so that the tests run in a bare clone with
nothing beside it. Modules that parametrize over pages import the same
paths from tests/repo_data.py. Also the fixtures that two test modules
share: the annotation tests' config, the batch tests' settings, the
feature tests' exact config, the hostile tests' cleaners and the annotation
tool's page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repo_data import CLEANEVAL, DRAGNET, ROOT

from victor.batch.workers import RunOptions
from victor.cleaner import Cleaner
from victor.config import Config, load_config, shipped_configs


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


@pytest.fixture(scope="module")
def config() -> Config:
    """The cleaneval config, that the annotation and feature tests read pages
    with."""
    return load_config("cleaneval")


@pytest.fixture(scope="module")
def settings(tmp_path_factory) -> RunOptions:
    """The batch tests' run options: the cleaneval config and a model for it."""
    from batch_support import model_for_tests

    return RunOptions("cleaneval", model_for_tests(tmp_path_factory.mktemp("model")))


@pytest.fixture(scope="module")
def exact(tmp_path_factory: pytest.TempPathFactory) -> Config:
    """cleaneval.yaml with every feature but perplexity, counts kept whole
    and shares in hundredths (features_support.exact_config)."""
    from features_support import exact_config

    return exact_config(tmp_path_factory.mktemp("configs"))


@pytest.fixture(scope="module", params=shipped_configs())
def cleaner(request) -> Cleaner:
    """A Cleaner of each shipped config, in turn (the hostile tests)."""
    return Cleaner(request.param)


@pytest.fixture
def page(tmp_path: Path) -> Path:
    """A real CleanEval page: a real-estate site, 161 blocks, menus first
    (the annotation tool's tests)."""
    path = tmp_path / "1.html"
    shutil.copy(CLEANEVAL / "1.html", path)
    return path
