"""Other main-text extractors, each as the text it keeps from page bytes,
with its own defaults (what a user who installs it gets) and its own
encoding handling, so that both the speed and the quality figures compare
whole tools.

CleanEval's pages come wrapped in `<text id=... encoding=...>`, packaging
of the collection rather than part of the page; Victor's preclean removes
it, and the peers get the page without it too: left in, it makes
trafilatura return nothing for 7 of the 58 pages."""

from __future__ import annotations

import re
from typing import Callable

Extract = Callable[[bytes], str]

_WRAPPER = re.compile(rb"^\s*<text\s[^>]*>(.*?)</text>\s*$", re.S)


def unwrapped(extract: Extract) -> Extract:
    def run(data: bytes) -> str:
        m = _WRAPPER.match(data)
        return extract(m.group(1) if m else data)
    return run


def trafilatura() -> Extract:
    """Comments off: the main text alone, as the article gold keeps it."""
    import trafilatura as t

    return unwrapped(lambda data: t.extract(data, include_comments=False) or "")


def trafilatura_comments() -> Extract:
    """trafilatura's default, comments kept."""
    import trafilatura as t

    return unwrapped(lambda data: t.extract(data) or "")


def trafilatura_markdown() -> Extract:
    """Markdown with tables, links, images and formatting on, comments off:
    the structure a user of its Markdown gets (benchmarks.structure)."""
    import trafilatura as t

    return unwrapped(lambda data: t.extract(
        data, output_format="markdown", include_tables=True, include_links=True,
        include_images=True, include_formatting=True, include_comments=False) or "")


def readability() -> Extract:
    """readability-lxml's main-content HTML, as its text."""
    import lxml.html
    from readability import Document

    def extract(data: bytes) -> str:
        summary = Document(data).summary(html_partial=True)
        return lxml.html.fromstring(summary).text_content() if summary.strip() else ""
    return unwrapped(extract)


def justext() -> Extract:
    import justext as j

    stoplist = j.get_stoplist("English")

    def extract(data: bytes) -> str:
        return "\n".join(p.text for p in j.justext(data, stoplist) if not p.is_boilerplate)
    return unwrapped(extract)


def resiliparse(**options: bool) -> Extract:
    """Main-content text, with extract_plain_text's `options` on top
    (list_bullets, preserve_formatting)."""
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import detect_encoding
    from resiliparse.parse.html import HTMLTree

    def extract(data: bytes) -> str:
        tree = HTMLTree.parse_from_bytes(data, detect_encoding(data))
        return extract_plain_text(tree, main_content=True, **options)
    return unwrapped(extract)


# Name -> setup (imports, stoplists) that returns the extractor.
PEERS: dict[str, Callable[[], Extract]] = {
    "trafilatura": trafilatura,
    "trafilatura+comments": trafilatura_comments,
    "readability": readability,
    "justext": justext,
    "resiliparse": resiliparse,
}

# benchmarks.structure's peers: each tool's output that keeps the most structure.
STRUCTURED_PEERS: dict[str, Callable[[], Extract]] = {
    "trafilatura (markdown)": trafilatura_markdown,
    "resiliparse (text)": lambda: resiliparse(list_bullets=True, preserve_formatting=True),
}
