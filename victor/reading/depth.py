"""A limit on how deep elements nest, which keeps parsing linear and the
blocks' container paths short whatever a crawl delivers; and the one
tokenising of raw markup that the limit and the recovery of swallowed
elements share."""

from __future__ import annotations

import re

from victor.compiled import twin

# Elements nested deeper than this are kept, but as empty siblings at this
# depth, as Blink's parser does at 512. The deepest page of the training
# data nests 38 elements; a broken page (a template that never closes its
# div, repeated per post) can nest hundreds of thousands, and then HTML5
# tree construction, which searches the stack of open elements at every
# tag, takes time quadratic in the depth, and every block's container path
# as long as the depth takes memory quadratic in it.
MAX_DEPTH = 256

# Tags that never deepen the nesting: void elements, and elements the
# parser closes by itself (their depth is bounded by their parents').
_FLAT = frozenset(
    "area base br col embed hr img input keygen link meta param source track wbr "
    "html head body p li dt dd tr td th thead tbody tfoot caption colgroup option optgroup "
    "rb rt rp rtc".split())
# Elements whose content is text up to their closing tag.
RAW_TEXT = "script|style|textarea|title|xmp|iframe|noembed|noframes|noscript"
# What may follow a closing tag's name for HTML5 to read the name whole.
NAME_ENDS = frozenset(" \t\n\r\f/>")
# One token a match, so that the scanning runs in the regex engine and Python
# sees only the tags: a comment (to -->, or to the end of the page); a
# raw-text element's start tag with its text, up to its own closing tag
# (then read as a tag; `</titlevalue` is none, as in HTML5) or the end of
# the page; or any other tag, which runs to the next >, whatever is in
# between.
TOKEN = re.compile(
    r"<!--[^-]*(?:-(?!->)[^-]*)*(?:-->)?"
    rf"|<(?P<raw>{RAW_TEXT})(?=[\s/>])[^>]*>[^<]*(?:<(?!/(?P=raw)[\s/>])[^<]*)*"
    r"|<(?P<close>/?)(?P<name>[a-zA-Z][^\s/>]*)(?P<attrs>[^>]*)>", re.I)


def limit_depth(text: str, max_depth: int = MAX_DEPTH) -> str:
    """The markup with every element that would open deeper than `max_depth`
    closed straight away (`<div>` becomes `<div></div>`) and its own closing
    tag removed: its text moves up to the deepest allowed element, and the
    tag still separates blocks. Nesting is counted from the tags alone, in
    linear time before any parser runs; pages within the limit, every page
    of the training data among them, come back unchanged."""
    edits = cuts(text, max_depth)
    if not edits:
        return text
    parts, at = [], 0
    for i, m in enumerate(TOKEN.finditer(text)):
        if i in edits:
            parts.append(text[at:m.start()])
            parts.append(m.group() + edits[i] if edits[i] else "")
            at = m.end()
    parts.append(text[at:])
    return "".join(parts)


def cuts(text: str, max_depth: int = MAX_DEPTH) -> dict[int, str]:
    """What limit_depth changes, by the number of the TOKEN it follows: the
    closing tag to put after a start tag that opens too deep, or "" for a
    closing tag to drop. Empty for nearly every page."""
    stack: list[tuple[str, bool]] = []  # open elements: name, cut off
    open_count: dict[str, int] = {}
    edits: dict[int, str] = {}
    for i, (_, close, name, attrs) in enumerate(TOKEN.findall(text)):
        if not name:  # a comment or raw text
            continue
        name = name.lower()
        if name in _FLAT:
            continue
        if close:  # a closing tag closes everything opened since its element
            if open_count.get(name):
                while True:
                    top, cut = stack.pop()
                    open_count[top] -= 1
                    if top == name:
                        break
                if cut:
                    edits[i] = ""
            continue
        if attrs.endswith("/"):  # self-closing (foreign content: svg, math)
            continue
        cut = len(stack) >= max_depth
        stack.append((name, cut))
        open_count[name] = open_count.get(name, 0) + 1
        if cut:
            edits[i] = f"</{name}>"
    return edits


# The tags found by a scan in C (victor/compiled/_depth.pyx) where it was
# built; the regex above stays the reference and the fallback.
cuts_py = cuts
cuts = twin(cuts_py, "_depth")
