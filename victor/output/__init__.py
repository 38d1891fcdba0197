"""Stage 6: labelled blocks become what the user asked for.

The structured formats (text, markdown, html, cleaneval and the jsonl
record's text) are rendered from the kept part of the page's tree
(`tree.kept_tree`, `render`); `blocks` lists the blocks with their labels
and `report` shows them coloured, `table` the features.
"""

from victor.output.blocks import listing, plain_text, segments
from victor.output.converter import markdown
from victor.output.formats import DEFAULT_FORMAT, FORMATS, Format, check_format, page_header
from victor.output.jsonl import jsonl_record
from victor.output.plain import cleaneval, cleaneval_segments, paragraphs, text
from victor.output.render import clean_html, html_document
from victor.output.report import report
from victor.output.tree import Rendering, kept_tree

__all__ = ["FORMATS", "DEFAULT_FORMAT", "Format", "Rendering", "check_format", "clean_html",
           "cleaneval", "cleaneval_segments", "html_document", "jsonl_record", "kept_tree",
           "listing", "markdown", "page_header", "paragraphs", "plain_text", "report", "segments",
           "text"]
