"""The cleaneval extras that look past the block at the page's layout
(path.*, words-before, nearest-text) on a real forum page,
worked out by hand.

The snippet is cleaneval-dev/html/33.html, lines 3-13 (the thread's
navigation), 32 and 51 (two posts), with the closing </div> of the page
body added. Counts are kept whole and shares in hundredths, so that an
expected value reads as counted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from victor.batch.inputs import read_input
from victor.config import CONFIG_DIR, Config, load_config
from victor.features import KINDS, compute
from victor.features.context import COUNT, RATIO, paths
from victor.reading.page import read_page

# The repository's copy of the page (data/cleaneval/README.md).
SOURCE = Path(__file__).resolve().parents[1] / "data" / "cleaneval" / "33.html"

NAMES = ("path.word-share", "path.link-density", "path.blocks", "path.avg-words", "path.span",
         "path.text-share", "words-before", "nearest-text")


@pytest.fixture(scope="module")
def exact(tmp_path_factory: pytest.TempPathFactory) -> Config:
    """cleaneval.yaml with only these features, counts kept whole and
    shares in hundredths."""
    raw = yaml.safe_load((CONFIG_DIR / "cleaneval.yaml").read_text())
    raw["crf-features"] = list(NAMES)
    raw["values"] = {n: list(range(101)) for n in NAMES if KINDS[n] == COUNT}
    raw["scales"] = {n: 100 for n in NAMES if KINDS[n] == RATIO}
    path = tmp_path_factory.mktemp("configs") / "exact.yaml"
    path.write_text(yaml.safe_dump(raw))
    return load_config(path)


@pytest.fixture(scope="module")
def forum(exact: Config) -> list[tuple[str, dict[str, str]]]:
    lines = SOURCE.read_bytes().split(b"\n")
    html = b"\n".join([*lines[2:13], lines[31], lines[50], b"</div>"])
    page = read_page(html, exact)
    return [(b.text, feats) for b, feats in zip(page.blocks, compute(page, exact))]


def values(forum, name: str) -> dict[str, str]:
    return {text: feats[name] for text, feats in forum}


def test_the_blocks_are_navigation_then_two_posts(forum) -> None:
    assert [text for text, _ in forum] == [
        "The CHUD.COM Message Boards", ">", "THE MAIN SEWER", ">", "Focused Film Discussion",
        "> Star Wars: Revenge of the Sith post-release discussion", "PDA",
        "View Full Version :", "Star Wars: Revenge of the Sith post-release discussion",
        "Pages :", "1", "[", "2", "]",
        "Bailey", "05-06-2005, 05:41 PM", forum[16][0],
        "Charlie Brigden", "05-06-2005, 05:51 PM", "Did Palpatine name me Sean too?"]
    assert forum[16][0].startswith("jabba there's a difference")


def test_posts_share_their_path_and_hold_most_words(forum) -> None:
    # 131 words outside links: 9 after the navigation's links, 3 of "View
    # Full Version", 1 + 1 in <b> around the page numbers, and the posts:
    # names 1 + 2, dates 6 + 6, texts 96 + 6. Both texts sit in
    # div.pagebody > div.post > div.posttext: (96 + 6) / 131.
    share = values(forum, "path.word-share")
    assert share[forum[16][0]] == share["Did Palpatine name me Sean too?"] == "77"
    assert share["Bailey"] == share["Charlie Brigden"] == "2"  # (1 + 2) / 131
    assert share["05-06-2005, 05:41 PM"] == "9"  # (6 + 6) / 131
    assert share["View Full Version :"] == "2"  # 3 / 131


def test_ids_do_not_split_paths_and_links_hold_no_words(forum) -> None:
    # #navbar and #pagenumbers are both div.pagebody > div: the 9 words
    # after the navigation's links, and "[" "]" "> " with none.
    share = values(forum, "path.word-share")
    assert share["> Star Wars: Revenge of the Sith post-release discussion"] == "6"  # 9 / 131
    assert share["["] == share["]"] == "6"
    # Every block in an <a> of the navigation shares a path with the others:
    # all their words are inside links.
    assert share["The CHUD.COM Message Boards"] == share["1"] == share["PDA"] == "0"


def test_a_path_is_described_as_a_whole(forum) -> None:
    post = {name: values(forum, name)["Did Palpatine name me Sean too?"]
            for name in NAMES if name.startswith("path.")}
    # The two post texts: 96 + 6 words over two blocks, no links; blocks 16
    # and 19 of 20 span 4 / 20; only the first has 15 words or more.
    assert post == {"path.word-share": "77", "path.link-density": "0", "path.blocks": "2",
                    "path.avg-words": "51", "path.span": "20", "path.text-share": "50"}
    menu = {name: values(forum, name)["THE MAIN SEWER"]
            for name in NAMES if name.startswith("path.")}
    # div.pagebody > div > a: the navigation's three links and the page
    # link "1" (block 10), 5 + 3 + 3 + 1 words, all in links (a share of
    # 1 is the top step, 99); blocks 0 to 10 span 11 / 20.
    assert menu == {"path.word-share": "0", "path.link-density": "99", "path.blocks": "4",
                    "path.avg-words": "3", "path.span": "55", "path.text-share": "0"}


def test_words_before_count_words_not_blocks(forum) -> None:
    # 153 words on the page; 43 of them before the first post's text
    # (5 + 3 + 3 + 9 + 1 + 3 + 9 + 1 + 1 + 1 + 1 + 6), 147 before the second's.
    before = values(forum, "words-before")
    assert before["The CHUD.COM Message Boards"] == "0"
    assert before[forum[16][0]] == "28"  # 43 / 153
    assert before["Did Palpatine name me Sean too?"] == "96"  # 147 / 153


def test_nearest_text_is_the_distance_to_the_long_post(forum) -> None:
    # Only the first post's text has 15 or more words outside links.
    assert [feats["nearest-text"] for _, feats in forum] == [
        str(abs(i - 16)) for i in range(len(forum))]


def test_a_page_without_running_text_is_as_far_from_it_as_it_is_long(exact: Config) -> None:
    # cleaneval-dev/html/33.html, line 6: the "PDA" link alone.
    page = read_page(b'<div class="pda"><a href="?pda=1" rel="nofollow">PDA</a></div>', exact)
    [feats] = compute(page, exact)
    assert feats == {"path.word-share": "0", "path.link-density": "99", "path.blocks": "1",
                     "path.avg-words": "1", "path.span": "99", "path.text-share": "0",
                     "words-before": "0", "nearest-text": "1"}


def test_a_grids_items_are_one_kind() -> None:
    # data/wcxb/0659: a shop's grid of 39 products, each an <li> whose
    # classes begin "product type-product" and go on with its own
    # (post-15859, first or last, instock or outofstock, product_cat-...);
    # each product's name sits in h2.woocommerce-loop-product__title.
    config = load_config("general")
    page = read_page(read_input(str(SOURCE.parents[1] / "wcxb" / "0659.html.gz")), config)
    found = paths(page.blocks, class_words=False)
    names = [i for i, b in enumerate(page.blocks)
             if any(c.attrs.get("class") == "woocommerce-loop-product__title"
                    for c in b.containers)]
    assert len(names) == 39
    assert len({found.templates[i] for i in names}) == 39
    assert len({found.kinds[i] for i in names}) == 1
