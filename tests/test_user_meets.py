"""What a new user met (issue 64): tables that keep their columns, nothing
the page hides kept, nothing it shows lost, Markdown that reads back as
the text.

Pages from data/ are cleaned with the labels a person gave their blocks
(the .anno beside them), or small pages inline with every block kept, so
that each test says what the output makes of a labelling, whatever a
model would have kept."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from test_output_structure import WCXB, person_labelled

from victor import Cleaner, output
from victor.batch.inputs import read_input
from victor.config import load_config
from victor.reading.page import read_page


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
    result = Cleaner().clean(read_input(str(WCXB / "0655.html.gz")))
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

