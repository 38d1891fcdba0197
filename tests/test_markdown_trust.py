"""Markdown a reader can trust (issue 48): the page's own characters stay
characters, line breaks stay line breaks, numbers are not doubled, and
the words are the text output's words.

Real pages from data/ are cleaned with the labels a person gave their
blocks (the .anno beside them), or with labels the test spells out, so
that each test says what the output makes of a given labelling, whatever
a model would have kept."""

from __future__ import annotations

import re

from repo_data import ROOT
from test_output_structure import WCXB, markdown, person_labelled, text

import victor
from victor import output
from victor.batch.inputs import read_input
from victor.config import load_config
from victor.output.characters import readable
from victor.reading.page import read_page

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
                  "snake_case and \\_under\\_, 5 * 3, a\\|b, \\<div> and \\~5 to \\~10.\n\n"
                  "\\# hash, and `` a*b_[c]|`d` `` in code.\n")


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
    assert markdown(WCXB / "4554.anno").startswith("### **Home Repair Assistance Program**\n")
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
