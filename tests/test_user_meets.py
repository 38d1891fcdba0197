"""What a new user met (issue 64): tables that keep their columns, nothing
the page hides kept, nothing it shows lost, Markdown that reads back as
the text.

Pages from data/ are cleaned with the labels a person gave their blocks
(the .anno beside them), or small pages inline with every block kept, so
that each test says what the output makes of a labelling, whatever a
model would have kept."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from markdown_it import MarkdownIt
from model_support import shipped_cleaner
from test_markdown_trust import commonmark_words
from test_output_structure import WCXB, person_labelled

from victor import output
from victor.batch.inputs import read_input
from victor.config import load_config
from victor.reading.page import read_page
from victor.reading.text import words


def all_kept(html: str) -> output.Element:
    """The kept tree of a page whose every block is kept."""
    page = read_page(html, load_config("general"))
    return output.kept_tree(page.body, page.blocks, ["p"] * len(page.blocks))


def markdown_rows(md: str) -> list[list[str]]:
    """A Markdown table's rows as CommonMark (with GitHub's tables) reads
    them: each cell's text, the empty ones included."""
    html = MarkdownIt("commonmark").enable("table").render(md)
    return [[re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)]


def html_rows(html: str) -> list[list[str]]:
    return [[re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)]


def text_rows(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.split("\n") if "\t" in line]


PRICES = ("<table><tr><th>Name</th><th>Best for</th><th>Price</th></tr>"
          "<tr><td>Mayflower</td><td></td><td>$9,000</td></tr>"
          "<tr><td>Sunfish</td><td>Lakes</td><td>$3,000</td></tr>"
          "<tr><td>Laser</td><td> </td><td>$5,000</td></tr>"
          "<tr><td>Hobie</td><td>Beach</td><td>$7,000</td></tr>"
          "<tr><td>Topper</td><td>Rivers</td><td>$4,000</td></tr></table>")


def test_an_empty_cell_keeps_its_column_in_every_format():
    tree = all_kept(PRICES)
    expected = [["Name", "Best for", "Price"], ["Mayflower", "", "$9,000"],
                ["Sunfish", "Lakes", "$3,000"], ["Laser", "", "$5,000"],
                ["Hobie", "Beach", "$7,000"], ["Topper", "Rivers", "$4,000"]]
    assert markdown_rows(output.markdown(tree)) == expected
    assert text_rows(output.text(tree)) == expected
    assert html_rows(output.clean_html(tree)) == expected


def test_colspan_and_rowspan_keep_the_columns_after_them():
    tree = all_kept("<table><tr><th>Boat</th><th>Water</th><th>Price</th></tr>"
                    "<tr><td colspan=2>Optimist, any water</td><td>$2,000</td></tr>"
                    "<tr><td rowspan=2>Hobie</td><td>Beach</td><td>$7,000</td></tr>"
                    "<tr><td>Surf</td><td>$7,500</td></tr>"
                    "<tr><td>Laser</td><td>Lakes</td><td>$5,000</td></tr></table>")
    grid = [["Boat", "Water", "Price"], ["Optimist, any water", "", "$2,000"],
            ["Hobie", "Beach", "$7,000"], ["", "Surf", "$7,500"], ["Laser", "Lakes", "$5,000"]]
    assert markdown_rows(output.markdown(tree)) == grid
    assert text_rows(output.text(tree)) == grid
    html = output.clean_html(tree)
    assert '<td colspan="2">Optimist, any water</td>' in html and '<td rowspan="2">Hobie' in html


def test_a_real_tables_empty_cell_keeps_the_price_under_its_head():
    """WCXB 0054: Mayflower's "Best for" cell is empty; its $9,000 stood
    under "Best for". The person's labels drop the table: here its blocks
    are the ones kept."""
    page = read_page(read_input(str(WCXB / "0054.html.gz")), load_config("general"))
    labels = ["p" if any(c.tag == "table" for c in b.containers) else "o" for b in page.blocks]
    tree = output.kept_tree(page.body, page.blocks, labels)
    for rows in (markdown_rows(output.markdown(tree)), text_rows(output.text(tree)),
                 html_rows(output.clean_html(tree))):
        head = next(r for r in rows if "Best for" in r)
        mayflower = next(r for r in rows if r[0].startswith("Mayflower"))
        assert mayflower[head.index("Best for")] == ""
        assert mayflower[head.index("Best for") + 1] == "$9,000"


def test_the_html_output_has_no_noscript_wrapper():
    """WCXB 0502, a Discourse forum, has its thread inside <noscript>: a
    browser with scripts on would show none of it."""
    page, labels, url = person_labelled(WCXB / "0502.anno")
    html = output.html_document(output.kept_tree(page.body, page.blocks, labels, url), page.title)
    assert "<noscript" not in html
    assert "Thanks, any help appreciated!" in html


def unseen_texts(html: str) -> list[str]:
    page = read_page(html, load_config("general"))
    return [page.blocks[i].text for i in page.unseen]


def test_a_class_the_pages_own_style_hides_is_not_read():
    html = ("<style>.menu-hidden { display: none }"
            " @media (max-width: 600px) { .wide { display:none } }"
            " .tab { display: none } .tab.open { display: block }</style>"
            "<p>Shown text of the page.</p><div class='menu-hidden x'>Hidden menu text</div>"
            "<div class='wide'>Text a narrow screen hides</div><div class='tab'>A tab's text</div>")
    assert unseen_texts(html) == ["Hidden menu text"]


def test_a_copy_for_screen_readers_and_a_widgets_json_are_not_read():
    html = ('<p>Price: <span class="a-offscreen">$34.42</span><span aria-hidden="true">$34.42'
            '</span></p><div class="state">{"painterId": "Grid", "asins": ["B0C", "B0D"], '
            '"count": 2}</div><pre>{"a": 1, "b": [1, 2], "c": "code shown as code"}</pre>')
    assert unseen_texts(html) == ["$34.42", '{"painterId": "Grid", "asins": ["B0C", "B0D"], '
                                            '"count": 2}']


def test_a_shops_grid_keeps_no_json_and_each_price_once():
    """WCXB 0655: a widget's state in a hidden <div> and every price twice
    (one for screen readers) made 80 KB of Markdown, with a confidence of
    0.85."""
    result = shipped_cleaner().clean(read_input(str(WCXB / "0655.html.gz")))
    md = result.markdown()
    assert "painterId" not in md and '{"' not in md
    # Each price once: not "EUR 60.24 EUR 60.24", nor "EUR 34.42 EUR 34 42".
    assert "EUR 60.24" in md
    assert not re.search(r"EUR ([\d,]+)\.(\d\d) EUR \1[ .]\2", md)
    assert result.confidence < 0.5


def test_pictures_with_alt_text_between_kept_paragraphs_are_kept():
    """WCXB 0360: "Example same outbound/one-way trip:" was followed by
    nothing, its <p> of two pictures with alt text dropped."""
    page, labels, url = person_labelled(WCXB / "0360.anno")
    md = output.markdown(output.kept_tree(page.body, page.blocks, labels, url))
    assert ("Example same outbound/one-way trip:\n\n"
            "![round trip](https://i.sstatic.net/gd7Fi.png) "
            "![one way](https://i.sstatic.net/gfeZ1.png)\n") in md


def test_a_picture_that_ends_a_kept_paragraph_stays_with_it():
    page = read_page("<p>Fares rose all year.</p><p>Here is the table: "
                     "<img src='t.png' alt='Fares by month'></p>", load_config("general"))
    labels = ["o" if b.text == "Fares by month" else "p" for b in page.blocks]
    md = output.markdown(output.kept_tree(page.body, page.blocks, labels))
    assert md == "Fares rose all year.\n\nHere is the table: ![Fares by month](t.png)\n"


def markdown_of(html: str) -> str:
    return output.markdown(all_kept(html))


def test_a_caption_of_emphasised_pieces_reads_as_one_italic_caption():
    """WCXB 0291's captions, `<em>` pieces around a link, became
    `**Improvado* [*ecommerce dashboard*](…)*`."""
    md = markdown_of('<figure><img src="d.png" alt="A dashboard"><figcaption><em>Improvado </em>'
                     '<a href="https://x.io/e"><em>ecommerce dashboard</em></a><em> </em>'
                     '</figcaption></figure>')
    assert md.endswith("\n*Improvado [ecommerce dashboard](https://x.io/e)*\n")


def test_a_heading_is_not_wrapped_in_bold():
    assert markdown_of("<h2><strong>Protein everything</strong></h2><p>Eggs.</p>") == (
        "## Protein everything\n\nEggs.\n")


def test_a_headings_number_in_a_box_of_its_own_stays_with_it():
    """WCXB 0212's questions are numbered by a `<span>1.</span>` before
    each `<h3>`: Markdown showed a lone `1\\.` line."""
    html = ('<div><span class="rank">1.</span><h3>What is the best service?</h3>'
            '<p>This one.</p></div><div><span class="rank">2.</span>'
            '<h3>What is the cheapest?</h3><p>That one.</p></div>')
    assert markdown_of(html) == ("### 1. What is the best service?\n\nThis one.\n\n"
                                 "### 2. What is the cheapest?\n\nThat one.\n")
    assert output.text(all_kept(html)).startswith("1. What is the best service?\n\nThis one.")


def test_no_block_ends_with_a_line_break():
    assert markdown_of("<p>Text<br><em></em></p><p>Next</p>") == "Text\n\nNext\n"
    assert markdown_of("<pre>make \\\n  all</pre>") == "```\nmake \\\n  all\n```\n"


@pytest.mark.parametrize("name", ["0291", "0212"])
def test_markdown_reads_back_as_the_texts_words_with_no_mark_left(name: str):
    result = shipped_cleaner().clean(read_input(str(WCXB / f"{name}.html.gz")))
    md, plain = result.markdown(), result.text()
    assert commonmark_words(md) == Counter(words(plain))
    shown = re.sub(r"<[^>]+>", "", MarkdownIt("commonmark").enable("table").render(md))
    for mark in "*_\\":  # none left over: as many as the text has
        assert shown.count(mark) == plain.count(mark), mark
