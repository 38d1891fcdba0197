"""Decoding (victor.decoding): the best path, widened by the blocks the
CRF finds likely content. A block the path labels o is kept when its
content probability reaches the config's `keep-above`, as its most
probable content label; what the path keeps stays as it was.

The rules are specified on hand-made marginals, so that they hold for any
model; one test checks that cleaning decodes a real page by them."""

from __future__ import annotations

from pathlib import Path

import pytest

from model_support import redecoded, shipped_cleaner
from victor.decoding.calibration import content_probabilities
from victor import second_pass
from victor.cleaner import Cleaner
from victor.config import shipped_configs
from victor.decoding import (bridge, content_label, decide, decode, drop_repeats, keep_likely,
                             layout)
from victor.batch.inputs import read_input
from victor import output
from victor.annotation import load_training_page
from victor.config import load_config
from victor.reading.layout import line_box
from victor.reading.text import words

ROOT = Path(__file__).resolve().parents[1]
WCXB = ROOT / "data" / "wcxb"


def marginal(o: float, p: float = 0.0, h: float = 0.0, l: float = 0.0,  # noqa: E741
             c: float = 0.0) -> dict[str, float]:
    """A block's label probabilities; what o leaves goes to p unless said."""
    rest = 1.0 - o - h - l - c
    return {"o": o, "p": p or rest, "h": h, "l": l, "c": c}


# A listing as a model sees it: a menu, a headline the path keeps, then
# teasers the path drops though the model finds some of them fairly likely.
PAGE = [
    marginal(0.95),                   # 0 menu: content 0.05
    marginal(0.2, h=0.8, p=0.0001),   # 1 headline, kept by the path
    marginal(0.6, p=0.3, c=0.1),      # 2 teaser: content 0.4
    marginal(0.7, c=0.25, l=0.05),    # 3 a continuation: content 0.3
    marginal(0.85, l=0.1, c=0.05),    # 4 a list item: content 0.15
    marginal(0.65, c=0.3, p=0.05),    # 5 a continuation after a dropped block: content 0.35
]
PATH = ["o", "h", "o", "o", "o", "o"]


def test_a_block_the_path_drops_is_kept_at_the_bar_and_not_below_it():
    content = content_probabilities(PAGE)
    for bar in (0.15, 0.3, 0.35, 0.4, 0.5):
        labels = keep_likely(PATH, PAGE, bar)
        kept = [lab != "o" for lab in labels]
        assert kept == [lab != "o" or p >= bar - 1e-12 for lab, p in zip(PATH, content)], bar


def test_what_the_path_keeps_stays_as_the_path_labels_it():
    labels = keep_likely(PATH, PAGE, 0.0)
    assert labels[1] == "h"
    assert keep_likely(["o", "p", "o", "o", "o", "o"], PAGE, 0.99)[1] == "p"


def test_a_kept_block_takes_its_most_probable_content_label():
    labels = keep_likely(PATH, PAGE, 0.15)
    assert labels[2] == "p"
    assert labels[4] == "l"


def test_a_continuation_continues_only_a_kept_block():
    # 3 follows a kept block: it stays a continuation. 5 follows one kept
    # only at a bar of 0.15: above it, it would glue itself to the headline.
    at_015 = keep_likely(PATH, PAGE, 0.15)
    assert at_015[3] == "c" and at_015[5] == "c"
    at_035 = keep_likely(PATH, PAGE, 0.35)
    assert at_035[4] == "o" and at_035[5] == "p"
    assert content_label(PAGE[5], after_content=False) == "p"


def test_no_keep_above_decodes_the_best_path():
    assert decode(PATH, PAGE, None, 0.0, 0.5) == (PATH, False)


def test_a_bar_above_every_probability_keeps_the_path():
    assert decode(PATH, PAGE, 0.99, 0.0, 0.5) == (PATH, False)


def test_a_path_that_keeps_nothing_falls_back_and_says_so():
    labels, fell_back = decode(["o"] * len(PAGE), PAGE, 0.3, 0.0, 0.5)
    assert fell_back and any(lab != "o" for lab in labels)


@pytest.mark.parametrize("config", shipped_configs())
def test_cleaning_decides_a_real_page_by_the_one_decision(config):
    """WCXB 0147, a news site's listing, under every shipped config: the
    labels a user gets are the one decision (victor.decoding.decide) over
    the model's own path and marginals, with the config's trees, and the
    output's own last step; the same decision the folds make, which
    differ only in leaving that step out."""
    cleaner = shipped_cleaner(config)
    page = WCXB / "0147.html.gz"
    result = cleaner.clean(read_input(str(page)), str(page))
    best = cleaner.model.best_labels(result.scores)
    found = layout(result.page.blocks)
    second = cleaner.second_pass

    def trees(labels):
        return second_pass.probabilities(second, result.columns, result.page.blocks,
                                       result.marginals, labels, result.page_type)

    decided = decide(best, result.marginals, result.texts, found, cleaner.config,
                     trees=None if second is None else trees, bridged=True,
                     page_type=result.page_type)
    assert (result.labels, result.fallback) == (decided.labels, decided.fallback)
    scored = decide(best, result.marginals, result.texts, found, cleaner.config,
                    trees=None if second is None else trees, page_type=result.page_type)
    assert decided.labels == bridge(result.texts, found.boxes, scored.labels)


def test_the_folds_decode_a_page_as_the_cleaner_does():
    """Dragnet 134 under the general config, where a list's dropped heading
    ("About the author") comes back with the author's box (list-bar):
    cross-validation's folds (score_fold, which benchmarks.quality runs)
    give the labels the Cleaner's first pass gives, so that the figures
    measure what users get. (The second pass decides again over the folds'
    labels once every fold is done: crossval.with_second_pass.)"""
    from dataclasses import replace

    from victor.annotation import load_annotation
    from victor.config import load_config
    from victor.crf.estimator import CRF
    from victor.training.crossval import score_fold
    from victor.training.dataset import load_example

    cleaner = Cleaner(model=redecoded(replace(load_config("general"), second_pass=None)))
    anno = ROOT / "data" / "dragnet" / "134.anno"
    example = load_example(str(anno), cleaner.config)
    estimator = CRF(cleaner.model.template)
    estimator.model_ = cleaner.model
    fold = score_fold(1, estimator, [example], cleaner.config)
    result = cleaner.clean(read_input(load_annotation(anno).source), str(anno))
    path = cleaner.model.best_labels(result.scores)
    config = cleaner.config
    decoded, _ = decode(path, result.marginals, config.keep_above, config.fallback_share,
                        config.fallback_cap)
    assert fold.predictions[0].labels == result.labels != decoded


@pytest.mark.shipped_model
def test_text_the_page_gives_twice_is_given_once():
    """WCXB 4379, a shop's guide to carry-on luggage, carries its article
    twice (a second copy for another layout); its gold has it once, and so
    does the default config's output. Without `repeat-words`, labels that
    keep both copies keep them both."""
    from victor.config import load_config

    page = read_input(str(WCXB / "4379.html.gz"))
    paragraph = "Carry-on luggage is your travel companion, designed to hold"
    gold = (WCXB / "4379.txt").read_text(encoding="utf-8")
    cleaner = shipped_cleaner("general")
    result = cleaner.clean(page, "4379")
    assert sum(paragraph in t for t in result.texts) == 2
    assert gold.count(paragraph) == result.text().count(paragraph) == 1
    everything = ["p"] * len(result.texts)
    general = load_config("general")
    for repeat_words, copies in ((None, 2), (general.repeat_words, 1)):
        kept = drop_repeats(result.texts, everything, repeat_words, general.repeat_blocks,
                            general.repeat_block_words)
        assert sum(paragraph in t for t, k in zip(result.texts, kept) if k != "o") == copies


# A repeated run counts from 5 blocks of 3 words or more each.
RUN = (5, 3)

# Blocks of a forum thread: a post quoted in the reply below it.
THREAD = [
    "Has anyone flown with a folding bike as carry-on luggage?",
    "I did last spring, the airline measured it at the gate.",
    "Has anyone flown with a folding bike as carry-on luggage?",
    "Yes, twice, folded in a soft bag it passed every time.",
]


def test_a_quoted_post_stays():
    assert drop_repeats(THREAD, ["p"] * 4, 5, *RUN) == ["p"] * 4


def test_a_long_run_of_repeated_blocks_goes_and_the_first_copy_stays():
    article = [f"Paragraph {i} of the article, told in a few more words." for i in range(6)]
    texts = ["Menu", *article, "Share this", *article]
    labels = ["o", *["p"] * 6, "o", *["p"] * 6]
    out = drop_repeats(texts, labels, 30, *RUN)
    assert out == ["o", *["p"] * 6, "o", *["o"] * 6]
    assert drop_repeats(texts, labels, None, *RUN) == labels


def test_a_run_too_short_in_words_or_blocks_stays():
    article = [f"Paragraph {i} of the article, told in a few more words." for i in range(6)]
    texts = article + article
    labels = ["p"] * 12
    assert drop_repeats(texts, labels, 100, *RUN) == labels  # 6 blocks of 11 words: 66
    assert drop_repeats(texts[:10], labels[:10], 30, *RUN) == labels[:10]  # 4 blocks


def test_a_repeated_copy_counts_only_as_kept_and_new_text_breaks_a_run():
    article = [f"Paragraph {i} of the article, told in a few more words." for i in range(6)]
    dropped_first = drop_repeats(article + article, ["o"] * 6 + ["p"] * 6, 30, *RUN)
    assert dropped_first == ["o"] * 6 + ["p"] * 6
    broken = article + article[:3] + ["A new paragraph."] + article[3:]
    assert drop_repeats(broken, ["p"] * 13, 30, *RUN) == ["p"] * 13


def test_line_numbers_of_a_code_listing_given_twice_stay():
    numbers = [str(i) for i in range(1, 301)]
    assert drop_repeats(numbers + numbers, ["p"] * 600, 200, *RUN) == ["p"] * 600


def test_punctuation_between_kept_pieces_of_a_paragraph_is_kept():
    """WCXB 0670, PostgreSQL's SELECT: "If <code>FOR UPDATE</code>, <code>FOR
    NO KEY UPDATE</code>, <code>FOR SHARE</code> or ..." The commas are
    blocks of their own, with no word, and the person's labels (as the CRF's)
    drop them; kept, they set the names apart again."""
    page, labels = load_training_page(WCXB / "0670.anno", load_config("general"))
    tree = output.kept_tree(page.body, page.blocks, labels, "")
    assert "If FOR UPDATEFOR NO KEY UPDATEFOR SHARE or" in output.text(tree)
    bridged = bridge([b.text for b in page.blocks], layout(page.blocks).boxes, labels)
    tree = output.kept_tree(page.body, page.blocks, bridged, "")
    assert "If FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE or FOR KEY SHARE is specified" in (
        output.text(tree))
    # Only blocks without a word come back, as continuations, and only
    # between kept blocks of one paragraph.
    changed = [i for i, (a, b) in enumerate(zip(labels, bridged)) if a != b]
    assert changed
    for i in changed:
        assert bridged[i] == "c" and not words(page.blocks[i].text)
        before = max(j for j in range(i) if labels[j] != "o")
        after = min(j for j in range(i + 1, len(labels)) if labels[j] != "o")
        boxes = {id(line_box(page.blocks[j].containers)) for j in range(before, after + 1)}
        assert len(boxes) == 1


def test_a_word_between_kept_pieces_stays_the_labels_decision():
    page, labels = load_training_page(WCXB / "0670.anno", load_config("general"))
    first = next(i for i, b in enumerate(page.blocks) if b.text == "FOR NO KEY UPDATE")
    dropped = list(labels)
    dropped[first] = "o"  # now a word lies between the kept pieces around it
    assert bridge([b.text for b in page.blocks], layout(page.blocks).boxes, dropped)[first] == "o"
