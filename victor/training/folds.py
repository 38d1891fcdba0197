"""Cross-validation folds that keep each web site on one side.

Pages of one site share a template: the same menus, footers and class
names. With a site's pages on both sides of a fold the model is tested on
a template it has learnt, and the figures say little about pages of sites
it has never seen, which is what a cleaner meets. So pages are grouped by
site, whole groups are dealt to folds, and the dealing is stratified: each
fold gets a share of every collection and every page type, so that no fold
tests one kind of page with a model that has seen none of it.
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence
from urllib.parse import urlsplit

from victor.errors import VictorError

# How folds split the pages: each web site on one side, or pages regardless of site.
SPLITS = ("site", "page")
# The folds `victor learn` calibrates on and trains the second pass's trees
# from (victor/training/pipeline.py).
DEFAULT_FOLDS = 5

@dataclass(frozen=True)
class PageGroup:
    """Where a page belongs when folds are made."""

    site: str  # the host, or the page's own name when no address is known
    stratum: str  # collection, and page type where the collection says


def host(url: str) -> str:
    """The web site of an address: its host without `www.`."""
    try:
        netloc = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return ""
    return netloc.lower().removeprefix("www.")


def page_group(anno_path: str | Path, url: str, declared: str = "") -> PageGroup:
    """The site is the host of the annotation's address (CleanEval's
    `<text id>`, WCXB's metadata), else of the address the page declares
    (`declared`: its canonical link or og:url, victor.reading.metadata);
    a page with neither is a group of its own. The stratum is the folder
    the annotation is in (the collection), with WCXB's `page_type` from
    NAME.json beside it."""
    anno_path = Path(anno_path)
    site = host(url) or host(declared) or f"page:{anno_path}"
    stratum = anno_path.parent.name
    meta = anno_path.with_suffix(".json")
    if meta.exists():
        try:
            kind = json.loads(meta.read_text(encoding="utf-8")).get("page_type")
        except (OSError, ValueError, AttributeError):
            kind = None
        if isinstance(kind, str):
            stratum += f"/{kind}"
    return PageGroup(site, stratum)


def page_folds(n: int, k: int, seed: int = 0) -> list[list[int]]:
    """Pages dealt to k folds after a seeded shuffle, sites ignored: the old
    ruler, kept for comparison (`--split page`)."""
    _check(n, k)
    order = list(range(n))
    random.Random(seed).shuffle(order)
    return [sorted(order[i::k]) for i in range(k)]


def site_folds(groups: Sequence[PageGroup], k: int, seed: int = 0) -> list[list[int]]:
    """Page indices of each of k folds, every site in exactly one fold.

    A site goes to the stratum most of its pages are in. Within a stratum,
    sites are dealt largest first (ties in seeded random order) to the fold
    that has the fewest pages of that stratum so far, then the fewest pages
    in all: folds come out about equal in size and in their mix of
    collections and page types."""
    _check(len(groups), k)
    pages_of: dict[str, list[int]] = defaultdict(list)
    for i, g in enumerate(groups):
        pages_of[g.site].append(i)
    if len(pages_of) < k:
        raise VictorError(f"{k} site folds: the pages come from only {len(pages_of)} "
                          "web sites; use fewer folds (--cross-validate K, --calibrate K) "
                          "or --split page")
    by_stratum: dict[str, list[str]] = defaultdict(list)
    for site, pages in pages_of.items():
        stratum = Counter(groups[i].stratum for i in pages).most_common(1)[0][0]
        by_stratum[stratum].append(site)
    rng = random.Random(seed)
    folds: list[list[int]] = [[] for _ in range(k)]
    for stratum in sorted(by_stratum):
        sites = sorted(by_stratum[stratum])
        rng.shuffle(sites)
        sites.sort(key=lambda s: len(pages_of[s]), reverse=True)  # stable: ties stay shuffled
        in_stratum = [0] * k
        for site in sites:
            f = min(range(k), key=lambda j: (in_stratum[j], len(folds[j]), j))
            folds[f].extend(pages_of[site])
            in_stratum[f] += len(pages_of[site])
    return [sorted(f) for f in folds]


def _check(n: int, k: int) -> None:
    if not 2 <= k <= n:
        raise VictorError(f"folds (--cross-validate K, --calibrate K): between 2 and {n} for "
                          f"{n} pages, not {k}")
