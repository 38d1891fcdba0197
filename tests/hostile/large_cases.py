"""The hostile corpus's large cases (make_corpus.py --large DIR): megabytes
that would be too big for git, so made at test time, from the repo's own
pages."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
# The repo's own pages: NAME.html beside its gold NAME.txt.
DATA = HERE.parents[1] / "data"
DRAGNET = DATA / "dragnet"
# A short English blog post's gold text.
POST_GOLD = DRAGNET / "R306.txt"


def big_page(megabytes: int = 20) -> bytes:
    """Real Dragnet pages' bodies one after another in one document."""
    parts, size = [b"<html><head><title>many pages</title></head><body>"], 0
    for p in itertools.cycle(sorted(DRAGNET.glob("*.html"))):
        if size >= megabytes * 1_000_000:
            break
        data = p.read_bytes()
        start = data.find(b"<body")
        body = data[data.index(b">", start) + 1:] if start >= 0 else data
        parts.append(body)
        size += len(body)
    return b"".join(parts) + b"</body></html>"


def _gold_words() -> list[str]:
    return POST_GOLD.read_text(encoding="utf-8").split()


def deep_nesting(depth: int = 100_000) -> bytes:
    """`depth` nested divs, each with a word of a real text before the next
    one opens, closed at the end: a template that forgets to close a div
    does this once per item."""
    words = _gold_words()
    opening = "".join(f"<div>{words[i % len(words)]} " for i in range(depth))
    return f"<html><body>{opening}{'</div>' * depth}</body></html>".encode("utf-8")


def huge_text_node(megabytes: int = 5) -> bytes:
    """One paragraph of 5 MB: a real text repeated without a tag."""
    text = " ".join(_gold_words())
    body = (text + " ") * (megabytes * 1_000_000 // (len(text) + 1) + 1)
    return f"<html><body><p>{body}</p></body></html>".encode("utf-8")


LARGE: dict[str, Callable[[], bytes]] = {
    "big-20mb.html": big_page,
    "nested-100k.html": deep_nesting,
    "text-node-5mb.html": huge_text_node,
}
