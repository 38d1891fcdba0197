"""Stage 6b: the kept tree (victor/output/tree.py) written out.

`clean_html` serialises it as clean HTML5. Markdown and text are that HTML
converted by html-to-markdown, a maintained converter with a compiled core
that knows GitHub tables with spans, fenced code with its language, nested
and numbered lists, links and images, and lays out inline and block
elements as a browser does (no space where the page has none). What it
cannot know, the kept tree has already settled: which text the labels
kept, which boxes are headings by their labels, which tables only lay the
page out, where links point. CleanEval's segments are read off the tree
directly, because their kinds (`<h>`, `<l>`, `<p>`) come from the boxes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from victor.reading.layout import BLOCK_LEVEL, HEADINGS
from victor.output.tree import Rendering
from victor.reading.text import collapse
from victor.reading.tidy import FORMULA, Element

# What clean HTML leaves out as a wrapper of no meaning, keeping its text.
_UNWRAPPED = frozenset({"span", "font", "label", "nobr", "ins", "body"})
_TAG = re.compile(r"^[a-z][a-z0-9]*$")
_VOID = frozenset({"br", "img", "hr", "wbr"})
_SPACES = re.compile(r"\s+")
_TABLE = frozenset("table thead tbody tfoot tr td th caption".split())
# Boxes that a list item's text runs through on one line.
_FLATTENED_IN_ITEM = frozenset(
    "div p section article header footer aside figure figcaption h1 h2 h3 h4 h5 h6 address "
    "center hgroup main nav details summary dd dt dl".split())


def clean_html(tree: Element, options: Rendering = Rendering(), for_markdown: bool = False) -> str:
    """The body's content as HTML. `for_markdown` writes formulas as TeX
    text (`$...$`, `$$...$$` on a line of their own) for the converter,
    where HTML keeps the page's MathML or gives MathJax's `\\(...\\)`.

    Outside <pre> a run of whitespace is one space, and none starts a line,
    as a browser shows it: the converters then see no line break and no
    indent the page does not show."""
    out: list[str] = []
    line_start = True
    # Items: (node, inside <pre>, inside a list item) to write, or a
    # closing tag (a str).
    stack: list[object] = [(tree, False, False)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            line_start = line_start or item[2:-1] in BLOCK_LEVEL
            continue
        el, pre, in_item = item
        if isinstance(el, str):
            if not pre:
                el = _SPACES.sub(" ", el)
                if line_start:
                    el = el.lstrip(" ")
                if not el:
                    continue
            out.append(escape(el, quote=False))
            line_start = False
            continue
        tag = el.tag
        if tag == FORMULA:
            out.append(_formula(el, for_markdown))
            line_start = bool(el.attrs.get("display"))
            continue
        if tag == "br":
            out.append("\n" if pre else "<br>")
            line_start = not pre
            continue
        if tag == "img":
            if options.images:
                out.append("<img" + _attributes(el.attrs) + ">")
                line_start = False
            elif el.attrs.get("alt"):  # the text a reader sees where no image is
                out.append(escape(el.attrs["alt"], quote=False))
                line_start = False
            continue
        if not options.tables and tag in _TABLE:
            if tag in ("td", "th"):
                stack.append(" ")  # after the cell: cells stay apart on their row's line
            tag = "div" if tag in ("table", "tr", "caption") else "span"
        unwrap = (tag in _UNWRAPPED or not _TAG.match(tag) or tag in _VOID
                  or tag == "a" and (not options.links or "href" not in el.attrs))
        if for_markdown and in_item and tag in _FLATTENED_IN_ITEM:
            # A list item stays one line: its boxes (a card's title and
            # text) are set apart by a space, as layout_lines does.
            out.append(" ")
            stack.append(" ")
            unwrap = True
        if not unwrap:
            attrs = _attributes(el.attrs) if tag == el.tag else ""
            if tag in BLOCK_LEVEL:
                out.append(f"\n<{tag}{attrs}>")
                line_start = True
            else:
                out.append(f"<{tag}{attrs}>")
            stack.append(f"</{tag}>")
        inner = pre or tag == "pre"
        item_inside = tag == "li" or in_item and tag not in ("ul", "ol")
        stack.extend((c, inner, item_inside) for c in reversed(el.children))
    return "".join(out)


def _attributes(attrs: dict[str, str]) -> str:
    return "".join(f' {k}="{escape(v)}"' for k, v in attrs.items() if k not in ("tex", "text"))


def _formula(el: Element, for_markdown: bool) -> str:
    tex, text, display = el.attrs.get("tex", ""), el.attrs.get("text", ""), el.attrs.get("display")
    if for_markdown:
        body = escape(f"$${tex}$$" if display else f"${tex}$", quote=False) if tex else escape(text)
        return f"<div>{body}</div>" if display else body
    math = next((c for c in el.children if isinstance(c, Element) and c.tag == "math"), None)
    if math is not None:
        return _serialise(math)
    opened, closed = ("\\[", "\\]") if display else ("\\(", "\\)")
    return f'<span class="math">{escape(opened + tex + closed, quote=False)}</span>'


def _serialise(el: Element) -> str:
    """An element as the page had it (the MathML of a formula)."""
    out: list[str] = []
    stack: list[object] = [el]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, tuple):
            out.append(escape(item[0], quote=False))
        else:
            out.append(f"<{item.tag}{_attributes(item.attrs)}>")
            stack.append(f"</{item.tag}>")
            stack.extend((c,) if isinstance(c, str) else c for c in reversed(item.children))
    return "".join(out)


def html_document(tree: Element, title: str, lang: str = "",
                  options: Rendering = Rendering()) -> str:
    """`--format html`: the main content as a page of its own."""
    lang_attr = f' lang="{escape(lang)}"' if lang else ""
    return ("<!DOCTYPE html>\n"
            f"<html{lang_attr}><head><meta charset=\"utf-8\"><title>{escape(title)}</title></head>\n"
            f"<body>\n{clean_html(tree, options)}\n</body></html>\n")


def markdown(tree: Element, options: Rendering = Rendering()) -> str:
    return _convert(clean_html(tree, options, for_markdown=True))


@lru_cache(maxsize=1)
def _options():
    """The converter's settings: no preprocessing of its own (it would drop
    navigation and forms the labels kept), no escapes but at line starts,
    one bullet at every level, sup and sub kept as HTML, images kept inside
    links and boxes."""
    from html_to_markdown import ConversionOptions, PreprocessingOptions

    return ConversionOptions(output_format="markdown", extract_metadata=False,
                             heading_style="atx", bullets="-", strong_em_symbol="*",
                             code_block_style="backticks", escape_asterisks=False,
                             escape_underscores=False, escape_misc=False, autolinks=False,
                             wrap=False, hidden_content="all", whitespace_mode="normalized",
                             newline_style="backslash", preserve_tags=["sup", "sub"],
                             keep_inline_images_in=["a", "p", "div", "span", "li", "td", "th",
                                                    "figure"],
                             preprocessing=PreprocessingOptions(enabled=False))


_BLANK_LINES = re.compile(r"\n{3,}")
_TRAILING = re.compile(r"[ \t]+$", re.MULTILINE)


def _convert(html: str) -> str:
    from html_to_markdown import convert

    out = convert(html, _options()).content or ""
    out = _BLANK_LINES.sub("\n\n", _TRAILING.sub("", out)).strip("\n")
    return out + "\n" if out.strip() else ""


@dataclass(slots=True)
class Line:
    """A line of the page as laid out: a paragraph, heading, list item,
    table row (cells separated by tabs) or code block (its lines kept)."""

    kind: str  # h in a heading, l in a list item, p for the rest
    text: str
    tight: bool = False  # follows the line before with no blank line between
    shape: str = ""  # "row" for a table row, "code" for a code block


def layout_lines(tree: Element) -> list[Line]:
    """The lines of the kept tree, read off it in one walk: the text and
    CleanEval formats need no converter, only where lines break."""
    lines: list[Line] = []
    parts: list[str] = []
    kinds: list[str] = ["p"]  # the kind of the innermost box open
    pre = row = depth = 0  # how many <pre>, table rows and list items are open
    cells: list[str] = []
    items_outside: list[int] = []  # the item depth around each open list
    tight = False  # whether the next line follows the last without a gap

    def flush() -> None:
        nonlocal tight
        line = collapse("".join(parts))
        parts.clear()
        if line:
            kind = kinds[-1]
            lines.append(Line(kind, line, tight or kind == "l" and bool(lines)
                              and lines[-1].kind == "l"))
            tight = False

    stack: list[object] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        if isinstance(item, tuple):  # the end of an element
            tag = item[0]
            if tag == "pre":
                pre -= 1
                code = "".join(parts).strip("\n").rstrip()
                parts.clear()
                if code.strip():
                    lines.append(Line(kinds[-1], code, shape="code"))
            elif tag in ("td", "th") and row:
                cells.append(collapse("".join(parts)))
                parts.clear()
            elif tag == "tr":
                row -= 1
                text = "\t".join(cells).strip()
                cells.clear()
                if text:
                    lines.append(Line(kinds[-1], text, bool(lines) and lines[-1].shape == "row",
                                      "row"))
            elif tag in ("li", "ul", "ol"):
                depth = depth - 1 if tag == "li" else items_outside.pop()
                if not row:
                    flush()
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
        if tag == "img":
            parts.append(item.attrs.get("alt", ""))
            continue
        if tag in BLOCK_LEVEL:
            if tag == "pre":
                if not row:
                    flush()
                pre += 1
            elif tag == "tr":
                flush()
                row += 1
            elif tag in ("li", "ul", "ol"):
                if not row:
                    flush()
                if tag == "li":
                    depth += 1
                else:
                    items_outside.append(depth)
                    depth = 0
            elif row or depth and tag in _FLATTENED_IN_ITEM:
                parts.append(" ")
            else:
                flush()
            kinds.append("h" if tag in HEADINGS else "l" if tag in ("li", "dt") else kinds[-1])
            stack.append((tag,))
        stack.extend(reversed(item.children))
    flush()
    return lines


def text(tree: Element) -> str:
    """Plain text: paragraphs apart, code with its lines, a table row a
    line with its cells separated by tabs, a list item a line of its own
    after a `- `."""
    out: list[str] = []
    for line in layout_lines(tree):
        if out:
            out.append("\n" if line.tight else "\n\n")
        out.append(("- " + line.text) if line.kind == "l" and not line.shape else line.text)
    return "".join(out) + "\n" if out else ""


def cleaneval_segments(tree: Element) -> list[tuple[str, str]]:
    """(kind, text) a CleanEval segment: a line of the page as laid out,
    a code block a segment a line."""
    return [(line.kind, part) for line in layout_lines(tree)
            for part in (line.text.split("\n") if "\n" in line.text else (line.text,))
            if part.strip()]
