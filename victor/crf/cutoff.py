"""Which feature values the CRF may learn from: those seen on enough sites.

A bag such as the class words holds whatever names a site's developers
chose. A word that only one training site uses lets the CRF explain that
site's labels by its own vocabulary, and the weight it gets there is
weight the signals that hold on every site do not get. A page of a site
never seen brings words the model does not know, so nothing is learnt
from such words that could be used. With `min-sites: N` an item (a bag's
word, or a single feature value) that fewer than N training sites show is
left out of training; at cleaning time the model knows no such item and
passes it over, so tagging needs no vocabulary of its own.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Mapping, Sequence

Rare = Mapping[str, frozenset[str]]  # feature name -> the items left out


def rare_items(pages: Sequence[Sequence[dict[str, str]]], sites: Sequence[str],
               min_sites: int) -> Rare:
    """The items of each feature that fewer than `min_sites` of the pages'
    sites show (each page's site is `sites[i]`)."""
    if min_sites <= 1:
        return {}
    seen: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for blocks, site in zip(pages, sites):
        if not blocks:
            continue
        items = seen[site]
        for name in frozenset().union(*blocks):
            for value in {d.get(name) for d in blocks}:
                if value:
                    items.update((name, item) for item in value.split())
    counts: Counter[tuple[str, str]] = Counter()
    for items in seen.values():
        counts.update(items)
    rare: dict[str, set[str]] = defaultdict(set)
    for (name, item), n in counts.items():
        if n < min_sites:
            rare[name].add(item)
    return {name: frozenset(items) for name, items in rare.items()}


def without(blocks: Sequence[dict[str, str]], rare: Rare) -> Sequence[dict[str, str]]:
    """The blocks' feature dicts with the rare items taken out (a dict is
    copied only where it changes; a value left empty is dropped)."""
    if not rare:
        return blocks
    out = []
    for d in blocks:
        changed = None
        for name, drop in rare.items():
            value = d.get(name)
            if not value:
                continue
            items = value.split()
            kept = [item for item in items if item not in drop]
            if len(kept) != len(items):
                if changed is None:
                    changed = dict(d)
                if kept:
                    changed[name] = " ".join(kept)
                else:
                    del changed[name]
        out.append(d if changed is None else changed)
    return out
