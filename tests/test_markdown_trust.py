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
from test_output_structure import WCXB, markdown

import victor
from victor import output
from victor.batch.inputs import read_input
from victor.config import load_config
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
