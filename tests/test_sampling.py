"""Training on stretches of a page: every block near content, a share of
the boilerplate runs far from it (victor.crf.sampling)."""

import random
from pathlib import Path

from victor.annotation import load_annotation
from victor.crf.sampling import NEAR, stretches

PAGE = Path(__file__).resolve().parents[1] / "data" / "dragnet" / "100.anno"


def labels_of_page() -> list[str]:
    return list(load_annotation(PAGE).labels)


def kept(runs: list[tuple[int, int]]) -> list[int]:
    return [i for start, end in runs for i in range(start, end)]


def distance_to_content(labels: list[str]) -> list[int]:
    content = [i for i, label in enumerate(labels) if label != "o"]
    return [min(abs(i - j) for j in content) for i in range(len(labels))]


def test_a_share_of_one_trains_on_the_whole_page():
    labels = labels_of_page()
    assert stretches(labels, 1.0, random.Random(0)) == [(0, len(labels))]


def test_every_block_near_content_is_kept_and_some_far_boilerplate_is_not():
    labels = labels_of_page()
    far = [i for i, d in enumerate(distance_to_content(labels)) if d > NEAR]
    assert len(far) > 100  # the page has long boilerplate runs
    runs = stretches(labels, 1 / 3, random.Random(0))
    blocks = kept(runs)
    assert blocks == sorted(set(blocks))  # in page order, none twice
    near = [i for i, d in enumerate(distance_to_content(labels)) if d <= NEAR]
    assert set(near) <= set(blocks)
    kept_far = set(far) & set(blocks)
    assert 0 < len(kept_far) < len(far) / 2


def test_the_stretches_are_runs_that_do_not_touch():
    runs = stretches(labels_of_page(), 1 / 3, random.Random(0))
    assert all(a < b for a, b in runs)
    assert all(end < start for (_, end), (start, _) in zip(runs, runs[1:]))


def test_the_same_seed_gives_the_same_stretches():
    labels = labels_of_page()
    assert stretches(labels, 0.5, random.Random(7)) == stretches(labels, 0.5, random.Random(7))


def test_a_page_without_content_is_kept_whole_and_an_empty_one_gives_nothing():
    assert stretches(["o"] * 50, 0.2, random.Random(0)) == [(0, 50)]
    assert stretches([], 0.2, random.Random(0)) == []
