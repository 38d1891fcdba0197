"""What the markup says of a page's layout, which the decoding and the
output read alike: which elements start a line of their own, and which
tables hold data rather than lay the page out."""

from __future__ import annotations

from victor.tidy import Element

# Elements that start a line of their own (the CSS defaults of HTML's
# rendering section); what is not among them flows inline.
BLOCK_LEVEL = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr legend li "
    "listing main menu nav ol p plaintext pre section summary table tbody td tfoot th thead "
    "tr ul xmp".split())
HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())


def is_data_table(table: Element) -> bool:
    """Whether a table holds data rather than laying out the page: it says
    so by its header cells or caption, and a layout table gives itself away
    by a table inside it, boxes of prose in its cells, or a single row or
    column."""
    if table.attrs.get("role", "").lower() in ("presentation", "none"):
        return False
    rows = widest = 0
    header = table.attrs.get("summary", "") != ""
    prose = False
    stack = [c for c in table.children if isinstance(c, Element)]
    while stack:
        e = stack.pop()
        tag = e.tag
        if tag == "table":
            return False
        if tag in ("caption", "thead", "th"):
            header = True
        elif tag == "tr":
            rows += 1
            widest = max(widest, sum(1 for c in e.children
                                     if isinstance(c, Element) and c.tag in ("td", "th")))
        elif tag in _PROSE:
            prose = True
        stack.extend(c for c in e.children if isinstance(c, Element))
    if widest < 2:
        return False
    # A data table's cell may wrap its text in a paragraph or a list: prose
    # counts against a table only where no header says what it holds.
    return rows >= 1 if header else rows >= 2 and not prose


_PROSE = frozenset("p ul ol h1 h2 h3 h4 h5 h6 blockquote form pre dl".split())
