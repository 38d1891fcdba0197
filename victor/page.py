"""Bytes to the block sequence of a page: tidy, preclean and blocks in order."""

from __future__ import annotations

from dataclasses import dataclass

from victor.blocks import Block, split_blocks
from victor.config import Config
from victor.metadata import PageMeta, read_meta
from victor.preclean import preclean
from victor.tidy import Element, parse


@dataclass(slots=True)
class Page:
    source: str  # file name, URL or "-": what error messages name
    url: str  # from CleanEval's <text id>, a WARC record, or empty
    title: str
    encoding: str  # what the bytes were decoded from; "" for a page given as text
    blocks: list[Block]
    meta: PageMeta  # what the page declares about itself (victor/metadata.py)
    # What was done to find the page's text: unclosed elements tidy closed
    # (Document.recovered), text taken from noscript or the description.
    recovered: tuple[str, ...] = ()


def read_page(data: bytes | str, config: Config, source: str = "-",
              declared_encoding: str | None = None, url: str = "") -> Page:
    """`url` is used where the page itself does not say (a crawl record's
    address).

    A page that shows no text once the config's deletions are made may
    still say what it is about where a reader without JavaScript, or a
    search engine, looks: forum software (Discourse) puts its posts in
    `<noscript>` and builds the page with scripts, and some pages give
    nothing but their description. Such a page is read again keeping its
    noscript elements, and failing that its description is its one block;
    `recovered` says so."""
    doc = parse(data, config.parser, declared_encoding, source)
    pre = preclean(doc.root, config.tag_delete)
    meta = read_meta(doc.root.attrs.get("lang", ""), pre.declared)
    blocks = split_blocks(pre.body)
    recovered = list(doc.recovered)
    if not blocks and "noscript" in config.tag_delete:
        doc = parse(data, config.parser, declared_encoding, source)  # preclean changed the tree
        pre = preclean(doc.root, config.tag_delete - {"noscript"})
        blocks = split_blocks(pre.body)
        if blocks:
            recovered.append("text only in <noscript>")
    if not blocks and meta.description:
        blocks = split_blocks(Element("body", {}, [Element("p", {}, [meta.description])]))
        recovered.append("text only in the description <meta>")
    return Page(source, pre.url or url, pre.title, doc.encoding, blocks, meta, tuple(recovered))
