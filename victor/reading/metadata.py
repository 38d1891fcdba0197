"""What a page says about itself outside its text: address, title, language,
description, author, date and site name, from `<meta>` and `<link>` tags,
the `<html lang>` attribute and JSON-LD (`<script type="application/ld+json">`).

Read from the parsed tree before preclean, which drops `<head>`, `<meta>`
and `<script>`. Tags win over JSON-LD where both say something: they are
what the page shows to browsers and link previews, while JSON-LD is more
often copied from a template. `structured_text` keeps the text the page
declares for its main content (JSON-LD articleBody, text and description,
and og:description), for features that compare blocks with it.

This runs on every page, so it makes no walk of its own (see `TAGS`) and
parses JSON only inside JSON-LD scripts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from victor.reading.parser import Element


@dataclass(slots=True)
class PageMeta:
    url: str = ""  # the canonical link or og:url
    title: str = ""
    language: str = ""
    description: str = ""
    author: str = ""
    date: str = ""  # as the page writes it: mostly ISO 8601
    site_name: str = ""
    structured_text: list[str] = field(default_factory=list)
    # What the page says it is: its og:type, and every schema.org type it
    # declares (JSON-LD `@type`s, nested ones too, and microdata
    # `itemtype`s), lower case, once for each time it is declared. The page
    # type's signals read them (victor/page_type/).
    og_type: str = ""
    declared_types: list[str] = field(default_factory=list)

    def fields(self) -> dict[str, str]:
        """The fields a person reads, for output records."""
        return {"language": self.language, "description": self.description,
                "author": self.author, "date": self.date, "site_name": self.site_name}


# <meta name|property|itemprop=KEY content=...> -> field, in order of trust:
# an earlier key wins over a later one for the same field.
_META_KEYS: dict[str, tuple[str, ...]] = {
    "url": ("og:url",),
    "title": ("og:title", "twitter:title"),
    "description": ("description", "og:description", "twitter:description",
                    "dc.description", "dcterms.description"),
    "author": ("author", "article:author", "dc.creator", "dcterms.creator", "byl",
               "sailthru.author", "parsely-author"),
    "date": ("article:published_time", "datepublished", "date", "pubdate", "publishdate",
             "publish-date", "dc.date", "dcterms.date", "dc.date.issued", "dcterms.created",
             "sailthru.date", "parsely-pub-date", "og:published_time", "article:modified_time",
             "datemodified"),
    "site_name": ("og:site_name", "application-name"),
    "language": ("og:locale", "content-language", "language", "dc.language"),
}
_FIELD_OF = {key: (name, rank) for name, keys in _META_KEYS.items()
             for rank, key in enumerate(keys)}
_STRUCTURED_KEYS = ("articleBody", "text", "description")
# JSON-LD objects that describe the site, or a person or picture, not the
# page: a site's or author's description is no text of the page's own.
_SITE_TYPES = frozenset({"WebSite", "Organization", "NewsMediaOrganization", "Corporation"})
_OTHER_TYPES = frozenset({"Person", "ImageObject", "BreadcrumbList", "SiteNavigationElement",
                          "WPHeader", "WPFooter", "WPSideBar"})
# JSON-LD is parsed only in scripts no bigger than this: a megabyte of
# structured data is a data dump, not a description of the page.
_MAX_JSON = 1_000_000


# The tags metadata is read from. Preclean hands these over from the walk
# it makes anyway (victor/reading/preclean.py): a walk of its own would cost a
# third as much again as the rest of reading a page. It hands over any
# element with an `itemtype` (ITEMTYPE) too: microdata declares its types
# on whatever element it likes.
TAGS = frozenset({"meta", "link", "script", "title"})
ITEMTYPE = "itemtype"


def read_meta(language: str, elements: list[Element]) -> PageMeta:
    """The metadata declared by `elements` (tags of `TAGS`, the head's
    first) on a page whose `<html lang>` is `language`; empty strings where
    the page declares nothing. Where two tags of the same key disagree,
    the first wins."""
    meta = PageMeta(language=_clean(language))
    found: dict[str, tuple[int, str]] = {}  # field -> (rank of its key, value)
    title = og_description = ""
    for el in elements:
        tag = el.tag
        attrs = el.attrs
        if ITEMTYPE in attrs:
            meta.declared_types.extend(_type_name(t) for t in attrs[ITEMTYPE].split())
        if tag == "meta":
            key = (attrs.get("property") or attrs.get("name") or attrs.get("itemprop")
                   or attrs.get("http-equiv") or "").strip().lower()
            content = attrs.get("content")
            if not key or content is None:
                continue
            if key == "og:description":
                og_description = _clean(content)
            elif key == "og:type" and not meta.og_type:
                meta.og_type = _clean(content).lower()
            where = _FIELD_OF.get(key)
            if where is not None:
                name, rank = where
                value = _clean(content)
                if name == "author" and value.startswith(("http://", "https://")):
                    continue  # article:author is often a profile address, not a name
                if value and (name not in found or rank < found[name][0]):
                    found[name] = (rank, value)
        elif tag == "link":
            href = _clean(attrs.get("href", ""))
            if href and "canonical" in attrs.get("rel", "").lower().split():
                found["url"] = (-1, href)  # beats og:url
        elif tag == "script":
            if attrs.get("type", "").strip().lower() == "application/ld+json":
                for item in _json_items("".join(c for c in el.children if isinstance(c, str))):
                    _types(item, meta.declared_types)
                    _take_json(meta, item)
        elif tag == "title" and not title:
            title = _clean("".join(c for c in el.children if isinstance(c, str)))
    # Tags beat JSON-LD, which filled in what it could above.
    for name, (_, value) in found.items():
        if name != "language" or not _clean(language):  # <html lang> beats all
            setattr(meta, name, value)
    if title:
        meta.title = title
    if og_description and og_description not in meta.structured_text:
        meta.structured_text.append(og_description)
    return meta


def _json_items(script: str) -> list[dict[str, Any]]:
    """The top-level objects of a JSON-LD script: the script's object, the
    items of its list, or of its @graph. Nested objects (an article's
    author) are read through their parent, so that an author's description
    is never taken for the page's. Broken JSON gives nothing."""
    text = script.strip()
    if not text or len(text) > _MAX_JSON:
        return []
    if text.startswith(("<!--", "<![CDATA[")):
        text = text.removeprefix("<!--").removeprefix("<![CDATA[")
        text = text.removesuffix("-->").removesuffix("]]>").strip()
    try:
        data = json.loads(text, strict=False)  # strict=False: raw newlines in strings
    except (ValueError, RecursionError):
        return []
    items = data if isinstance(data, list) else [data]
    out: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, dict):
            graph = item.get("@graph")
            if isinstance(graph, list):
                out.extend(g for g in graph if isinstance(g, dict))
            else:
                out.append(item)
    return out


def _take_json(meta: PageMeta, item: dict[str, Any]) -> None:
    given = item.get("@type")
    # Only strings are types; the page's JSON may put anything there.
    types = {t for t in (given if isinstance(given, list) else [given]) if isinstance(t, str)}
    if types & _SITE_TYPES:
        if not meta.site_name:
            meta.site_name = _name(item.get("name"))
        return
    if types & _OTHER_TYPES:
        return
    for key in _STRUCTURED_KEYS:
        value = item.get(key)
        if isinstance(value, str):
            value = _clean(value)
            if value and value not in meta.structured_text:
                meta.structured_text.append(value)
    if not meta.title:
        meta.title = _name(item.get("headline"))
    if not meta.description:
        meta.description = _name(item.get("description"))
    if not meta.author:
        meta.author = _name(item.get("author"))
    if not meta.date:
        meta.date = _name(item.get("datePublished")) or _name(item.get("dateCreated"))
    if not meta.site_name:
        meta.site_name = _name(item.get("publisher"))
    if not meta.language:
        meta.language = _name(item.get("inLanguage"))


def _type_name(given: str) -> str:
    """A schema.org type as its bare name: `https://schema.org/NewsArticle`
    and `NewsArticle` are both `newsarticle`."""
    return given.strip().rstrip("/").rsplit("/", 1)[-1].lower()


def _types(value: Any, into: list[str], depth: int = 0) -> None:
    """Every `@type` in a JSON-LD item, its nested objects' too (a
    product's offers and rating, an article's author): what kind of page
    it is shows in them as well. A few levels deep only, and a few hundred
    types at most, as the JSON is the page's."""
    if depth > 5 or len(into) > 500:
        return
    if isinstance(value, dict):
        given = value.get("@type")
        for t in (given if isinstance(given, list) else [given]):
            if isinstance(t, str) and t.strip():
                into.append(_type_name(t))
        for key, inner in value.items():
            if key != "@type" and isinstance(inner, (dict, list)):
                _types(inner, into, depth + 1)
    elif isinstance(value, list):
        for inner in value[:100]:
            _types(inner, into, depth + 1)


def _name(value: Any, depth: int = 0) -> str:
    """A JSON-LD value as text: a string, an object's name, or the names
    of a list joined (several authors). Nesting is followed only a few
    levels: the JSON is the page's, and may be built to be deep."""
    if isinstance(value, str):
        return _clean(value)
    if depth > 3:
        return ""
    if isinstance(value, dict):
        return _name(value.get("name"), depth + 1)
    if isinstance(value, list):
        names = [n for n in (_name(v, depth + 1) for v in value[:20]) if n]
        return ", ".join(dict.fromkeys(names))
    return ""


def _clean(text: str) -> str:
    return " ".join(text.split())
