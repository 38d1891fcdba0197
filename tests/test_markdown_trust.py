"""Markdown a reader can trust (issue 48): the page's own characters stay
characters, line breaks stay line breaks, numbers are not doubled, and
the words are the text output's words.

Real pages from data/ are cleaned with the labels a person gave their
blocks (the .anno beside them), or with labels the test spells out, so
that each test says what the output makes of a given labelling, whatever
a model would have kept."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from markdown_it import MarkdownIt
from model_support import shipped_cleaner
from repo_data import ROOT
from test_output_structure import WCXB, markdown, person_labelled, shown_words, text

import victor
from victor import output
from victor.batch.inputs import read_input
from victor.config import load_config
from victor.output.characters import readable
from victor.reading.page import read_page
from victor.reading.text import words

DATA = ROOT / "data"


def page_of(name: str):
    return read_page(read_input(str(DATA / f"{name}.html.gz")), load_config("general"))


def kept(page, keep) -> output.Element:
    """The kept tree of `page` with the blocks `keep(i, block)` says."""
    labels = ["p" if keep(i, b) else "o" for i, b in enumerate(page.blocks)]
    return output.kept_tree(page.body, page.blocks, labels)


def test_literal_syntax_in_the_text_stays_text():
    md = victor.extract("<h1>T</h1><p>A literal *asterisk*, a [bracket](x) and a `backtick`, "
                        "snake_case and _under_, 5 * 3, a|b, &lt;div&gt; and ~5 to ~10.</p>"
                        "<p># hash, and <code>a*b_[c]|`d`</code> in code.</p>", output="markdown")
    assert md == ("# T\n\nA literal \\*asterisk\\*, a \\[bracket](x) and a \\`backtick\\`, "
                  "snake_case and \\_under\\_, 5 * 3, a|b, \\<div> and \\~5 to \\~10.\n\n"
                  "\\# hash, and `` a*b_[c]|`d` `` in code.\n")
    # A pipe is a table's only under a line that would make a table's head.
    page = read_page("<p>A | B<br>--- | ---</p>", load_config("general"))
    assert output.markdown(kept(page, lambda i, b: True)) == "A | B\\\n--- \\| ---\n"


def test_a_mark_that_closes_a_cells_bold_is_escaped_once():
    """WCXB 4908's table of what an insurer paid sets "$2,640.22*" in bold
    in a cell; escaped twice, the asterisk closed the bold and the
    backslash showed."""
    md = markdown(WCXB / "4908.anno")
    assert "| **$2,640.22\\*** |" in re.sub(r" {2,}", " ", md)
    html = MarkdownIt("commonmark").enable("table").render(md)
    assert "<td><strong>$2,640.22*</strong></td>" in html


def test_marks_in_a_tables_cells_read_back_as_the_cells_text():
    """In a cell the converter escapes some marks itself; each reads
    back as the page's character, whatever set it in bold or code."""
    cells = ["<b>a_</b>", "<b>_a</b>", "<em>x*</em>", "<b>[x]</b>", "<b>a|b</b>",
             "<code>a|b</code>", "<b>~5</b>", "<b>`a`</b>", "<strong>*</strong>",
             "<i>a</i>*", "x <b>**</b> y"]
    page = read_page("<table>" + "".join(f"<tr><td>{i}</td><td>{c}</td></tr>"
                                         for i, c in enumerate(cells)) + "</table>",
                     load_config("general"))
    html = MarkdownIt("commonmark").enable("table").render(
        output.markdown(kept(page, lambda i, b: True)))
    read = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<t[dh]>(.*?)</t[dh]>", html)]
    assert read[1::2] == ["a_", "_a", "x*", "[x]", "a|b", "a|b", "~5", "`a`", "*", "a*",
                          "x ** y"]


def test_a_footnote_mark_and_brackets_of_real_pages_are_escaped():
    """CleanEval 10 marks a name with an asterisk and starts its note with
    one; Dragnet 134 puts metres in brackets."""
    md = markdown(DATA / "cleaneval" / "10.anno")
    assert "scholars including Francis Bacon\\* to oversee" in md
    assert "\n\\*There are those who believe that it was Francis Bacon" in md
    md = markdown(DATA / "dragnet" / "134.anno")
    assert "similar to 100,000 feet \\[30,000 metres] here on Earth" in md


def test_a_run_of_line_breaks_is_one_line_break():
    """WCXB 0397 sets its paragraphs apart by <br>, and the lines the labels
    drop leave their <br> behind: each became a line of a lone `\\`."""
    page = page_of("wcxb/0397")
    lines = ("The RCT hopes the exhibition", "Read more news like this on", "HindustanTimes.com",
             "Get the latest news and updates", "Thank you for subscribing")
    tree = kept(page, lambda i, b: 95 <= i <= 108 and b.text.startswith(lines))
    assert output.markdown(tree) == (
        "The RCT hopes the exhibition will offer a fresh perspective on the Royal Family and "
        "their relationship with the public, as captured through the lens of a camera. It will "
        "run until October 6.\\\n"
        "Read more news like this on [HindustanTimes.com](http://HindustanTimes.com)\\\n"
        "Get the latest news and updates on Royal Family News, Royal Family, Queen Elizabeth II, "
        "King Charles III, and more.\\\n"
        "Thank you for subscribing to our daily newsletter.\n")
    assert "\n\n" not in output.text(tree).strip()
    # A break at a box's edge is no line of its own either.
    page = read_page("<p><br>One<br><br></p><p>Two <b>three<br></b></p>", load_config("general"))
    assert output.markdown(kept(page, lambda i, b: True)) == "One\n\nTwo **three**\n"


def test_soft_hyphens_and_zero_width_characters_leave_the_words():
    """WCXB 4554 hyphenates its words with soft hyphens, and 0227 has a
    zero-width no-break space inside "How" and "Best"; the CRF still sees
    them, the reader does not."""
    page, _, _ = person_labelled(WCXB / "4554.anno")
    assert "Home Repair Assis\u00adtance Program" in [b.text for b in page.blocks]
    assert markdown(WCXB / "4554.anno").startswith("### Home Repair Assistance Program\n")
    assert "A new cycle of $100,000 in 2026 is available to help homeowners in Marion" in text(
        WCXB / "4554.anno")
    plain = text(WCXB / "0227.anno")
    assert "\nHow to Apply the Formula:" in plain and "The 10 Best ROI Home Improvement" in plain
    assert not re.search("[\u00ad\u200b-\u200d\u2060\ufeff]", plain + markdown(WCXB / "0227.anno"))


def test_joiners_stay_where_a_script_needs_them():
    """A Persian word's zero-width non-joiner and an emoji family's joiners
    are part of what a reader sees; beside Latin letters they only split."""
    page = read_page("<p>\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 and "
                     "\U0001F468\u200d\U0001F469\u200d\U0001F467, not wo\u200crd\u200d.</p>",
                     load_config("general"))
    assert output.text(kept(page, lambda i, b: True)) == (
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 and "
        "\U0001F468\u200d\U0001F469\u200d\U0001F467, not word.\n")


def test_text_encoded_twice_is_read_once():
    """WCXB 2362 declares UTF-8 and holds text encoded twice: the blocks the
    CRF sees have "isnâ€™t", the output "isn’t"."""
    page, _, _ = person_labelled(WCXB / "2362.anno")
    assert any("intelligence isnâ€™t just" in b.text for b in page.blocks)
    md = markdown(WCXB / "2362.anno")
    assert "Artificial intelligence isn’t just changing" in md and "â€" not in md


def test_text_with_accents_and_no_mojibake_is_left_as_it_is():
    """Bulgarian (WCXB 2917), and a Sanskrit text in a legacy font's
    encoding that only looks broken (CleanEval 4): no block changes."""
    for anno in (WCXB / "2917.anno", DATA / "cleaneval" / "4.anno"):
        page, _, _ = person_labelled(anno)
        assert sum(not b.text.isascii() for b in page.blocks) > 20
        assert [b.text for b in page.blocks if readable(b.text) != b.text] == []


def test_an_ordered_list_says_its_numbers_once():
    """WCXB 0018 numbers its steps in an <ol> and again in a box of each
    item: Markdown and text gave "1. 1 **Look for a deal.**"."""
    md = markdown(WCXB / "0018.anno")
    assert ("\n1. **Look for a deal.** The internet is a great place to start.") in md
    assert ("\n2. **Determine if you want to pick-up your rental car at a local office or at the "
            "nearest airport.** Some rental") in md
    assert not re.search(r"^(\d+)\. \**\1\b", md, re.M)
    plain = text(WCXB / "0018.anno")
    assert "\n1. Look for a deal. The internet" in plain and "\n7. Follow your rental" in plain


def test_numbers_that_are_not_every_items_place_stay():
    """A recipe's amounts begin its items: not the list's own numbers."""
    page = read_page("<ol><li><span>1</span> cup flour</li><li><span>3</span> eggs</li></ol>"
                     "<ol><li>1. One</li><li>2. Two</li></ol>", load_config("general"))
    tree = kept(page, lambda i, b: True)
    assert output.markdown(tree) == "1. 1 cup flour\n2. 3 eggs\n\n1) One\n2) Two\n"
    assert output.text(tree) == "1. 1 cup flour\n2. 3 eggs\n1. One\n2. Two\n"


def test_a_counter_in_two_boxes_is_one_line():
    """WCXB 4708 heads each of its 15 plants with a box of "1" above "of 15"."""
    md = markdown(WCXB / "4708.anno")
    assert "\n\n1 of 15\n\n## Prayer Plant (Maranta leuconeura)\n" in md
    assert "\n\n15 of 15\n\n## " in md
    assert not re.search(r"^(\d+|of \d+)$", md, re.M)
    assert "\n1 of 15\n\nPrayer Plant (Maranta leuconeura)\n" in text(WCXB / "4708.anno")


def test_footnotes_are_markdown_footnotes_where_their_notes_are_kept():
    """WCXB 0379 marks its notes `<sup><a href="#fn-gleam">1</a></sup>` and
    lists them at its end, each with a link back (↩)."""
    md = markdown(WCXB / "0379.anno")
    assert "people who use Rust want to keep using Rust[^1]--and not just" in md
    assert "\n[^1]: In 2025, 72% of Rust users said they wanted to keep using it." in md
    assert "\n[^2]: And, uh, how can we be sure not to mess it up?\n" in md
    assert "<sup>" not in md and "↩" not in md
    page, labels, url = person_labelled(WCXB / "0379.anno")
    tree = output.kept_tree(page.body, page.blocks, labels, url)
    assert "keep using Rust[1]--and" in output.text(tree)
    assert "\n2. And, uh, how can we be sure not to mess it up?\n" in output.text(tree)
    assert "keep using Rust<sup>1</sup>--and" in output.clean_html(tree)


def test_a_footnote_mark_without_its_note_is_text():
    page = read_page('<p>As of v2.3<sup id="r1"><a href="#cite_note-1">[1]</a></sup>, it '
                     'changed.</p><ol class="references"><li id="cite_note-1"><a href="#r1">↑'
                     '</a> The release notes.</li></ol>', load_config("general"))
    tree = kept(page, lambda i, b: b.text not in ("↑", "The release notes."))
    assert output.markdown(tree) == "As of v2.3\\[1], it changed.\n"
    assert output.text(tree) == "As of v2.3[1], it changed.\n"
    tree = kept(page, lambda i, b: True)
    assert output.markdown(tree) == "As of v2.3[^1], it changed.\n\n[^1]: The release notes.\n"


def test_an_item_keeps_its_number_when_items_before_it_are_dropped():
    """The labels drop WCXB 0018's first step: the second stays step 2."""
    page, labels, url = person_labelled(WCXB / "0018.anno")
    first = next(c for b in page.blocks if b.text == "Look for a deal." for c in b.containers
                 if c.tag == "li")
    labels = ["o" if first in b.containers else lab for b, lab in zip(page.blocks, labels)]
    tree = output.kept_tree(page.body, page.blocks, labels, url)
    assert "\n\n2. **Determine if you want to pick-up your rental car" in output.markdown(tree)
    assert "\n\n2. Determine if you want to pick-up your rental car" in output.text(tree)
    assert "Look for a deal" not in output.text(tree)


def test_a_figure_between_kept_paragraphs_comes_with_its_caption():
    """WCXB 0009 sets a figure between two paragraphs; the person's labels
    drop its picture's alt text and its caption (the gold has neither), and
    keep the paragraphs around it."""
    md = markdown(WCXB / "0009.anno")
    assert ("\n\n![This image shows the view of snow-capped mountains from the airplane.]"
            "(https://www.itsalltriptome.com/wp-content/uploads/how-to-book-a-flight-for-"
            "beginners-view-from-airplane-2.jpg)\n\n*Flying over snow-capped mountains feels like "
            "entering a dream*\n\n### Sustainability\n") in md
    # Text is what a reader reads: the caption, not the picture's alt text.
    plain = text(WCXB / "0009.anno")
    assert "\nFlying over snow-capped mountains feels like entering a dream\n" in plain
    assert "This image shows" not in plain


def test_a_kept_caption_brings_its_picture_and_nothing_else():
    page = read_page('<p>Before it.</p><figure><a href="/big.jpg"><img src="/a.jpg" alt=""></a>'
                     '<figcaption>The caption</figcaption><img src="/badge.svg"></figure>'
                     '<p>After it, <a href="/share"><img src="/s.gif" alt="Share this"></a> '
                     'and <img src="/c.png" alt="A chart of sales"> in the text.</p>',
                     load_config("general"))
    tree = kept(page, lambda i, b: b.text not in ("Share this", "A chart of sales"))
    assert output.markdown(tree) == (
        "Before it.\n\n![](/a.jpg)\n\n*The caption*\n\nAfter it, and ![A chart of sales](/c.png) "
        "in the text.\n")


def test_a_definition_list_is_terms_and_their_definitions():
    """MDN's page on promises (WCXB 2992) lists the static methods in a <dl>;
    Markdown wrote terms and definitions as paragraphs alike."""
    md = markdown(WCXB / "2992.anno")
    assert ("\n\n[`Promise.all()`](https://developer.mozilla.org/en-US/docs/Web/JavaScript/"
            "Reference/Global_Objects/Promise/all)\n: Fulfills when **all** of the promises "
            "fulfill; rejects when **any** of the promises rejects.\n\n") in md
    page = read_page("<dl><dt># Term</dt><dd>One <p>more</p></dd><dd>Two</dd></dl>"
                     "<p>After.</p>", load_config("general"))
    assert output.markdown(kept(page, lambda i, b: True)) == (
        "\\# Term\n: One more\n: Two\n\nAfter.\n")


def commonmark_words(md: str) -> Counter:
    """The words a browser shows of Markdown rendered as CommonMark with
    GitHub's tables and footnotes and Pandoc's definition lists."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.deflist import deflist_plugin
    from mdit_py_plugins.footnote import footnote_plugin

    parser = MarkdownIt("commonmark").enable("table").use(footnote_plugin).use(deflist_plugin)
    return shown_words(f"<!DOCTYPE html><html><body>{parser.render(md)}</body></html>")


@pytest.mark.parametrize("name", ["wcxb/0001", "wcxb/2863", "wcxb/0397", "wcxb/0018", "wcxb/4708",
                                  "wcxb/0379", "wcxb/2992", "wcxb/0009", "wcxb/2362",
                                  "wcxb/0415", "wcxb/4147", "cleaneval/8", "cleaneval/10",
                                  "dragnet/134"])
def test_markdown_read_back_says_the_words_of_the_text(name: str):
    """Victor's Markdown, read by a CommonMark parser, shows a reader the
    words of the text output: no syntax eats the page's text, no text is
    made of syntax. Each page as the shipped model cleans it."""
    path = next(p for p in (DATA / f"{name}.html", DATA / f"{name}.html.gz") if p.is_file())
    result = shipped_cleaner().clean(read_input(str(path)))
    md, plain = result.markdown(), result.text()
    assert len(words(plain)) > 30
    assert commonmark_words(md) == Counter(words(plain))
