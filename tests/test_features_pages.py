"""Whole pages of both training folders go through the feature table."""

from __future__ import annotations

from pathlib import Path

import pytest

from victor.config import Config, load_config
from victor.features import compute, select_features, table
from victor.features.context import Context
from victor.page import read_page
from victor.text import sentences, words

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def sample(folder: str, n: int) -> list[Path]:
    """Every k-th page, so that the sample spans the folder."""
    files = sorted((DATA / folder / "html").glob("*.html"))
    if not files:
        pytest.skip(f"no pages in {DATA / folder}")
    return files[::max(1, len(files) // n)][:n]


PAGES = [*sample("cleaneval-dev", 20), *sample("dragnet-train", 20)]


@pytest.fixture(scope="module")
def config() -> Config:
    return load_config("cleaneval")


@pytest.mark.parametrize("path", PAGES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_page_gets_a_value_of_every_selected_feature_a_block(path: Path, config: Config) -> None:
    page = read_page(path.read_bytes(), config, str(path))
    feats = compute(page, config)
    names = select_features(config)
    assert len(feats) == len(page.blocks)
    assert all(tuple(f) == names for f in feats)
    assert all(isinstance(v, str) and "\t" not in v and "\n" not in v
               for f in feats for v in f.values())
    assert len(table(page, feats).splitlines()) == len(page.blocks) + 1


@pytest.mark.parametrize("path", PAGES[::5], ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_counts_agree_with_the_shared_tokenisation(path: Path, config: Config) -> None:
    """The features count words and sentences as victor.text does."""
    page = read_page(path.read_bytes(), config, str(path))
    ctx = Context(page, config, select_features(config))
    assert ctx.words.tolist() == [len(words(b.text)) for b in page.blocks]
    assert ctx.sentences.tolist() == [len(sentences(b.text)) for b in page.blocks]
    assert ctx.text.token_count.tolist() == [len(b.text.split()) for b in page.blocks]
