"""Bytes to the block sequence of a page: tidy, preclean and blocks in order."""

from __future__ import annotations

from dataclasses import dataclass

from victor.blocks import Block, split_blocks
from victor.config import Config
from victor.preclean import preclean
from victor.tidy import Element, parse


@dataclass(slots=True)
class Page:
    source: str  # file name, URL or "-": what error messages name
    url: str  # from CleanEval's <text id>, a WARC record, or empty
    title: str
    encoding: str
    blocks: list[Block]
    # What was done to find the page's text: unclosed elements tidy closed
    # (Document.recovered), text taken from noscript or the description.
    recovered: tuple[str, ...] = ()


def read_page(data: bytes, config: Config, source: str = "-",
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
    blocks = split_blocks(pre.body)
    recovered = list(doc.recovered)
    if not blocks and "noscript" in config.tag_delete:
        doc = parse(data, config.parser, declared_encoding, source)  # preclean changed the tree
        pre = preclean(doc.root, config.tag_delete - {"noscript"})
        blocks = split_blocks(pre.body)
        if blocks:
            recovered.append("text only in <noscript>")
    if not blocks:
        description = _description(doc.root)
        if description:
            blocks = split_blocks(Element("body", {}, [Element("p", {}, [description])]))
            recovered.append("text only in the description <meta>")
    return Page(source, pre.url or url, pre.title, doc.encoding, blocks, tuple(recovered))


def _description(root: Element) -> str:
    """The page's `<meta name=description>`, else its og:description or
    twitter:description, from the head."""
    found: dict[str, str] = {}
    for head in (c for c in root.children if isinstance(c, Element) and c.tag == "head"):
        for meta in (c for c in head.children if isinstance(c, Element) and c.tag == "meta"):
            key = (meta.attrs.get("name") or meta.attrs.get("property") or "").lower()
            found.setdefault(key, " ".join(meta.attrs.get("content", "").split()))
    return next((found[k] for k in ("description", "og:description", "twitter:description")
                 if found.get(k)), "")
