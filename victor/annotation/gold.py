"""Gold text read: a person's cleaned copy of a page, as words with the
segment each belongs to. CleanEval's gold marks its segments' kinds;
Dragnet's and WCXB's are plain paragraphs.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from victor.errors import VictorError
from victor.reading.encoding import decode
from victor.reading.text import words

_MARKER = re.compile(r"<([phl])>")
# Dragnet's gold appends the page's comments after a line like
# `!@#$%^&*()  COMMENTS` (the symbols vary a little). The comments are not
# the article, so the gold ends there.
_COMMENTS = re.compile(r"^[!@#$%^&*()\s]{6,}COMMENTS\s*$", re.M)


@dataclass(slots=True)
class Gold:
    source: str
    url: str  # CleanEval's URL line; empty for plain gold
    kinds: list[str]  # one per segment: p, h or l
    words: list[str]
    segment: list[int]  # for each word, the index of its segment
    # Whether the gold says each segment's kind (CleanEval's <p>, <h>, <l>);
    # plain gold (Dragnet, WCXB) has paragraphs only.
    marked: bool = True


def parse_gold(text: str, source: str) -> Gold:
    """CleanEval gold starts with a `URL:` line and marks segments with
    `<p>`, `<h>` or `<l>`; text up to the next marker belongs to the
    segment. Anything else is plain gold (Dragnet): one paragraph a line."""
    text = text.lstrip("\ufeff")
    stripped = text.lstrip()
    if stripped.startswith("URL:") or _MARKER.search(text):
        url, body = _split_url(stripped) if stripped.startswith("URL:") else ("", text)
        pieces = _MARKER.split(body)
        # pieces: text before the first marker, then (kind, text) pairs.
        parts = [("p", pieces[0])] + list(zip(pieces[1::2], pieces[2::2]))
    else:
        url = ""
        article = _COMMENTS.split(text, 1)[0]
        parts = [("p", line) for line in article.splitlines()]
    gold = Gold(source, url, [], [], [], marked=bool(url) or bool(_MARKER.search(text)))
    for kind, part in parts:
        ws = words(html.unescape(part))
        if not ws:
            continue
        gold.segment.extend([len(gold.kinds)] * len(ws))
        gold.kinds.append(kind)
        gold.words.extend(ws)
    return gold


def read_gold(path: Path) -> Gold:
    """Gold files are UTF-8 (with or without a byte-order mark) or UTF-16
    with one. Some Dragnet gold is UTF-16 that was once read as Latin-1
    and saved as UTF-8: its mark reads `ÿþ`, and undoing that recovers it."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise VictorError(f"{path}: cannot read gold text ({e.strerror})")
    if data.startswith("\u00ff\u00fe".encode()):
        data = data.decode("utf-8").encode("latin-1")
    text, _ = decode(data)
    return parse_gold(text, str(path))


def _split_url(text: str) -> tuple[str, str]:
    """Some CleanEval gold has the address on the line after an empty
    `URL:`; it is part of the header, not of the text."""
    first, _, rest = text.partition("\n")
    url = first[4:].strip()
    if not url:
        second, _, after = rest.lstrip().partition("\n")
        if second.strip() and not _MARKER.search(second) and " " not in second.strip():
            url, rest = second.strip(), after
    return url, rest
