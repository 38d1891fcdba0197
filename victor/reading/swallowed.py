"""Markup swallowed by an element never closed: read past it, so that no
page loses its text to one missing closing tag.
"""

from __future__ import annotations

import re

from victor.compiled import twin
from victor.reading.depth import NAME_ENDS, RAW_TEXT, TOKEN

# An element whose content is text up to its own closing tag (or, for
# noscript, an element the cleaning deletes whole), or a comment, that is
# never closed takes the rest of the page with it: `<title>BBC SPORTi
# library-->` with no </title> makes the whole body the title's text, so
# no block is left. Browsers do the same; readability-lxml and libxml2
# see the body. Such an element is closed where the next markup starts
# when the rest of the page it takes is at least this share of the page
# (a comment left open before the text of a page takes about half of it);
# a shorter tail is most likely a page cut short in a script or comment,
# and what the parser makes of it is left alone.
SWALLOWED_SHARE = 0.1
# Where markup starts: a start or end tag, a comment or a doctype.
_MARKUP = re.compile(r"<[a-zA-Z]|</[a-zA-Z]|<!")
_RAW_OPEN = re.compile(rf"<({RAW_TEXT})(?=[\s/>])", re.I)
# What _maybe_swallowing looks for besides comments: raw-text start tags
# (a prefix, as in `<titles`, counts: a yes too many costs only the token
# scan) and end tags. An end tag counts only with its name whole, as HTML5
# reads it: a 2008 news page closed its title with `</titlevalue="true" -->`,
# which closes nothing, and the title took the page's 289-word article.
_RAW_TAG = re.compile(rf"<(/?)({RAW_TEXT})", re.I)
# Elements closed per page at most; each closing needs a scan of the page.
_MAX_RECOVERIES = 8


def _maybe_swallowing(text: str) -> bool:
    """Whether the last raw-text start tag or comment opening comes after
    every closing of its kind: a quick look keeps the token scan off
    nearly every page. Comments are found by `rfind`; tags by a pattern
    that starts with a plain `<`, which the regex engine skips to at
    memchr's pace, where one pattern of every marker (comments' `-->`
    among them) was tried at each character of the page. A `-->` inside
    `<!-->` or `<!--->` counts as the closing that HTML5 reads there."""
    if text.rfind("<!--") > text.rfind("-->"):
        return True
    last: dict[str, int] = {}
    for m in _RAW_TAG.finditer(text):
        closing = m.group(1)
        if closing and text[m.end():m.end() + 1] not in NAME_ENDS:
            continue
        last[closing + m.group(2).lower()] = m.start()
    return any(last.get(name, -1) > last.get("/" + name, -1) for name in RAW_TEXT.split("|"))


def recover_swallowed(text: str) -> tuple[str, list[str]]:
    """The markup with each raw-text element or comment that runs unclosed
    to the end of the page, taking at least SWALLOWED_SHARE of it, closed
    at the first point after its start tag that looks like markup; and a
    note for each (`unclosed <title>`). The page is scanned as depth.TOKEN
    reads it, so a `<title>` inside a script or comment is no start tag.
    Pages without such an element come back as they are."""
    notes: list[str] = []
    for _ in range(_MAX_RECOVERIES):
        if not _maybe_swallowing(text):
            break
        last = None
        for last in TOKEN.finditer(text):
            pass
        if last is None or last.end() < len(text) or len(text) - last.start() < (
                SWALLOWED_SHARE * len(text)):
            break
        token = last.group()
        if token.startswith("<!--"):
            if token.startswith(("<!-->", "<!--->")) or "--!>" in token or token.endswith("-->"):
                break  # closed, as HTML5 reads comments
            opened, closing, what = last.start() + 4, "-->", "<!-- comment"
        else:
            start = _RAW_OPEN.match(token)
            if start is None:
                break
            name = start.group(1).lower()
            opened = last.start() + token.index(">") + 1
            closing, what = f"</{name}>", f"<{name}>"
        markup = _MARKUP.search(text, opened)
        if markup is None:
            break  # plain text to the end: nothing taken that was markup
        text = text[:markup.start()] + closing + text[markup.start():]
        notes.append(f"unclosed {what}")
    return text, notes


# The quick look in C (victor/compiled/_depth.pyx) where it was built;
# _maybe_swallowing above stays the reference and the fallback.
_maybe_swallowing_py = _maybe_swallowing
_maybe_swallowing = twin(_maybe_swallowing_py, "_depth")
