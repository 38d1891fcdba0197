"""Annotations from gold text: labelling a page's blocks from the text a
person kept, reading the collections' gold files, and the shipped
annotations of data/, which must reproduce their gold."""

from __future__ import annotations

import gzip
import json

import pytest
from annotation_support import labels_by_text, page_of
from repo_data import CLEANEVAL, DRAGNET, WCXB

from victor.training import evaluate
from victor.annotation.align import is_alt_text, label_from_gold, markup_kind
from victor.annotation.gold import parse_gold, read_gold
from victor.annotation import export, load_annotation, load_training_page, read_page_file
from victor.annotation.from_gold import annotate_from_gold
from victor.config import load_config
from victor.errors import VictorError
from victor.reading.text import words


# --- labels from gold ---------------------------------------------------


def test_gold_labels_hand_checked_blocks(config):
    page = page_of(CLEANEVAL / "1.html", config)
    texts = [b.text for b in page.blocks]
    result = label_from_gold(texts, read_gold(CLEANEVAL / "1.txt"))
    got = labels_by_text(texts, result.labels)
    assert got["Home"] == "o"
    assert got["If you feel it's time to start taking action and get your property sold "
               "FAST and for TOP DOLLAR;"] == "p"
    assert got["here's a good place to start."] == "c"
    assert got["Your Home Will Sell"] == "h"
    assert got["Fast"] == "l"
    # <l>For Top Dollar split by a tag: the second block continues the item.
    assert (got["For"], got["Top Dollar"]) == ("l", "c")
    # Drop capitals are blocks of their own; gold has "Advertise" whole.
    assert (got["A"], got["dvertise themselves"]) == ("l", "c")
    assert result.recall > 0.97 and result.precision > 0.97


def test_gold_words_run_together_still_find_their_block(config):
    # The gold of page 54 reads "Frankensteinwas" where the page has a link.
    page = page_of(CLEANEVAL / "54.html", config)
    texts = [b.text for b in page.blocks]
    assert "frankensteinwas" in read_gold(CLEANEVAL / "54.txt").words
    labels = label_from_gold(texts, read_gold(CLEANEVAL / "54.txt")).labels
    assert labels[texts.index("Frankenstein")] == "c"


def test_gold_of_another_page_is_one_line_error_naming_the_gold(config, tmp_path):
    with pytest.raises(VictorError) as e:
        annotate_from_gold(CLEANEVAL / "2.txt", CLEANEVAL / "1.html", tmp_path / "1.anno", config)
    message = str(e.value)
    assert message.startswith(f"{CLEANEVAL / '2.txt'}: only ") and "another page" in message
    assert "\n" not in message and not (tmp_path / "1.anno").exists()


def test_plain_gold_is_paragraphs_and_ends_before_the_comments():
    gold = read_gold(DRAGNET / "106.txt")
    assert gold.url == "" and set(gold.kinds) == {"p"}
    text = (DRAGNET / "106.txt").read_text()
    assert "COMMENTS" in text
    assert gold.words == words(text.split("!@#$%^&*()  COMMENTS")[0])


def test_gold_saved_as_mangled_utf16_is_recovered():
    # Dragnet's 27.txt: UTF-16 once read as Latin-1 and saved as UTF-8.
    assert (DRAGNET / "27.txt").read_bytes().startswith("ÿþ".encode())
    assert read_gold(DRAGNET / "27.txt").words[:4] == ["paulo", "coelho", "s", "blog"]


def test_cleaneval_gold_with_url_on_its_own_line():
    gold = read_gold(CLEANEVAL / "22.txt")
    assert gold.url.startswith("http://books.guardian.co.uk/")
    assert gold.words[:3] == ["your", "cheating", "heart"] and gold.kinds[0] == "h"


def test_gold_markers_may_stand_mid_line():
    gold = parse_gold("URL: http://x/\n<h>Title <p>First words\nmore words <l>item", "g.txt")
    assert gold.kinds == ["h", "p", "l"]
    assert gold.segment == [0, 1, 1, 1, 1, 2]


# --- the shipped data ---------------------------------------------------


def test_shipped_cleaneval_annotations_attach_to_their_pages(config):
    for anno in sorted(CLEANEVAL.glob("*.anno")):
        load_training_page(anno, config)


@pytest.mark.parametrize("folder, count", [(CLEANEVAL, 58), (DRAGNET, 806), (WCXB, 1279)])
def test_shipped_annotations_reproduce_their_gold(folder, count):
    """The acceptance figure of docs/annotation.md: the exported text of
    every .anno against its gold, word by word; for WCXB as WCXB counts,
    words as a bag and the mean of pages (data/wcxb/README.md)."""
    total = evaluate.Overlap(0, 0, 0)
    annos = sorted(folder.glob("*.anno"))
    assert len(annos) == count
    if folder == WCXB:
        bags = [evaluate.bag_overlap(
            words(evaluate.parse_cleaneval(export(load_annotation(p), "cleaneval"), str(p)).text),
            read_gold(p.with_suffix(".txt")).words) for p in annos]
        assert sum(b.precision for b in bags) / count >= 0.97
        assert sum(b.recall for b in bags) / count >= 0.97
        return
    for path in annos:
        ours = words(evaluate.parse_cleaneval(export(load_annotation(path), "cleaneval"), str(path)).text)
        gold_path = path.with_suffix(".txt")
        if folder == CLEANEVAL:
            theirs = words(evaluate.read_cleaneval(gold_path).text)
        else:
            theirs = read_gold(gold_path).words
        total += evaluate.word_overlap(ours, theirs)
    assert total.precision >= 0.97 and total.recall >= 0.97


def test_another_config_may_lack_content_the_annotation_has():
    """Dragnet T25 was annotated with the general config, which keeps
    <noscript>; a content block of T25 is in one. The cleaneval config drops
    it (as the article config did before it became the general config's
    reading with a second pass), and still trains on the page's other blocks."""
    annotation = load_annotation(DRAGNET / "T25.anno")
    assert annotation.config == "general"
    page, labels = load_training_page(DRAGNET / "T25.anno", load_config("cleaneval"))
    assert len(labels) == len(page.blocks) < len(annotation.labels)
    headline = next(t for t, label in zip(annotation.texts, annotation.labels)
                    if label == "p" and t.startswith("Genocide refugee, CEO, and astronaut-to"))
    # The headline's copy in <noscript> is the one the cleaneval config drops.
    assert (sum(b.text == headline for b in page.blocks)
            == annotation.texts.count(headline) - 1)


def test_a_gzipped_page_reads_as_the_page_itself(config, tmp_path):
    page = CLEANEVAL / "1.html"
    packed = tmp_path / "1.html.gz"
    packed.write_bytes(gzip.compress(page.read_bytes()))
    assert ([b.text for b in read_page_file(packed, config).blocks]
            == [b.text for b in read_page_file(page, config).blocks])


def test_damaged_gzip_is_a_one_line_error_naming_the_file(config, tmp_path):
    packed = tmp_path / "1.html.gz"
    packed.write_bytes(gzip.compress((CLEANEVAL / "1.html").read_bytes())[:-200])
    with pytest.raises(VictorError, match=r"1\.html\.gz: damaged gzip data"):
        read_page_file(packed, config)


def test_plain_gold_takes_heading_and_list_kinds_from_the_markup():
    """WCXB's gold has paragraphs only; the page's <h2> makes the heading."""
    config = load_config("general")
    page = read_page_file(WCXB / "0001.html.gz", config)
    gold = read_gold(WCXB / "0001.txt")
    assert not gold.marked
    kinds = [markup_kind(b.tags) for b in page.blocks]
    labels = labels_by_text([b.text for b in page.blocks],
                            label_from_gold([b.text for b in page.blocks], gold, "0001", kinds).labels)
    assert labels["1. High-Protein, Balanced Meals Are Here to Stay"] == "h"
    assert labels["Fuel Your Fall with Scratch"] == "h"


def test_a_cards_title_is_content_and_its_pictures_alt_text_is_not():
    """WCXB 0649, a shop's graphics cards: each card's picture has the
    product's name as alt text, and the same name shows as the card's
    title link. The gold was typed from what shows: the title is content."""
    config = load_config("general")
    page = read_page_file(WCXB / "0649.html.gz", config)
    texts = [b.text for b in page.blocks]
    name = "GIGABYTE Gaming Radeon RX 9060 XT 16GB GDDR6 PCI Express 5.0"
    copies = [i for i, t in enumerate(texts) if t.startswith(name)]
    alt = [i for i in copies if is_alt_text(page.blocks[i].tags)]
    shown = [i for i in copies if not is_alt_text(page.blocks[i].tags)]
    assert alt and shown
    gold = read_gold(WCXB / "0649.txt")
    kinds = [markup_kind(b.tags) for b in page.blocks]
    alts = [is_alt_text(b.tags) for b in page.blocks]
    labels = label_from_gold(texts, gold, "0649", kinds, alts).labels
    assert all(labels[i] == "o" for i in alt)
    assert any(labels[i] != "o" for i in shown)
    # Matched by words alone, the picture's copy came first and won.
    first = label_from_gold(texts, gold, "0649", kinds).labels
    assert any(first[i] != "o" for i in alt) and all(first[i] == "o" for i in shown)


def test_wcxb_annotation_keeps_the_address_from_its_metadata(tmp_path):
    meta = json.loads((WCXB / "0001.json").read_text(encoding="utf-8"))
    assert load_annotation(WCXB / "0001.anno").url == meta["url"]
    # Made again from the copy in data/wcxb, NAME.json beside NAME.txt.
    annotate_from_gold(WCXB / "0001.txt", WCXB / "0001.html.gz", tmp_path / "0001.anno",
                       load_config("general"))
    again = load_annotation(tmp_path / "0001.anno")
    assert again.url == meta["url"]
    assert again.labels == load_annotation(WCXB / "0001.anno").labels
