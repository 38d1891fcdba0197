"""benchmarks.structure's integrity counts: what became of each of the
gold's prose lines in an output, whole, its final mark cut off, with a
hole or broken; and images' alt text. The outputs are made from the
pages' own text and their golds' lines, as cleaners cut them."""

from __future__ import annotations

from repo_data import WCXB

from benchmarks import structure
from benchmarks.structure import (BROKEN, FINAL_CUT, HOLE, WHOLE, Counts, fates, kept_in_order,
                                  markdown_text, prose_lines, stream, tokens)
from victor.batch.inputs import read_input
from victor.reading.parser import Element, parse

GOLD = (WCXB / "0001.txt").read_text(encoding="utf-8")
LINE = next(line for line in GOLD.split("\n") if line.startswith("At Scratch Culinary"))


def page_paragraph(page: str, start: str) -> str:
    """The text of the page's <p> that starts with `start`, as the page
    writes it (its typographic apostrophes and all)."""
    stack = [parse(read_input(str(WCXB / f"{page}.html.gz"))).root]
    while stack:
        el = stack.pop()
        if el.tag == "p":
            text = structure._text(el).strip()
            if text.startswith(start):
                return text
        stack.extend(c for c in el.children if isinstance(c, Element))
    raise AssertionError(f"no <p> starting {start!r} in {page}")


PARAGRAPH = page_paragraph("0001", "At Scratch Culinary")


def fate(line: str, output: str, markdown: bool = False) -> str | None:
    counted = fates([tokens(line)], markdown_text(output) if markdown else output)
    return next(iter(counted), None)


def test_the_golds_prose_lines_are_its_sentences_of_eight_words_or_more():
    lines = prose_lines(GOLD)
    assert tokens(LINE) in lines
    # Headings: a number first, or no final mark.
    assert tokens("1. High-Protein, Balanced Meals Are Here to Stay") not in lines
    assert tokens("Plant-Forward Eating Gets a Seasonal Twist") not in lines
    assert all(line[0].isalpha() and line[-1] in ".!?" for line in lines)


def test_the_pages_typographic_apostrophes_read_as_the_golds_plain_ones():
    assert "’" in PARAGRAPH and "'" in LINE
    assert tokens(PARAGRAPH) == tokens(LINE)


def test_a_paragraph_kept_with_its_emphasis_is_kept_whole():
    markdown = ("## Top Nutrition Trends for Fall 2025\n\n"
                + PARAGRAPH.replace("Scratch Culinary", "**Scratch Culinary**")
                .replace("healthy meal delivery", "[healthy meal delivery](/menu)")
                + "\n\n#### **1. High-Protein, Balanced Meals Are Here to Stay**\n")
    assert fate(LINE, markdown, markdown=True) == WHOLE
    assert fate(LINE, PARAGRAPH) == WHOLE


def test_a_full_stop_dropped_as_a_block_of_its_own_is_a_final_mark_cut():
    assert fate(LINE, PARAGRAPH[:-1] + "\n\n1. High-Protein, Balanced Meals") == FINAL_CUT
    assert fate(LINE, PARAGRAPH[:-1]) == FINAL_CUT


def test_a_name_cut_out_of_the_middle_leaves_a_hole():
    assert fate(LINE, PARAGRAPH.replace("Scratch Culinary", "")) == HOLE
    assert fate(LINE, PARAGRAPH.replace("healthy meal delivery ", "")) == HOLE


def test_a_footnote_mark_before_the_full_stop_breaks_the_line_without_cutting_it():
    assert fate(LINE, PARAGRAPH[:-1] + " [1].") == BROKEN


def test_a_line_mostly_lost_is_not_counted():
    first = PARAGRAPH[:PARAGRAPH.index("Our chef")]  # 21 of its 44 tokens
    assert fate(LINE, first) is None
    other = next(line for line in GOLD.split("\n") if line.startswith("Portion control"))
    assert fate(LINE, other) is None


def test_the_most_kept_in_order_is_counted_within_one_stretch():
    first = PARAGRAPH[:PARAGRAPH.index("Our chef")]
    rest = PARAGRAPH[len(first):]
    line = tokens(LINE)
    assert kept_in_order(line, stream(first)) == len(tokens(first))
    assert kept_in_order(line, stream(first + rest)) == len(line)
    # Both halves, far apart: one stretch is at most twice the line.
    between = GOLD[GOLD.index("1. High-Protein"):GOLD.index("4. Smarter")]
    assert len(tokens(between)) > 2 * len(line)
    far = first + "\n\n" + between + rest
    assert kept_in_order(line, stream(far)) < len(line)


def test_markdown_escapes_read_as_the_marks_they_stand_for():
    gold = (WCXB / "0383.txt").read_text(encoding="utf-8")
    line = next(line for line in gold.split("\n") if line.startswith("I want to learn"))
    assert tokens(line) in prose_lines(gold)
    escaped = line.replace("[", "\\[").replace("]", "\\]")
    assert fate(line, escaped, markdown=True) == WHOLE
    assert fate(line, line, markdown=True) == WHOLE  # a literal bracket is no link
    assert fate(line, escaped) == BROKEN  # in a text output the backslashes are text


def test_an_images_alt_text_the_gold_keeps_is_counted_kept_and_as_an_image():
    html = read_input(str(WCXB / "0652.html.gz"))
    gold = (WCXB / "0652.txt").read_text(encoding="utf-8")
    s = structure.structure(html, gold)
    assert "iphone 15 pro screen" in s.alts
    as_image, as_text = Counts(), Counts()
    as_image.add(s, gold + "\n\n![iPhone 15 Pro Screen](https://cart-products.cdn.ifixit.com/x)",
                 gold, True)
    as_text.add(s, gold, gold, False)
    assert as_image.alts == as_text.alts == [len(s.alts), len(s.alts)]
    assert as_image.alt_images[0] >= 1 and as_text.alt_images[0] == 0


def test_a_markdown_tables_rows_are_read_as_a_commonmark_renderer_reads_them():
    # 0424's reading list: cells of links whose text is in brackets
    # ("[[Kearns et al. '98]](…)"), which patterns read as no link.
    html = read_input(str(WCXB / "0424.html.gz"))
    gold = (WCXB / "0424.txt").read_text(encoding="utf-8")
    row = next(cells for cells in structure.structure(html, gold).rows
               if any("[kearns et al. '98]" in cell for cell in cells))
    from victor.cleaner import extract

    md = extract(html, output="markdown")
    read = markdown_text(md)
    assert all(cell in structure.fold(read) for cell in row)
    # and as a row: its cells on one line, each a cell of its own
    assert any(structure._as_row(line, row, True) for line in read.split("\n"))
    counts = Counts()
    counts.add(structure.structure(html, gold), md, gold, True)
    assert counts.rows_kept[0] >= counts.rows[0] > 0
