"""Bytes to the block sequence of a page: tidy, preclean and blocks in order."""

from __future__ import annotations

from dataclasses import dataclass

from victor.blocks import Block, split_blocks
from victor.config import Config
from victor.metadata import PageMeta, read_meta
from victor.preclean import preclean
from victor.tidy import parse


@dataclass(slots=True)
class Page:
    source: str  # file name, URL or "-": what error messages name
    url: str  # from CleanEval's <text id>, a WARC record, or empty
    title: str
    encoding: str  # what the bytes were decoded from; "" for a page given as text
    blocks: list[Block]
    meta: PageMeta  # what the page declares about itself (victor/metadata.py)


def read_page(data: bytes | str, config: Config, source: str = "-",
              declared_encoding: str | None = None, url: str = "") -> Page:
    """`url` is used where the page itself does not say (a crawl record's address)."""
    doc = parse(data, config.parser, declared_encoding, source)
    pre = preclean(doc.root, config.tag_delete)
    meta = read_meta(doc.root.attrs.get("lang", ""), pre.declared)
    return Page(source, pre.url or url, pre.title, doc.encoding, split_blocks(pre.body), meta)
