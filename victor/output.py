"""Stage 6: labelled blocks become what the user asked for.

Every format is built from the same segments: a block labelled p, h or l
opens a segment of that type and each following `c` block joins it, so a
paragraph split by inline tags reads as one again. `o` blocks are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from victor.labels import LABELS, NAMES, OTHER


@dataclass(frozen=True, slots=True)
class Format:
    suffix: str  # of the file a page's output is written to
    # Its pages would run together on standard output: there each page is
    # headed by `page_header` when several share it.
    headed: bool = False


# The one list of formats: each name is `victor clean --format NAME`, the
# method of cleaner.Result that renders it, and `extract(output=NAME)`.
FORMATS = {"cleaneval": Format(".txt"), "text": Format(".txt", headed=True),
           "markdown": Format(".md", headed=True), "victor": Format(".txt"),
           "jsonl": Format(".jsonl"), "html": Format(".html"), "table": Format(".tsv")}
DEFAULT_FORMAT = "cleaneval"


@dataclass(slots=True)
class Segment:
    kind: str  # p, h or l
    text: str
    blocks: list[int]  # indexes of the blocks joined into it


def segments(texts: list[str], labels: list[str]) -> list[Segment]:
    """A `c` with no segment open yet starts a paragraph: the block is
    content, and a paragraph is the least specific content type."""
    out: list[Segment] = []
    for i, (text, label) in enumerate(zip(texts, labels)):
        if label == OTHER:
            continue
        if label == "c" and out:
            seg = out[-1]
            seg.text = f"{seg.text} {text}"
            seg.blocks.append(i)
        else:
            out.append(Segment("p" if label == "c" else label, text, [i]))
    return out


def cleaneval(url: str, texts: list[str], labels: list[str]) -> str:
    """The CleanEval shared task's format: a `URL:` line, then one segment a
    line with its `<p>`, `<h>` or `<l>` marker."""
    lines = [f"URL: {url}"]
    lines.extend(f"<{s.kind}>{s.text}" for s in segments(texts, labels))
    return "\n".join(lines) + "\n"


def plain_text(texts: list[str], labels: list[str]) -> str:
    """One segment a paragraph, paragraphs separated by blank lines."""
    segs = segments(texts, labels)
    return "\n\n".join(s.text for s in segs) + ("\n" if segs else "")


def markdown(page, labels: list[str]) -> str:
    """Headers as headings (of their <h1>..<h6> level, else level 2), list
    items as a bulleted list, paragraphs with their continuations joined."""
    out: list[str] = []
    previous = ""
    for seg in segments([b.text for b in page.blocks], labels):
        text = _MARKDOWN_START.sub(_escape, seg.text)
        if seg.kind == "h":
            tags = page.blocks[seg.blocks[0]].tags
            level = next((int(t[1]) for t in reversed(tags) if t in _HEADINGS), 2)
            out.append(("\n\n" if out else "") + "#" * level + " " + text)
        elif seg.kind == "l":
            out.append(("\n" if previous == "l" else "\n\n" if out else "") + "- " + text)
        else:
            out.append(("\n\n" if out else "") + text)
        previous = seg.kind
    return "".join(out) + ("\n" if out else "")


_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# What would make a paragraph's first characters Markdown syntax: a
# heading, quote, list or rule marker.
_MARKDOWN_START = re.compile(r"^(?:[#>=]|[-+*](?=\s|$)|\d+(?=[.)](?:\s|$)))")


def _escape(match: re.Match) -> str:
    """A backslash before the marker; after the number of `1. `."""
    mark = match.group()
    return mark + "\\" if mark[0].isdigit() else "\\" + mark


def page_header(source: str, first: bool) -> str:
    """The line before a page's text or Markdown when several pages go to
    standard output, as `head` heads files: it says where each page begins
    and which page it is."""
    return ("" if first else "\n") + f"==> {source} <==\n"


def listing(texts: list[str], labels: list[str]) -> str:
    """Victor's own view: every block with its label, as an annotation lists
    them, so a cleaned page can be corrected and used for training."""
    return "".join(f"{label}\t{text}\n" for text, label in zip(texts, labels))


def jsonl_record(page, labels: list[str], content: list[float], fallback: bool = False,
                 text_language: str = "") -> str:
    """One JSON line a page: what a corpus builder stores, with what the
    page declares about itself (victor/metadata.py). `recovered` says what
    was done to find the page's text (an unclosed element read past, text
    taken from noscript or the description: page.read_page), and
    `fallback` says that the CRF kept no block and
    the text is the page's most probable content (decoding.floor): a corpus
    builder may want to weigh or drop such pages. `text_language` is the
    language of the cleaned text as identified (victor/language.py), beside
    the `language` the page declares."""
    import json

    record = {
        "source": page.source,
        "url": page.url,
        "title": page.title,
        "canonical_url": page.meta.url,
        **page.meta.fields(),
        "text_language": text_language,
        "recovered": list(page.recovered),
        "fallback": fallback,
        "text": plain_text([b.text for b in page.blocks], labels).strip(),
        "blocks": [
            {"id": b.id, "label": lab, "content": round(p, 4), "text": b.text}
            for b, lab, p in zip(page.blocks, labels, content)
        ],
    }
    return json.dumps(record, ensure_ascii=False) + "\n"


_COLOURS = {"p": "#d8f5d0", "h": "#c9e2ff", "l": "#fff1b8", "c": "#e9f9e4", "o": "#eeeeee"}


def html_report(page, labels: list[str], marginals: list[dict[str, float]]) -> str:
    """A self-contained page for people who would rather look than read:
    blocks coloured by label, the CRF's probabilities on hover."""
    from html import escape

    legend = " ".join(
        f'<span class="b {k}">{escape(v)}</span>' for k, v in NAMES.items())
    rows = []
    for b, lab, m in zip(page.blocks, labels, marginals):
        tip = ", ".join(f"{k} {m.get(k, 0.0):.2f}" for k in LABELS)
        rows.append(f'<div class="b {lab}" title="#{b.id} {escape(NAMES.get(lab, lab))}: '
                    f'{escape(tip)}"><i>{lab}</i> {escape(b.text)}</div>')
    style = "".join(f".{k}{{background:{c}}}" for k, c in _COLOURS.items())
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>Victor: {escape(page.url or page.source)}</title><style>"
        "body{font:14px/1.4 sans-serif;max-width:60em;margin:1em auto}"
        ".b{padding:2px 6px;margin:1px 0;border-radius:3px}.o{color:#888}"
        "i{font-style:normal;font-weight:bold;margin-right:.5em}"
        f"{style}</style></head><body><h1>{escape(page.title or page.url or page.source)}</h1>"
        f"<p>{escape(page.url)}</p><p>{legend}</p>\n" + "\n".join(rows) + "\n</body></html>\n"
    )
