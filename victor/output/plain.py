"""The text and CleanEval formats, read off the kept tree by one walk:
paragraphs apart, code with its lines, a table row a line with its cells
separated by tabs, a list item a line."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from victor.output.render import FLATTENED_IN_ITEM
from victor.output.structures import item_numbers
from victor.reading.layout import BLOCK_LEVEL, HEADINGS
from victor.reading.text import collapse
from victor.reading.parser import FORMULA, Element


@dataclass(slots=True)
class Line:
    """A line of the page as laid out: a paragraph, heading, list item,
    table row (cells separated by tabs) or code block (its lines kept)."""

    kind: str  # h in a heading, l in a list item, p for the rest
    text: str
    tight: bool = False  # follows the line before with no blank line between
    shape: str = ""  # "row" for a table row, "code" for a code block
    number: int | None = None  # an ordered list's item: its number


def layout_lines(tree: Element) -> list[Line]:
    """The lines of the kept tree, read off it in one walk: the text and
    CleanEval formats need no converter, only where lines break."""
    lines: list[Line] = []
    parts: list[str] = []
    kinds: list[str] = ["p"]  # the kind of the innermost box open
    pre = row = depth = 0  # how many <pre>, table rows and list items are open
    cells: list[str] = []
    # Each open table's columns that a cell above fills with its rowspan:
    # column -> how many rows after the current one it still fills.
    spans: list[dict[int, int]] = []
    tables: list[int] = []  # where each open table's lines begin
    items_outside: list[int] = []  # the item depth around each open list
    tight = False  # whether the next line follows the last without a gap
    # Each open list's next number (None for a list without numbers), and
    # the number of the item whose first line is still to come.
    numbers: list[Iterator[int] | None] = []
    number: int | None = None

    def flush() -> None:
        nonlocal tight, number
        if not parts:  # every box's edge flushes; most have nothing to
            return
        line = collapse("".join(parts))
        parts.clear()
        if line:
            kind = kinds[-1]
            lines.append(Line(kind, line, tight or kind == "l" and bool(lines)
                              and lines[-1].kind == "l", number=number if kind == "l" else None))
            tight = False
            number = None

    stack: list[object] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        if isinstance(item, tuple):  # the end of an element
            tag = item[0]
            if tag == "table":
                spans.pop()
                _drop_empty_columns(lines, tables.pop())
            if tag == "pre":
                pre -= 1
                code = "".join(parts).strip("\n").rstrip()
                parts.clear()
                if code.strip():
                    lines.append(Line(kinds[-1], code, shape="code"))
            elif tag in ("td", "th") and row:
                _add_cell(cells, collapse("".join(parts)), item[1], spans[-1] if spans else {})
                parts.clear()
            elif tag == "tr":
                row -= 1
                text = "\t".join(cells).rstrip()
                if not tables:  # a row outside any table: no table's end will settle it
                    text = text.replace(_SPANNED, "")
                cells.clear()
                if text.strip():
                    lines.append(Line(kinds[-1], text, bool(lines) and lines[-1].shape == "row",
                                      "row"))
            elif tag in ("li", "ul", "ol"):
                depth = depth - 1 if tag == "li" else items_outside.pop()
                if not row:
                    flush()
                if tag != "li":
                    numbers.pop()
            elif tag in BLOCK_LEVEL and not row:
                if depth:
                    parts.append(" ")
                else:
                    flush()
            if tag in BLOCK_LEVEL:
                kinds.pop()
            continue
        tag = item.tag
        if tag == FORMULA:
            tex = item.attrs.get("tex", "")
            parts.append(f"${tex}$" if tex else item.attrs.get("text", ""))
            continue
        if tag == "br":
            if pre:
                parts.append("\n")
            elif not row:
                flush()
                tight = True
            else:
                parts.append(" ")
            continue
        if tag == "img":  # a picture is no text a reader reads (Markdown and html show it)
            continue
        if tag == "sup" and "note" in item.attrs:  # a footnote's mark (structures.settle)
            parts.append("[" + "".join(c for c in item.children if isinstance(c, str)) + "]")
            continue
        if tag in BLOCK_LEVEL:
            if tag == "table":
                spans.append({})
                tables.append(len(lines))
            if tag == "pre":
                if not row:
                    flush()
                pre += 1
            elif tag == "tr":
                flush()
                row += 1
                if spans:
                    _next_row(spans[-1])
            elif tag in ("li", "ul", "ol"):
                if not row:
                    flush()
                if tag == "li":
                    depth += 1
                    if numbers and numbers[-1] is not None:
                        number = next(numbers[-1], None)
                else:
                    items_outside.append(depth)
                    depth = 0
                    numbers.append(iter(item_numbers(item)) if tag == "ol" else None)
            elif row or depth and tag in FLATTENED_IN_ITEM:
                parts.append(" ")
            else:
                flush()
            kinds.append("h" if tag in HEADINGS else "l" if tag in ("li", "dt") else kinds[-1])
            stack.append((tag, item.attrs))
        stack.extend(reversed(item.children))
    flush()
    return lines


def _drop_empty_columns(lines: list[Line], start: int) -> None:
    """A table's columns that hold nothing in any row (a column of bullet
    pictures, of buttons the labels dropped) go from its rows, left to
    right; a cell that spans such a column and the next keeps its text in
    the next. No value moves under another head."""
    rows = [line for line in lines[start:] if line.shape == "row"]
    grid = [line.text.split("\t") for line in rows]
    k = 0
    while k < max((len(cells) for cells in grid), default=0):
        if all(k >= len(cells) or cells[k] in ("", _SPANNED)
               or k + 1 < len(cells) and cells[k + 1] == _SPANNED for cells in grid):
            for cells in grid:
                if k + 1 < len(cells) and cells[k + 1] == _SPANNED:
                    cells[k + 1] = cells[k]
                del cells[k:k + 1]
        else:
            k += 1
    for line, cells in zip(rows, grid):
        line.text = "\t".join(cells).replace(_SPANNED, "").rstrip()


# A column a cell's colspan takes beside its own, until the table's end.
_SPANNED = "\ufdd1"


def _next_row(spans: dict[int, int]) -> None:
    """A new row: the columns a cell above still spans are this row's."""
    for column in list(spans):
        spans[column] -= 1
        if spans[column] < 0:
            del spans[column]


def _add_cell(cells: list[str], text: str, attrs: dict[str, str], spans: dict[int, int]) -> None:
    """A row's next cell, in the column it stands in as a browser draws
    the table: after the columns a cell above fills (rowspan), and taking
    as many columns as its colspan, so that every value stays under its
    head."""
    while len(cells) in spans:
        cells.append("")
    width, height = _span(attrs.get("colspan")), _span(attrs.get("rowspan"))
    for k in range(width):
        if height > 1:
            spans[len(cells)] = height - 1
        cells.append(text if k == 0 else _SPANNED)


def _span(value: str | None) -> int:
    """A colspan's or rowspan's number of columns or rows, as browsers
    read it (a bad or missing one is 1; HTML caps them)."""
    try:
        return min(max(int(value), 1), 1000) if value else 1
    except ValueError:
        return 1


def paragraphs(tree: Element) -> list[str]:
    """The text format's paragraphs, for pipelines that judge a page
    paragraph by paragraph (NeMo Curator's extractors return such a list):
    what the text puts a blank line between. Lines that follow one another
    with no gap (a list's items, a table's rows, lines broken by `<br>`)
    stay one paragraph, joined by line breaks, as a reader sees them."""
    out: list[list[str]] = []
    for line in layout_lines(tree):
        shown = line.text
        if line.kind == "l" and not line.shape:
            shown = (f"{line.number}. " if line.number is not None else "- ") + shown
        if out and line.tight:
            out[-1].append(shown)
        else:
            out.append([shown])
    return ["\n".join(lines) for lines in out]


def text(tree: Element) -> str:
    """Plain text: paragraphs apart, code with its lines, a table row a
    line with its cells separated by tabs, a list item a line of its own
    after a `- `, or after its number in an ordered list ("1. "), as a
    browser shows it."""
    found = paragraphs(tree)
    return "\n\n".join(found) + "\n" if found else ""


def cleaneval_segments(tree: Element) -> list[tuple[str, str]]:
    """(kind, text) a CleanEval segment: a line of the page as laid out,
    a code block a segment a line."""
    return [(line.kind, part) for line in layout_lines(tree)
            for part in (line.text.split("\n") if "\n" in line.text else (line.text,))
            if part.strip()]


def cleaneval(url: str, segs: list[tuple[str, str]]) -> str:
    """The CleanEval shared task's format: a `URL:` line, then one segment a
    line with its `<p>`, `<h>` or `<l>` marker."""
    lines = [f"URL: {url}"]
    lines.extend(f"<{kind}>{line}" for kind, line in segs)
    return "\n".join(lines) + "\n"
