import pytest

from victor.errors import VictorError
from victor.training.evaluate import (
    Overlap,
    content_accuracy,
    label_accuracy,
    micro_total,
    parse_cleaneval,
    read_cleaneval,
    score_page,
    shingle_overlap,
    word_overlap,
)
from victor.reading.text import words

from repo_data import CLEANEVAL as GOLD  # NAME.txt: the gold beside each page


def test_word_scores_count_the_longest_common_subsequence():
    # LCS of "a b c d e" and "a x c d f e" is "a c d e": 4 words.
    score = word_overlap("a b c d e".split(), "a x c d f e".split())
    assert (score.matched, score.extracted, score.gold) == (4, 5, 6)
    assert score.precision == pytest.approx(4 / 5)
    assert score.recall == pytest.approx(4 / 6)
    assert score.f1 == pytest.approx(2 * (4 / 5) * (4 / 6) / (4 / 5 + 4 / 6))


def test_words_out_of_order_count_once():
    # Only one of "a" and "b" can be aligned when their order is swapped.
    assert word_overlap(["b", "a"], ["a", "b"]).matched == 1


def test_shingles_are_matched_as_multisets_of_four_word_tuples():
    extracted = "one two three four five one two three four".split()
    gold = "one two three four five six".split()
    # extracted: (1234) (2345) (3451) (4512) (5123) (1234) -> 6 shingles
    # gold:      (1234) (2345) (3456)                      -> 3 shingles
    # common as multisets: (1234) once, (2345) once
    score = shingle_overlap(extracted, gold)
    assert (score.matched, score.extracted, score.gold) == (2, 6, 3)
    assert score.precision == pytest.approx(2 / 6)
    assert score.recall == pytest.approx(2 / 3)


def test_a_repeated_gold_passage_must_be_extracted_twice():
    gold = "a b c d a b c d".split()        # (abcd) twice, plus 3 others
    once = shingle_overlap("a b c d".split(), gold)
    assert (once.matched, once.gold) == (1, 5)


def test_nothing_to_count_is_perfect_and_nothing_found_is_zero():
    assert word_overlap([], []).f1 == 1.0
    nothing_extracted = word_overlap([], ["a"])
    assert (nothing_extracted.precision, nothing_extracted.recall, nothing_extracted.f1) == (1.0, 0.0, 0.0)
    # Pages shorter than a shingle have no shingles.
    assert shingle_overlap(["a"], ["a", "b"]).gold == 0


def test_pages_compare_on_words_only():
    score = score_page("x", "Hello,   WORLD!\nIt's here.", "hello world it s here")
    assert score.words.f1 == 1.0
    assert score.shingles.f1 == 1.0


def test_the_total_sums_counts_over_pages_before_dividing():
    pages = [score_page("long", "a b c d e f g h", "a b c d e f g h"),
             score_page("short", "x", "y")]
    total = micro_total(pages)
    assert total.name == "total"
    assert total.words == Overlap(8, 9, 9)
    assert total.words.f1 == pytest.approx(8 / 9)
    # A macro average would be (1.0 + 0.0) / 2.
    assert micro_total([]).words == Overlap(0, 0, 0)


def test_cleaneval_markers_are_removed_even_mid_line():
    page = parse_cleaneval("\ufeffURL: http://example.org/a\n"
                           "<h>Title\n<p>First para<l>item one\n  <l>item two\n", "g.txt")
    assert page.url == "http://example.org/a"
    assert words(page.text) == ["title", "first", "para", "item", "one", "item", "two"]
    # Only the three segment markers are markup; other angle brackets are text.
    assert words(parse_cleaneval("URL: u\n<p>ask <jefferai>\n", "g.txt").text) == ["ask", "jefferai"]


def test_cleaneval_text_without_url_line_is_refused_naming_the_file():
    with pytest.raises(VictorError, match=r"^notes\.txt: not CleanEval text"):
        parse_cleaneval("<p>no url line\n", "notes.txt")


def test_unreadable_cleaneval_files_name_the_file(tmp_path):
    with pytest.raises(VictorError, match="missing.txt: no such gold file"):
        read_cleaneval(tmp_path / "missing.txt")
    latin = tmp_path / "latin.txt"
    latin.write_bytes("URL: x\n<p>caf\xe9".encode("latin-1"))
    with pytest.raises(VictorError, match="latin.txt: not UTF-8"):
        read_cleaneval(latin)


def test_a_real_gold_file_scored_against_itself_is_perfect():
    page = read_cleaneval(GOLD / "33.txt")
    assert page.url.startswith("http")
    score = score_page("33", page.text, page.text)
    assert score.words.gold > 20000
    assert score.words.f1 == 1.0 and score.shingles.f1 == 1.0


def test_label_accuracy_counts_exact_labels_and_content_accuracy_only_the_side():
    predicted = ["p", "c", "o", "h", "o"]
    gold = ["p", "p", "o", "o", "l"]
    assert label_accuracy(predicted, gold) == pytest.approx(2 / 5)
    # p~p, c~p, o~o agree on content-vs-noise; h~o and o~l do not.
    assert content_accuracy(predicted, gold) == pytest.approx(3 / 5)
    with pytest.raises(ValueError):
        label_accuracy(["p"], ["p", "o"])
