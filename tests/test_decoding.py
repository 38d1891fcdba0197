"""Decoding (victor.decoding): the best path, widened by the blocks the
CRF finds likely content. A block the path labels o is kept when its
content probability reaches the config's `keep-above`, as its most
probable content label; what the path keeps stays as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from victor.calibration import content_probabilities
from victor.cleaner import Cleaner, Result
from victor.config import load_config, shipped_configs
from victor.decoding import decode, keep_likely
from victor.inputs import read_input
from victor.labels import CONTENT

ROOT = Path(__file__).resolve().parents[1]
WCXB = ROOT / "data" / "wcxb"


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


@pytest.fixture(scope="module")
def general() -> Cleaner:
    return Cleaner("general")


@pytest.fixture(scope="module")
def listing(general: Cleaner) -> Result:
    # WCXB 0147, a listing of a news site's articles: their headlines and
    # teasers are the gold, and the best path drops several of them.
    page = WCXB / "0147.html.gz"
    return general.clean(read_input(str(page)), str(page))


@pytest.mark.parametrize("config", shipped_configs())
def test_every_shipped_config_keeps_what_its_model_finds_likely(config):
    # docs/general.md, "Decoding": 0.3 on all three collections' held-out pages.
    assert load_config(config).keep_above == 0.3


def test_blocks_the_path_drops_but_the_model_finds_likely_are_kept(general, listing):
    best = general.model.best_labels(listing.scores)
    content = content_probabilities(listing.marginals)
    added = [i for i, (a, b) in enumerate(zip(best, listing.labels)) if a != b]
    assert added, "the path keeps every likely block of this page"
    for i in added:
        assert best[i] == "o" and listing.labels[i] in CONTENT
        # A block kept against the path continues only a kept block.
        assert listing.labels[i] != "c" or listing.labels[i - 1] != "o"
        assert content[i] >= general.config.keep_above
    # What the path keeps is kept as the path labels it.
    assert all(b == lab for b, lab in zip(best, listing.labels) if b != "o")
    # Every word of the blocks kept against the path is the gold's.
    gold = words((WCXB / "0147.txt").read_text(encoding="utf-8"))
    assert all(words(listing.texts[i]) <= gold for i in added)


def test_a_block_is_kept_at_the_bar_and_not_below_it(general, listing):
    best = general.model.best_labels(listing.scores)
    content = content_probabilities(listing.marginals)
    dropped = sorted((p for lab, p in zip(best, content) if lab == "o"), reverse=True)
    bar = dropped[0]
    labels = keep_likely(best, listing.marginals, bar)
    assert sum(a != b for a, b in zip(best, labels)) == dropped.count(bar)
    assert keep_likely(best, listing.marginals, min(1.0, bar + 1e-9)) == best


def test_no_keep_above_decodes_the_best_path(general, listing):
    best = general.model.best_labels(listing.scores)
    assert decode(best, listing.marginals, None) == (best, False)
