"""What the markup says of a page's layout, which the decoding and the
output read alike: which elements start a line of their own, and which
tables hold data rather than lay the page out."""

from __future__ import annotations

from victor.reading.parser import Element

# Elements that start a line of their own (the CSS defaults of HTML's
# rendering section); what is not among them flows inline.
BLOCK_LEVEL = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr legend li "
    "listing main menu nav ol p plaintext pre section summary table tbody td tfoot th thead "
    "tr ul xmp".split())
HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())


def line_box(containers: tuple[Element, ...]) -> Element | None:
    """The innermost of a block's containers that starts a line of its own:
    the paragraph, item or cell its text flows in (None: <body> itself)."""
    return next((c for c in reversed(containers) if c.tag in BLOCK_LEVEL), None)


def is_data_table(table: Element) -> bool:
    """Whether a table holds data rather than laying out the page: a table
    inside it, a single column, a form or code in its cells, or cells of
    prose (over 30 words each on average) give a layout table away; header
    cells or a caption say it holds data."""
    if table.attrs.get("role", "").lower() in ("presentation", "none"):
        return False
    rows = widest = cells = words = 0
    header = table.attrs.get("summary", "") != ""
    stack: list = [c for c in table.children if isinstance(c, Element)]
    while stack:
        e = stack.pop()
        if isinstance(e, str):
            words += len(e.split())
            continue
        tag = e.tag
        if tag in _LAYOUT_ONLY:
            return False
        if tag in ("caption", "thead", "th"):
            header = True
        if tag == "tr":
            rows += 1
            width = sum(1 for c in e.children if isinstance(c, Element) and c.tag in ("td", "th"))
            widest = max(widest, width)
            cells += width
        stack.extend(e.children)
    if widest < 2 or words > 30 * cells:
        return False
    return rows >= 1 if header else rows >= 2


_LAYOUT_ONLY = frozenset({"table", "form", "pre", "textarea", "frameset", "iframe"})
