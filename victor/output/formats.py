"""The output formats a user can ask for: the one list of them, each with
the suffix of its files and whether its pages are headed on standard
output."""

from __future__ import annotations

from dataclasses import dataclass

from victor.errors import VictorError


@dataclass(frozen=True, slots=True)
class Format:
    suffix: str  # of the file a page's output is written to
    # Its pages would run together on standard output: there each page is
    # headed by `page_header` when several share it.
    headed: bool = False


# The one list of formats: each name is `victor clean --format NAME`, the
# method of victor.result.Result that renders it, and `extract(output=NAME)`.
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


def page_header(source: str, first: bool) -> str:
    """The line before a page's text or Markdown when several pages go to
    standard output, as `head` heads files: it says where each page begins
    and which page it is."""
    return ("" if first else "\n") + f"==> {source} <==\n"
