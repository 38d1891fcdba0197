"""Stage 6b: the kept tree (victor/output/tree.py) written out.

`clean_html` serialises it as clean HTML5. Markdown is that HTML converted
(converter.py) by html-to-markdown, a maintained converter with a compiled core
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
from html import escape
from itertools import repeat

from victor.compiled import twin
from victor.output.characters import readable
from victor.output.structures import item_numbers
from victor.output.tree import Rendering
from victor.reading.layout import BLOCK_LEVEL
from victor.reading.parser import FORMULA, Element, Node

# What clean HTML leaves out as a wrapper of no meaning, keeping its text.
_UNWRAPPED = frozenset({"span", "font", "label", "nobr", "ins", "body"})
_TAG = re.compile(r"^[a-z][a-z0-9]*$")
_VOID = frozenset({"br", "img", "hr", "wbr"})
_SPACES = re.compile(r"\s+")
_TABLE = frozenset("table thead tbody tfoot tr td th caption".split())
# Boxes that a list item's text runs through on one line.
FLATTENED_IN_ITEM = frozenset(
    "div p section article header footer aside figure figcaption h1 h2 h3 h4 h5 h6 address "
    "center hgroup main nav details summary dd dt dl".split())


def clean_html(tree: Element, options: Rendering = Rendering(), for_markdown: bool = False) -> str:
    """The body's content as HTML. `for_markdown` writes formulas as TeX
    text (`$...$`, `$$...$$` on a line of their own) for the converter,
    where HTML keeps the page's MathML or gives MathJax's `\\(...\\)`, and
    marks the page's own characters that Markdown would read as syntax
    (`_escape`).

    Outside <pre> a run of whitespace is one space, and none starts a line,
    as a browser shows it: the converters then see no line break and no
    indent the page does not show. A run of <br> is one line break, and
    none starts or ends a box: in Markdown each would be a line of a lone
    `\\` (WCXB 0397 had 276 of them), and a browser shows no empty line
    for a break at a box's edge."""
    out: list[str] = []
    line_start = True
    # Items: (node, where it stands: _PRE, _ITEM, ... bits) to write, or a
    # closing tag (a str). Children go on by zip and repeat, which make
    # the pairs without running Python for each.
    stack: list[object] = [(tree, 0)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item[:2] == "</" and out and out[-1] == "<br>":
                if item[2:-1] in BLOCK_LEVEL:
                    out.pop()  # a break at the end of a box
                else:  # after the inline element's end, where a box may end too
                    out[-1] = item
                    out.append("<br>")
                    continue
            out.append(item)
            line_start = line_start or item[2:-1] in BLOCK_LEVEL
            continue
        el, where = item
        pre = where & _PRE
        if isinstance(el, str):
            if not pre:
                if not el.isprintable() or "  " in el:  # else no space but lone ASCII ones
                    el = _SPACES.sub(" ", el)
                if line_start:
                    el = el.lstrip(" ")
                if not el:
                    continue
            out.append(escape(_escape(el, where) if for_markdown and not where & _LITERAL else el,
                              quote=False))
            line_start = False
            continue
        tag = el.tag
        if tag == FORMULA:
            out.append(_formula(el, for_markdown))
            line_start = bool(el.attrs.get("display"))
            continue
        if tag == "br":
            if pre:
                out.append("\n")
            elif not line_start:
                out.append("<br>")
                line_start = True
            continue
        if "note" in el.attrs:  # a footnote's mark or note (structures.settle)
            if tag == "sup":
                out.append(_note_mark(el, where, for_markdown))
                line_start = False
                continue
            if for_markdown:  # a list item: `[^1]: ...`, its boxes on its line
                out.append(_note_opening(el))
                stack.append("</p>")
                line_start = False
                stack.extend(zip(reversed(el.children), repeat(where | _ITEM)))
                continue
        if for_markdown and tag in ("ol", "ul") and el.children and _notes_only(el.children):
            stack.extend(zip(reversed(el.children), repeat(where)))  # a list of notes
            continue
        if for_markdown and tag == "ol" and (parts := _numbered_runs(el)):
            stack.extend(zip(reversed(parts), repeat(where)))
            continue
        if for_markdown and not where & _ITEM and tag in ("dl", "dt", "dd"):
            # A definition list: each term a line, each definition a line
            # after `: ` (Pandoc's and PHP Markdown Extra's syntax), its
            # boxes on that line; `_definitions` sets them under the term.
            if tag != "dl":
                out.append(_definition_opening(tag))
                stack.extend(("</p>", TERM) if tag == "dt" else ("</p>",))
                line_start = tag == "dt"
                where |= _ITEM
            stack.extend(zip(reversed(el.children), repeat(where)))
            continue
        if tag == "img":
            if picture := _picture(el, options.images, where, for_markdown):
                out.append(picture)
                line_start = False
            continue
        if not options.tables and tag in _TABLE:
            if tag in ("td", "th"):
                stack.append(" ")  # after the cell: cells stay apart on their row's line
            tag = "div" if tag in ("table", "tr", "caption") else "span"
        unwrap = (tag in _UNWRAPPED or not _TAG.match(tag) or tag in _VOID
                  or tag == "a" and (not options.links or "href" not in el.attrs)
                  # The converter sets a caption in italics and a heading
                  # stands out by itself: marks of their own inside would
                  # nest ("**Improvado* [*dashboard*](...)*", "## **Title**").
                  or for_markdown and (where & _CAPTION and tag in _ITALIC
                                       or where & _HEADING and tag in _BOLD))
        if for_markdown and where & _ITEM and tag in FLATTENED_IN_ITEM:
            # A list item stays one line: its boxes (a card's title and
            # text) are set apart by a space, as layout_lines does.
            out.append(" ")
            stack.append(" ")
            unwrap = True
        if not unwrap:
            attrs = _attributes(el.attrs) if el.attrs and tag == el.tag else ""
            if tag in BLOCK_LEVEL:
                if out and out[-1] == "<br>":
                    out.pop()  # a break before a box
                out.append(f"\n<{tag}{attrs}>")
                line_start = True
            else:
                out.append(f"<{tag}{attrs}>")
            stack.append(f"</{tag}>")
            where |= _INSIDE.get(tag, 0)
        if tag == "li":
            where |= _ITEM
        elif tag in ("ul", "ol"):
            where &= ~_ITEM
        stack.extend(zip(reversed(el.children), repeat(where)))
    return "".join(out)


# Where a node stands, as bits: in a <pre>, in a list item, in text that
# Markdown shows as code, in a link's text, in a table's cell, in a
# figure's caption, in a heading.
_PRE, _ITEM, _CODE, _LINK, _CELL, _CAPTION, _HEADING = 1, 2, 4, 8, 16, 32, 64
_LITERAL = _PRE | _CODE
_INSIDE = {"pre": _PRE, "code": _CODE, "kbd": _CODE, "samp": _CODE, "tt": _CODE, "a": _LINK,
           "td": _CELL, "th": _CELL, "figcaption": _CAPTION,
           **dict.fromkeys(("h1", "h2", "h3", "h4", "h5", "h6"), _HEADING)}
_ITALIC = frozenset({"em", "i"})
_BOLD = frozenset({"strong", "b"})
# Where a backslash goes in the Markdown: a noncharacter, which no page
# has (characters.readable takes them out) and the converter passes as it is, so
# that its own escapes (a line's start, a link's brackets, a cell's pipe)
# and Victor's do not meet.
MARK = "\ufdd0"
# What ends a term's paragraph and starts a definition's until the
# converter joins them (victor/output/converter.py): noncharacters, as MARK
# is (a mark at a term's start would hide its line's start from the
# converter's escapes).
TERM, DEFINITION = "\ufdd2", "\ufdd3"
_SYNTAX = re.compile(r"[`\[|*_~]|<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)")
_ROW = re.compile(r"[\s|:]*-[\s|:-]*")  # a table's delimiter row, read so under a line


def _escape(text: str, where: int) -> str:
    """The page's text with a MARK before each character that Markdown
    would read as syntax, not as the character: a backtick (code), `[` (a
    link), `|` of a line that would make the line above a table's head
    ("--|--"), `*`, `~` and `_` that may open or close emphasis or a
    strikethrough, `<` of a tag and `&` of an entity. The
    converter escapes what stands at a line's start (`#`, `1.`, `-`, `>`)
    and inside links' brackets and cells, so Victor leaves those alone.
    `*` and `~` with a space on each side, and `_` inside a word, are read
    as themselves (snake_case stays as it is); a node's edge counts as
    neither, since the text beside it is unknown here."""
    if not _SYNTAX.search(text):
        return text

    def mark(m: re.Match) -> str:
        c = m.group()
        if c == "[" and where & _LINK or c == "|" and (where & _CELL or not _ROW.fullmatch(text)):
            return c
        if c in "*~_":
            i = m.start()
            before = text[i - 1] if i else "a"
            after = text[i + 1] if i + 1 < len(text) else "a"
            if before.isspace() and after.isspace() or (
                    c == "_" and before.isalnum() and after.isalnum() and 0 < i < len(text) - 1):
                return c
        return MARK + c

    return _SYNTAX.sub(mark, text)


def _note_mark(sup: Element, where: int, for_markdown: bool) -> str:
    """A footnote's mark: Markdown's `[^label]` where its note is kept,
    else the mark as the page shows it."""
    mark = _text_of(sup)
    if for_markdown:
        return (f"[^{sup.attrs['note']}]" if "defined" in sup.attrs
                else escape(_escape(f"[{mark}]", where), quote=False))
    return f"<sup>{escape(mark, quote=False)}</sup>"


def _notes_only(children: list[Node]) -> bool:
    """Whether a list's children are footnotes (and text between them)."""
    return all(isinstance(c, str) or "note" in c.attrs for c in children)


def _note_opening(item: Element) -> str:
    """A footnote's own paragraph in Markdown, `[^label]: ` before its text."""
    return f"\n<p>[^{item.attrs['note']}]: "


def _definition_opening(tag: str) -> str:
    """The paragraph a term (<dt>) or a definition (<dd>) opens in Markdown."""
    return "\n<p>" + ("" if tag == "dt" else DEFINITION + ": ")


def _picture(img: Element, images: bool, where: int, for_markdown: bool) -> str:
    """What an image writes: itself where images are kept and it has an
    address (one without shows nothing), else the text a reader sees
    where no image is (its alt), else nothing."""
    if images:
        return "<img" + _attributes(img.attrs) + ">" if img.attrs.get("src") else ""
    alt = img.attrs.get("alt")
    if not alt:
        return ""
    return escape(_escape(alt, where) if for_markdown else alt, quote=False)


def _numbered_runs(ol: Element) -> list[Element]:
    """An ordered list whose items' numbers skip (the labels dropped the
    items between) as lists of consecutive numbers, each from its start,
    since a Markdown list counts on from its first number; [] for a list
    that counts as Markdown does."""
    items = [c for c in ol.children if isinstance(c, Element) and c.tag == "li"]
    if "reversed" in ol.attrs or not any("value" in li.attrs for li in items):
        return []
    runs: list[Element] = []
    last = None
    for li, number in zip(items, item_numbers(ol)):
        if last is None or number != last + 1:
            runs.append(Element("ol", {"start": str(number)}))
        runs[-1].children.append(li)
        last = number
    return runs if len(runs) > 1 else []


def _attributes(attrs: dict[str, str]) -> str:
    return "".join(f' {k}="{escape(v)}"' for k, v in attrs.items() if k not in _PRIVATE)


# What the kept tree says to the formats, not to the reader.
_PRIVATE = frozenset({"tex", "text", "note", "defined"})


def _text_of(el: Element) -> str:
    return "".join(c if isinstance(c, str) else _text_of(c) for c in el.children)


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
            f"<html{lang_attr}><head><meta charset=\"utf-8\">"
            f"<title>{escape(readable(title))}</title></head>\n"
            f"<body>\n{clean_html(tree, options)}\n</body></html>\n")


# The walk compiled (victor/compiled/_render.pyx) where it was built; the
# function above stays the reference and the fallback.
clean_html_py = clean_html
clean_html = twin(clean_html_py, "_render")
