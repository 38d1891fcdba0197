"""Bytes to the block sequence of a page: parse, preclean and blocks in order."""

from __future__ import annotations

import reprlib
from collections import Counter
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from victor.reading.blocks import Block, split_blocks
from victor.reading.metadata import PageMeta, read_meta
from victor.reading.preclean import preclean
from victor.reading.unseen import hidden_classes, unseen_blocks
from victor.reading.parser import Element, FlatTree, flatten, parse, unflatten

if TYPE_CHECKING:  # for type hints only: a stage imported alone loads no config
    from victor.config import Config


@dataclass(slots=True)
class Page:
    source: str  # file name, URL or "-": what error messages name
    url: str  # from CleanEval's <text id>, a WARC record, or empty
    title: str
    encoding: str  # what the bytes were decoded from; "" for a page given as text
    blocks: list[Block]
    meta: PageMeta  # what the page declares about itself (victor/reading/metadata.py)
    # What was done to find the page's text: unclosed elements tidy closed
    # (Document.recovered), text taken from noscript or the description.
    recovered: tuple[str, ...] = ()
    # The cleaned tree the blocks were split from (each block knows its place
    # in it), which the output renders the kept part of; and the <base href>
    # the page's relative links resolve against.
    body: Element | None = None
    base: str = ""
    # How many elements of each tag `body` holds, itself included, counted
    # in split_blocks' walk for the page type's signals; None where a page
    # was made without them.
    tags: Counter[str] | None = None
    # The blocks a reader does not read as text (hidden by the page's own
    # style sheet, kept for screen readers, data for a script): the
    # decision drops them (victor/reading/unseen.py).
    unseen: tuple[int, ...] = ()

    @property
    def base_url(self) -> str:
        """What relative links resolve against: the page's <base href>,
        itself relative to the page's address (a crawl's, or the canonical
        one it declares)."""
        address = self.url if "://" in self.url else self.meta.url
        return urljoin(address, self.base) if address else self.base

    def __repr__(self) -> str:
        """One line with the number of blocks, not the blocks: each holds
        its part of the page's tree, and showing them all hung a REPL."""
        return (f"Page(source={reprlib.repr(self.source)}, url={reprlib.repr(self.url)}, "
                f"title={reprlib.repr(self.title)}, encoding={self.encoding!r}, "
                f"{len(self.blocks)} blocks, recovered={self.recovered!r})")

    def __reduce__(self) -> tuple:
        """A page pickles (with a Result, from a worker process) with its
        blocks' tree flattened: pickle's own recursion fails on a page
        nested a few hundred elements deep. Each block's containers become
        indices into the flat tree, whose first element is the body."""
        body = self.body or Element("body")
        tree, index = flatten([body])
        blocks = [{**{f.name: getattr(b, f.name) for f in fields(b)},
                   "containers": [index[id(c)] for c in b.containers]} for b in self.blocks]
        rest = {f.name: getattr(self, f.name) for f in fields(self)
                if f.name not in ("blocks", "body")}
        return _unpickle_page, (rest, tree, blocks)


def _unpickle_page(rest: dict, tree: FlatTree, blocks: list[dict]) -> Page:
    elements = unflatten(tree)
    return Page(**rest, body=elements[0],
                blocks=[Block(**{**b, "containers": tuple(elements[i] for i in b["containers"])})
                        for b in blocks])


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
    blocks, tags = split_blocks(pre.body)
    recovered = list(doc.recovered)
    if not blocks and "noscript" in config.tag_delete:
        doc = parse(data, config.parser, declared_encoding, source)  # preclean changed the tree
        pre = preclean(doc.root, config.tag_delete - {"noscript"})
        blocks, tags = split_blocks(pre.body)
        if blocks:
            recovered.append("text only in <noscript>")
    body = pre.body
    if not blocks and meta.description:
        body = Element("body", {}, [Element("p", {}, [meta.description])])
        blocks, tags = split_blocks(body)
        recovered.append("text only in the description <meta>")
    return Page(source, pre.url or url, pre.title, doc.encoding, blocks, meta, tuple(recovered),
                body, pre.base, tags, unseen_blocks(blocks, hidden_classes(pre.styles)))
