"""Stage 6: labelled blocks become what the user asked for.

The structured formats (text, markdown, html, cleaneval and the jsonl
record's text) are rendered from the kept part of the page's tree
(`tree.kept_tree`, `render`); `blocks` lists the blocks with their labels
and `report` shows them coloured, `table` the features.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from victor.errors import VictorError
from victor.output.blocks import listing, plain_text, segments
from victor.output.characters import readable
from victor.output.plain import cleaneval_segments, paragraphs, text
from victor.output.render import clean_html, html_document, markdown
from victor.output.report import report
from victor.output.tree import Rendering, kept_tree

if TYPE_CHECKING:
    from victor.reading.page import Page

__all__ = ["FORMATS", "DEFAULT_FORMAT", "Format", "Rendering", "check_format", "clean_html",
           "cleaneval", "cleaneval_segments", "html_document", "jsonl_record", "kept_tree",
           "listing", "markdown", "page_header", "paragraphs", "plain_text", "report", "segments",
           "text"]


@dataclass(frozen=True, slots=True)
class Format:
    suffix: str  # of the file a page's output is written to
    # Its pages would run together on standard output: there each page is
    # headed by `page_header` when several share it.
    headed: bool = False


# The one list of formats: each name is `victor clean --format NAME`, the
# method of cleaner.Result that renders it, and `extract(output=NAME)`.
FORMATS = {"cleaneval": Format(".txt"), "text": Format(".txt", headed=True),
           "markdown": Format(".md", headed=True), "blocks": Format(".txt"),
           "jsonl": Format(".jsonl"), "html": Format(".html"), "report": Format(".report.html"),
           "table": Format(".tsv")}
# The one default of `victor clean` and `extract()` (clean.py, the original
# tool's script, keeps CleanEval's).
DEFAULT_FORMAT = "text"


def check_format(name: str) -> None:
    """A one-line VictorError for a format not in FORMATS, raised where
    the name is given rather than when the first page is rendered."""
    if name not in FORMATS:
        raise VictorError(f"unknown output format {name!r}; choose one of {', '.join(FORMATS)}")


def cleaneval(url: str, segs: list[tuple[str, str]]) -> str:
    """The CleanEval shared task's format: a `URL:` line, then one segment a
    line with its `<p>`, `<h>` or `<l>` marker."""
    lines = [f"URL: {url}"]
    lines.extend(f"<{kind}>{line}" for kind, line in segs)
    return "\n".join(lines) + "\n"


def page_header(source: str, first: bool) -> str:
    """The line before a page's text or Markdown when several pages go to
    standard output, as `head` heads files: it says where each page begins
    and which page it is."""
    return ("" if first else "\n") + f"==> {source} <==\n"


def jsonl_record(page: Page, labels: list[str], content: list[float], text: str,
                 fallback: bool = False, text_language: str = "",
                 confidence: float | None = None,
                 page_type: dict[str, float] | None = None,
                 comment_blocks: tuple[int, ...] = ()) -> str:
    """One JSON line a page: what a corpus builder stores, with what the
    page declares about itself (victor/reading/metadata.py). `recovered` says what
    was done to find the page's text (an unclosed element read past, text
    taken from noscript or the description: page.read_page), and
    `fallback` says that the CRF kept no block and
    the text is the page's most probable content (decoding.fallback): a corpus
    builder may want to weigh or drop such pages. `text_language` is the
    language of the cleaned text as identified (victor/output/language.py), beside
    the `language` the page declares. `confidence` is the page's expected
    word F1 under the model's own probabilities (Result.confidence).
    `page_type` is the likeliest of the classifier's types with every
    type's probability, where the model has one (victor/page_type/).
    `comment_blocks` are the ids of the blocks in readers' comment
    sections (`comments`); their labels say whether they were kept."""
    import json

    record = {
        "source": page.source,
        "url": page.url,
        "title": readable(page.title),
        "canonical_url": page.meta.url,
        **page.meta.fields(),
        "text_language": text_language,
        "recovered": list(page.recovered),
        "fallback": fallback,
        **({} if confidence is None else {"confidence": round(confidence, 4)}),
        **({} if page_type is None else {
            "page_type": max(page_type, key=page_type.get),
            "page_types": {k: round(p, 4) for k, p in page_type.items()}}),
        "comments": list(comment_blocks),
        "text": text.strip(),
        "blocks": [
            {"id": b.id, "label": lab, "content": round(p, 4), "text": b.text}
            for b, lab, p in zip(page.blocks, labels, content)
        ],
    }
    return json.dumps(record, ensure_ascii=False) + "\n"


