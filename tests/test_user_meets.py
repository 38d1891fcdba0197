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

from victor import output
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

