"""Training only on the feature values that several sites show
(victor.crf.cutoff): a class word one site's developers chose teaches
nothing about sites the model has not seen."""

from pathlib import Path

import pytest

from victor.training import dataset
from victor.config import load_config
from victor.crf.cutoff import rare_items, without

WCXB = Path(__file__).resolve().parents[1] / "data" / "wcxb"
PAGES = [str(WCXB / f"000{n}.anno") for n in (1, 2, 3)]  # three sites


@pytest.fixture(scope="module")
def examples():
    return dataset.load_examples(PAGES, load_config("general"))


def class_words(example) -> set[str]:
    return {w for d in example.features for w in d.get("class-words", "").split()}


def test_a_class_word_of_one_site_is_rare_and_one_of_two_sites_is_not(examples):
    sites = [e.group.site for e in examples]
    assert len(set(sites)) == 3
    rare = rare_items([e.features for e in examples], sites, 2)
    words = [class_words(e) for e in examples]
    shared = (words[0] & words[1]) | (words[1] & words[2]) | (words[0] & words[2])
    only_one = (words[0] | words[1] | words[2]) - shared
    assert {"nav", "menu", "footer"} <= shared
    assert rare["class-words"] == only_one


def test_pages_of_one_site_count_as_one(examples):
    rare = rare_items([e.features for e in examples], ["one.example"] * 3, 2)
    assert rare["class-words"] == set().union(*map(class_words, examples))


def test_a_cutoff_of_one_leaves_everything_in(examples):
    assert rare_items([e.features for e in examples], [e.group.site for e in examples], 1) == {}


def test_the_rare_items_are_taken_out_and_nothing_else(examples):
    rare = rare_items([e.features for e in examples], [e.group.site for e in examples], 2)
    page = examples[0].features
    thinned = without(page, rare)
    assert len(thinned) == len(page)
    for before, after in zip(page, thinned):
        kept = [w for w in before.get("class-words", "").split()
                if w not in rare["class-words"]]
        assert after.get("class-words", "").split() == kept
        for name in set(before) | set(after):
            if name not in rare:
                assert after.get(name) == before.get(name)
    assert page == examples[0].features  # the caller's dicts are not touched
