"""Markdown from the clean HTML (victor/output/render.py): html-to-markdown
converts it, and what the converter cannot say is settled after it: the
marks before the page's own syntax characters become backslashes, a
definition list's terms and definitions are joined, and no line break
ends a paragraph."""

from __future__ import annotations

import re
from functools import lru_cache

from victor.output.render import DEFINITION, MARK, TERM, clean_html
from victor.output.tree import Rendering
from victor.reading.parser import Element


def markdown(tree: Element, options: Rendering = Rendering()) -> str:
    return _convert(clean_html(tree, options, for_markdown=True))


@lru_cache(maxsize=1)
def _options():
    """The converter's settings: no preprocessing of its own (it would drop
    navigation and forms the labels kept), no escapes but at line starts,
    one bullet at every level, sup and sub kept as HTML, images kept inside
    links and boxes. Hidden content is left at the converter's own choice
    (dropped): what it reads as hidden (the hidden and style attributes,
    noscript, template) clean HTML never holds (output/elements.py keeps
    neither attribute and writes both elements as boxes), and its look
    for them is quicker than the walk that keeps them all."""
    from html_to_markdown import ConversionOptions, PreprocessingOptions

    return ConversionOptions(output_format="markdown", extract_metadata=False,
                             heading_style="atx", bullets="-", strong_em_symbol="*",
                             code_block_style="backticks", escape_asterisks=False,
                             escape_underscores=False, escape_misc=False, autolinks=False,
                             wrap=False, whitespace_mode="normalized",
                             newline_style="backslash", preserve_tags=["sup", "sub"],
                             keep_inline_images_in=["a", "p", "div", "span", "li", "td", "th",
                                                    "figure"],
                             preprocessing=PreprocessingOptions(enabled=False))


_BLANK_LINES = re.compile(r"\n{3,}")




def _definitions(markdown: str) -> str:
    """A definition list's paragraphs, each definition on the line after
    its term or the definition before it ("Term\n: one\n: two")."""
    out: list[str] = []
    for part in markdown.split("\n\n"):
        if (part.startswith(DEFINITION) and out
                and (out[-1].rstrip().endswith(TERM)
                     or out[-1].rsplit("\n", 1)[-1].startswith(DEFINITION))):
            out[-1] += "\n" + part
        else:
            out.append(part)
    return "\n\n".join(out).replace(TERM, "").replace(DEFINITION, "")


def _no_break_at_block_end(markdown: str) -> str:
    """A line break (`\\` at a line's end) that ends a paragraph goes: a
    reader of the Markdown sees a stray backslash, CommonMark's parser
    too (a break is a break only inside a paragraph). Code keeps its
    lines' backslashes (a shell's continued line)."""
    lines = markdown.split("\n")
    fenced = False
    for i, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif (not fenced and line.endswith("\\")
              and (len(line) - len(line.rstrip("\\"))) % 2
              and (i + 1 == len(lines) or not lines[i + 1].strip())):
            lines[i] = line[:-1].rstrip(" ")
    return "\n".join(lines)


def _convert(html: str) -> str:
    from html_to_markdown import convert

    # A mark the converter escaped again (a `*` closing a cell's bold) is
    # its escape alone: both would print a backslash of their own.
    out = (convert(html, _options()).content or "").replace(MARK + "\\", "\\")
    out = out.replace(MARK, "\\")
    if DEFINITION in out or TERM in out:
        out = _definitions(out)
    # Lines' trailing spaces by str.rstrip and blank lines by the pattern
    # only where there are three line breaks: a pattern that tries at every
    # space or break of the page's text is slow.
    out = "\n".join([line.rstrip(" \t") for line in out.split("\n")])
    if "\\\n\n" in out or out.rstrip("\n").endswith("\\"):
        out = _no_break_at_block_end(out)
    if "\n\n\n" in out:
        out = _BLANK_LINES.sub("\n\n", out)
    out = out.strip("\n")
    return out + "\n" if out.strip() else ""
