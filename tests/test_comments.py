"""Readers' comments as the user's choice (issue 64): `--comments keep`
keeps them on every page, `drop` from every page but a forum, the default
decides by the page's type; a forum's posts stay whatever is chosen, and
the jsonl record says which blocks were comments."""

from __future__ import annotations

import json

import pytest
from front_door_support import victor_main
from model_support import shipped_cleaner
from repo_data import CLEANEVAL, WCXB

from victor import Cleaner, VictorError, extract
from victor.batch.inputs import read_input
from victor.labels import OTHER


@pytest.fixture(scope="module")
def cleaners() -> dict[str | None, Cleaner]:
    return {choice: Cleaner(comments=choice) for choice in (None, "keep", "drop")}


def kept_comments(result) -> int:
    return sum(result.labels[i] != OTHER for i in result.comment_blocks)


def test_an_articles_comments_are_kept_only_when_asked(cleaners):
    """CleanEval 13, a blog post with its readers' comments, which the
    page-type classifier calls an article."""
    page = cleaners[None].read(read_input(str(CLEANEVAL / "13.html")))
    default, keep, drop = (cleaners[c].label(page) for c in (None, "keep", "drop"))
    assert default.comment_blocks and default.comment_blocks == keep.comment_blocks
    assert kept_comments(default) == kept_comments(drop) == 0
    assert kept_comments(keep) > 0
    assert len(keep.text()) > len(default.text())


def test_a_forums_posts_stay_when_comments_are_dropped(cleaners):
    """WCXB 0526, a forum whose posts stand in comment sections."""
    page = cleaners[None].read(read_input(str(WCXB / "0526.html.gz")))
    keep, drop = cleaners["keep"].label(page), cleaners["drop"].label(page)
    assert kept_comments(drop) > 0
    assert drop.labels == keep.labels


def test_the_record_names_the_comment_blocks_and_the_choice_is_checked(tmp_path):
    proc = victor_main("clean", "--format", "jsonl", "--comments", "keep",
                       CLEANEVAL / "13.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    labels = {b["id"]: b["label"] for b in record["blocks"]}
    assert record["comments"] and any(labels[i] != OTHER for i in record["comments"])
    with pytest.raises(VictorError, match="comments 'all': choose one of keep, drop"):
        extract("<p>A page.</p>", comments="all")


def test_a_shipped_config_leaves_no_page_with_text_empty():
    """Issue 64, item 6: the article config drops comment sections on
    every page, and so kept nothing of WCXB 0545, a forum thread."""
    result = shipped_cleaner("article").clean(read_input(str(WCXB / "0545.html.gz")))
    assert "I don't like this new look" in result.text()


def test_a_page_left_empty_by_drop_keeps_its_likeliest_text_outside_the_comments(cleaners):
    """A page whose kept blocks all stood in comment sections (Dragnet R988
    in some site folds) would come back with its comments to stay not
    empty; with `drop` the fallback keeps its likeliest blocks outside them."""
    from victor import decoding

    page = cleaners[None].read(read_input(str(CLEANEVAL / "13.html")))
    result = cleaners["drop"].label(page)
    barred = [s == "comments" for s in decoding.layout(page.blocks).sections]
    fallen = decoding.fallback([OTHER] * len(page.blocks), result.marginals, 0.03, 0.5, barred)
    assert fallen is not None and any(lab != OTHER for lab in fallen)
    assert all(lab == OTHER for lab, b in zip(fallen, barred) if b)
    assert decoding.fallback([OTHER] * len(page.blocks), result.marginals, 0.03, 0.5,
                             [True] * len(page.blocks)) is None
