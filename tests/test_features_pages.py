"""Whole pages of both training folders go through the feature table."""

from __future__ import annotations

from pathlib import Path

import pytest

from repo_data import CLEANEVAL, DRAGNET, pages
from victor.config import Config, load_config
from victor.features import compute, select_features, table
from victor.features.context import Context
from victor.reading.page import read_page
from victor.reading.text import sentences, words



def sample(folder: Path, n: int) -> list[Path]:
    """Every k-th page, so that the sample spans the folder."""
    files = pages(folder)
    return files[::max(1, len(files) // n)][:n]


PAGES = [*sample(CLEANEVAL, 20), *sample(DRAGNET, 20)]


@pytest.fixture(scope="module")
def config() -> Config:
    return load_config("cleaneval")


@pytest.mark.parametrize("path", PAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_page_gets_a_value_of_every_selected_feature_a_block(path: Path, config: Config) -> None:
    page = read_page(path.read_bytes(), config, str(path))
    feats = compute(page, config)
    names = select_features(config)
    assert len(feats) == len(page.blocks)
    assert all(tuple(f) == names for f in feats)
    assert all(isinstance(v, str) and "\t" not in v and "\n" not in v
               for f in feats for v in f.values())
    assert len(table(page, feats).splitlines()) == len(page.blocks) + 1


@pytest.mark.parametrize("path", PAGES[::5], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_counts_agree_with_the_shared_tokenisation(path: Path, config: Config) -> None:
    """The features count words and sentences as victor.reading.text does."""
    page = read_page(path.read_bytes(), config, str(path))
    ctx = Context(page, config, select_features(config))
    assert ctx.words.tolist() == [len(words(b.text)) for b in page.blocks]
    assert ctx.sentences.tolist() == [len(sentences(b.text)) for b in page.blocks]
    assert ctx.text.token_count.tolist() == [len(b.text.split()) for b in page.blocks]
