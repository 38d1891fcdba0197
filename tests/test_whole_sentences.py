"""Whole sentences (victor.decoding.whole_boxes): a paragraph, heading,
item or cell is kept whole or dropped whole, never fragment by fragment.
An inline element ends a block, so one sentence is several blocks; decided
apart, a sentence lost its full stop after a link, a keyword in `<code>`
from its middle, or its first words."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from model_support import redecoded, shipped_cleaner
from repo_data import DRAGNET, WCXB
from victor.batch.inputs import read_input
from victor.cleaner import Cleaner
from victor.config import load_config
from victor.decoding import layout, whole_boxes
from victor.labels import OTHER
from victor.reading.text import words

MARGINAL = {"p": 0.6, "c": 0.2, "h": 0.05, "l": 0.05, "o": 0.1}


def test_a_box_mostly_kept_is_kept_whole_and_one_mostly_dropped_is_dropped():
    texts = ["Read the", "manual", "before you start.", "Share this story", "on Facebook"]
    boxes = [0, 0, 0, 1, 1]
    labels = ["p", "o", "c", "o", "c"]
    kept = whole_boxes(texts, labels, [MARGINAL] * 5, boxes, 0.6)
    assert OTHER not in kept[:3]
    assert kept[3:] == ["o", "o"]


def test_text_outside_any_box_and_boxes_too_big_stay_as_decided():
    texts = ["one two three", "four", "five six"]
    labels = ["p", "o", "c"]
    assert whole_boxes(texts, labels, [MARGINAL] * 3, [-1, -1, -1], 0.6) == labels
    assert whole_boxes(texts, labels, [MARGINAL] * 3, [0, 0, 0], 0.6, most=5) == labels
    assert whole_boxes(texts, labels, [MARGINAL] * 3, [0, 0, 0], None) == labels


@pytest.mark.parametrize("config", ["general", "cleaneval", "article"])
@pytest.mark.parametrize("name", ["0001", "0011", "2863", "4677"])
def test_every_paragraph_of_a_cleaned_page_is_kept_whole_or_not_at_all(config, name):
    cleaner = shipped_cleaner(config)
    result = cleaner.clean(read_input(str(WCXB / f"{name}.html.gz")), name)
    found = layout(result.page.blocks)
    members: dict[int, list[int]] = {}
    for i, box in enumerate(found.boxes):
        if box != -1:
            members.setdefault(box, []).append(i)
    for unit in members.values():
        kept = {result.labels[i] != OTHER for i in unit}
        size = sum(len(words(result.texts[i])) for i in unit)
        assert len(kept) == 1 or size > cleaner.config.line_words, (
            [result.texts[i] for i in unit])


@pytest.mark.shipped_model
def test_sentences_keep_their_full_stop_and_their_keywords():
    """WCXB 2863, PostgreSQL's SELECT: the keywords in <code> and the full
    stop after a link are blocks of their own, and were dropped from the
    middle and end of kept sentences."""
    text = shipped_cleaner().clean(read_input(str(WCXB / "2863.html.gz"))).text()
    assert ("You must have SELECT privilege on each column used in a SELECT command. The use "
            "of FOR NO KEY UPDATE, FOR UPDATE, FOR SHARE or FOR KEY SHARE requires UPDATE "
            "privilege") in text
    assert "cannot be specified with GROUP BY\n" not in text + "\n"


@pytest.mark.shipped_model
def test_a_kept_sentence_does_not_begin_in_its_middle():
    """WCXB 4677, a review of scooters, began with "is the best budget
    scooter.": the sentence's subject was a link, dropped on its own."""
    text = shipped_cleaner().clean(read_input(str(WCXB / "4677.html.gz"))).text()
    assert not text.startswith("is the best budget scooter")
    assert not re.search(r"(?m)^Maxshot V1 is all that many people need", text)


def test_a_page_in_one_box_is_decided_block_by_block():
    """Dragnet R28 with every block-level tag made inline and the page put
    in one <div>: one line box around a whole page is no paragraph, and the
    labels stay those of the blocks (line-words), not all kept for the
    article's sake nor all dropped for the menus'."""
    html = read_input(str(DRAGNET / "R28.html")).decode("utf-8", "replace")
    inline = re.sub(r"<(/?)(p|div|li|ul|ol|h[1-6]|table|tr|td|th|section|article|header|"
                    r"footer|nav|aside|main|form|blockquote|dl|dt|dd)\b[^>]*>",
                    lambda m: "<br>" if m[1] else "<span>", html, flags=re.I)
    page = re.sub(r"(?is)<body[^>]*>(.*)</body>", r"<body><div>\1</div></body>", inline)
    general = load_config("general")
    with_boxes = Cleaner(general).clean(page)
    without = Cleaner(model=redecoded(replace(general, line_share=None))).clean(page)
    boxes = layout(with_boxes.page.blocks).boxes
    assert len(set(boxes) - {-1}) <= 2  # the page is one box
    assert with_boxes.labels == without.labels
    assert OTHER in with_boxes.labels and set(with_boxes.labels) != {OTHER}


def test_a_page_is_never_emptied_by_dropping_its_one_mostly_dropped_box():
    texts = ["Home", "About us", "Contact the team today"]
    labels = ["o", "p", "o"]
    assert whole_boxes(texts, labels, [MARGINAL] * 3, [0, 0, 0], 0.6) == labels
