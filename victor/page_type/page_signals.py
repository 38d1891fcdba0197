"""The page type's signals: what a page says it is (its address's words,
og:type, the schema.org types it declares) and its shape (counts of its
elements, its words, links, prices, dates, its blocks' repeated paths),
one number each, in the classifier's order (SIGNALS)."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Iterator
from urllib.parse import urlsplit

import numpy as np

from victor.reading.blocks import count_tags

if TYPE_CHECKING:
    from victor.reading.page import Page

# Words of the address that say what a page is, each matched whole
# against the address's path and query split at / _ . ? = & and -.
_URL_WORDS = {
    "product": r"products?|p|item|items|shop|store|buy|dp|sku",
    "forum": r"forums?|threads?|topics?|t|community|discussions?|questions?|board|viewtopic"
             r"|showthread|answers|r|comments",
    "docs": r"docs?|documentation|api|reference|manual|guides?|wiki|learn|help|kb|support"
            r"|tutorials?|howto|faq",
    "listing": r"category|categories|tags?|archives?|page|list|search|collections?|c|cat"
               r"|browse|index|results|events|jobs|directory",
    "article": r"news|blog|blogs|articles?|story|stories|post|posts|\d{4}|press",
    "service": r"about|contact|services?|pricing|careers|team|company|solutions|features"
               r"|plans|locations?",
}
_URL_RE = {k: re.compile(rf"^(?:{v})$") for k, v in _URL_WORDS.items()}
_OG_TYPES = ("article", "product", "website", "blog", "profile", "video", "book")
# The schema.org types a page declares, in groups of what they say of it.
_DECLARED_GROUPS = {
    "ld.article": {"article", "newsarticle", "blogposting", "report", "scholarlyarticle",
                   "liveblogposting", "analysisnewsarticle", "opinionnewsarticle"},
    "ld.tech": {"techarticle", "apireference", "softwaresourcecode", "howto"},
    "ld.product": {"product", "offer", "aggregateoffer", "productgroup", "individualproduct",
                   "aggregaterating", "vehicle", "car"},
    "ld.forum": {"discussionforumposting", "qapage", "question", "answer", "comment",
                 "socialmediaposting"},
    "ld.collection": {"collectionpage", "itemlist", "searchresultspage", "listitem",
                      "offercatalog"},
    "ld.faq": {"faqpage"},
    "ld.service": {"service", "localbusiness", "professionalservice", "contactpage",
                   "aboutpage", "event", "jobposting", "course", "softwareapplication",
                   "organization", "restaurant", "store"},
    "ld.webpage": {"webpage", "itempage", "medicalwebpage"},
    "ld.recipe": {"recipe"},
}
# The elements counted, each also as a share of the page's blocks.
_TAGS = ("article", "main", "aside", "nav", "time", "form", "input", "button", "select",
         "pre", "code", "table", "tr", "li", "ul", "ol", "a", "img", "h1", "h2", "h3", "h4",
         "p", "blockquote", "figure", "iframe", "video", "dl", "section", "header", "footer",
         "textarea", "label", "span", "div")
# Words of the page's text, counted and a thousand words: prices and carts
# of a product, a forum's replies and members, documentation's terms, dates.
# Matched on the text in lower case, and each word-bound alternation behind
# one \b: the case-blind form took most of the signals' time. Where every
# alternative opens with a letter of its own, the word's start is checked
# after that letter (`x(?<!\w.)`, the same as `\bx`), and the date's
# first characters are looked ahead for: the engine then skips to the
# letters that can start a match instead of trying every alternative at
# every place. A price's first character (a currency sign or a digit) is
# taken by one class, and which it was looked back at: a pattern that
# opens with a class is one the engine skips through to its characters.
_TEXT = {
    "price": re.compile(r"[$€£¥₹\d](?:(?<=[$€£¥₹])\s?\d"
                        r"|(?<=\d)[\d.,]*\s?(?:€|eur|usd|zł|kr|chf|\$)\b)"),
    "cart": re.compile(r"add to (?:cart|basket|bag|wishlist)|buy now|in stock|out of stock|"
                       r"s(?<!\w.)ku\b|warenkorb|panier|carrito|free shipping|checkout|quantity"),
    "forum": re.compile(r"r(?<!\w.)epl(?:y|ies)\b|p(?<!\w.)osted\b|j(?<!\w.)oined\b|p(?<!\w.)osts?:"
                        r"|q(?<!\w.)uote\b|m(?<!\w.)ember\b|r(?<!\w.)egistered\b|t(?<!\w.)hread\b"
                        r"|u(?<!\w.)pvote|r(?<!\w.)eputation\b"),
    "doc": re.compile(r"\b(?:returns?\b|parameters?\b|example\b|syntax\b|function\b|"
                      r"method\b|install|configur|version\b|deprecated\b)"),
    "date": re.compile(r"(?=[\djfmasond])\b(?:(?:19|20)\d\d[-/.]\d\d?[-/.]\d\d?\b"
                       r"|\d\d?[-/.]\d\d?[-/.](?:19|20)?\d\d\b"
                       r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? "
                       r"\d\d?,? (?:19|20)\d\d\b|\d\d? (?:jan|feb|mar|apr|may|jun|jul|aug|sep"
                       r"|oct|nov|dec)[a-z]* (?:19|20)\d\d\b|ago\b)"),
}
# What every match of a pattern of _TEXT starts with, where a few words
# say it: such a pattern is tried only where one of them stands
# (`_count`). A page's text holds these words a few times, and str.find
# runs to them at memchr's pace, where the engine tried the pattern's
# alternatives at each of the page's letters that could open one.
_HEADS = {
    "cart": ("add to ", "buy now", "in stock", "out of stock", "sku", "warenkorb", "panier",
             "carrito", "free shipping", "checkout", "quantity"),
    "forum": ("repl", "post", "joined", "quote", "member", "registered", "thread", "upvote",
              "reputation"),
    "doc": ("return", "parameter", "example", "syntax", "function", "method", "install",
            "configur", "version", "deprecated"),
    # A date opens with a digit, a month's name or "ago": a page holds far
    # fewer of them than of the a, d, f, j, m, n, o and s at which the
    # pattern's look-ahead let it be tried too.
    "date": (*"0123456789", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
             "oct", "nov", "dec", "ago"),
}


def _names() -> Iterator[str]:
    yield from (f"url.{k}" for k in _URL_WORDS)
    yield from ("url.depth", "url.last-words", "url.last-len", "url.digits", "url.query",
                "url.root")
    yield from (f"og.{t}" for t in _OG_TYPES)
    yield "og.none"
    yield from _DECLARED_GROUPS
    for t in _TAGS:
        yield from (f"tag.{t}", f"tag.{t}/blocks")
    yield from ("blocks", "words", "log-words", "words/block", "long-share", "long-blocks",
                "link-share", "link-blocks")
    for k in _TEXT:
        yield from (f"text.{k}", f"text.{k}/kwords")
    yield from ("paths", "path.largest", "path.groups5", "path.in-groups5")
    yield from ("title.words", "meta.author", "meta.date", "meta.structured")


# The classifier's input, in its order: a model's booster must name these.
SIGNALS = tuple(_names())


def address(page: Page, url: str = "") -> str:
    """The address the signals read: `url` where the caller knows it
    (`--url`, a crawl's record), else the page's own or the canonical one
    it declares."""
    return url or (page.url if "://" in page.url else "") or page.meta.url or page.url


def signals(page: Page, paths: np.ndarray, url: str = "",
            words: np.ndarray | None = None) -> dict[str, float]:
    """What the page says it is and its shape, one number each (SIGNALS);
    `paths` is each block's path number (victor.second_pass.page_paths),
    `words` each block's whitespace-separated tokens where the caller has
    them counted (Columns.words)."""
    out: dict[str, float] = {}
    parts = urlsplit(address(page, url))
    words_of_url = [s for s in re.split(r"[/_.?=&-]+",
                                        (parts.path + " " + parts.query).lower().strip()) if s]
    segments = [s for s in parts.path.split("/") if s]
    for k, rx in _URL_RE.items():
        out[f"url.{k}"] = float(sum(bool(rx.match(s)) for s in words_of_url))
    out["url.depth"] = float(len(segments))
    last = segments[-1] if segments else ""
    out["url.last-words"] = float(len([w for w in re.split(r"[-_]+", re.sub(r"\.\w+$", "", last))
                                       if w]))
    out["url.last-len"] = float(len(last))
    out["url.digits"] = float(sum(ch.isdigit() for ch in parts.path))
    out["url.query"] = float(bool(parts.query))
    out["url.root"] = float(not segments)
    og = page.meta.og_type
    for t in _OG_TYPES:
        out[f"og.{t}"] = float(og.startswith(t) or (t == "product" and "product" in og))
    out["og.none"] = float(not og)
    for group, names in _DECLARED_GROUPS.items():
        out[group] = float(sum(t in names for t in page.meta.declared_types))
    tags = page.tags if page.tags is not None else count_tags(page.body)
    nblocks = max(len(page.blocks), 1)
    for t in _TAGS:
        out[f"tag.{t}"] = float(tags.get(t, 0))
        out[f"tag.{t}/blocks"] = tags.get(t, 0) / nblocks
    texts = [b.text for b in page.blocks]
    words = (np.array([len(t.split()) for t in texts], dtype=np.float64) if words is None
             else np.asarray(words, dtype=np.float64))
    total = max(words.sum(), 1.0)
    linked = np.array([b.linked for b in page.blocks], dtype=bool)
    out["blocks"] = float(len(page.blocks))
    out["words"] = float(words.sum())
    out["log-words"] = math.log1p(words.sum())
    out["words/block"] = words.sum() / nblocks
    out["long-share"] = words[words >= 30].sum() / total
    out["long-blocks"] = float((words >= 30).sum())
    out["link-share"] = words[linked].sum() / total if len(words) else 0.0
    out["link-blocks"] = linked.sum() / nblocks
    joined = "\n".join(texts).lower()
    for name, rx in _TEXT.items():
        heads = _HEADS.get(name)
        n = len(rx.findall(joined)) if heads is None else _count(rx, heads, joined)
        out[f"text.{name}"] = float(n)
        out[f"text.{name}/kwords"] = 1000 * n / total
    if len(paths):
        groups = np.unique(paths, return_counts=True)[1]
        out["paths"] = float(len(groups))
        out["path.largest"] = groups.max() / nblocks
        out["path.groups5"] = float((groups >= 5).sum())
        out["path.in-groups5"] = groups[groups >= 5].sum() / nblocks
    out["title.words"] = float(len((page.meta.title or page.title or "").split()))
    out["meta.author"] = float(bool(page.meta.author))
    out["meta.date"] = float(bool(page.meta.date))
    out["meta.structured"] = float(sum(len(s.split()) for s in page.meta.structured_text))
    return out


def _count(rx: re.Pattern, heads: tuple[str, ...], text: str) -> int:
    """len(rx.findall(text)) where every match of `rx` starts with one of
    `heads`: the pattern is tried only where a head stands, left to right,
    and past a match's end as findall goes on, so that the matches are
    findall's own. A match tried at a position sees the text before it,
    as its look-behinds and word bounds need."""
    starts = []
    for head in heads:
        at = text.find(head)
        while at >= 0:
            starts.append(at)
            at = text.find(head, at + 1)
    n = end = 0
    for at in sorted(starts):
        if at >= end:
            found = rx.match(text, at)
            if found is not None:
                n += 1
                end = found.end()
    return n


def row(found: dict[str, float]) -> np.ndarray:
    """The classifier's input row of a page's `signals`: NaN for what a
    page has none of (path groups on a page of no block)."""
    return np.array([found.get(name, np.nan) for name in SIGNALS], dtype=np.float64)
