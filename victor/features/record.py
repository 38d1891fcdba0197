"""record.* (extra): the repeated unit a block belongs to, seen whole: a
listing's card, a forum's post, a product's specification row. Such a
unit is an element with at least RECORD_SIBLINGS siblings of its own tag
and class under one parent, holding at least two blocks; a block's record
is the innermost such element around it. The path family sees the card's
title, link and date each on its own path, where a listing's titles look
like a menu (every word in a link); the record sees the card, whose words
are not all links, beside its siblings:

- record.siblings: how many records the group has (0: the block is in
  none);
- record.word-share: the share of the page's words, outside links, held
  by the whole group;
- record.link-density: the share of the group's words inside links;
- record.avg-words: the words of its average record.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from victor.features.context import COUNT, RATIO, Context
from victor.tidy import Element

FEATURES = {"record.siblings": COUNT, "record.word-share": RATIO,
            "record.link-density": RATIO, "record.avg-words": COUNT}
EXTRA = "record"

RECORD_SIBLINGS = 3


def _signature(el: Element) -> tuple[str, str]:
    return el.tag, el.attrs.get("class", "") if el.attrs else ""


def compute(ctx: Context) -> dict[str, np.ndarray]:
    words = ctx.words
    unlinked = words * ~ctx.in_link
    # Blocks and words under each element on some block's path.
    blocks: Counter[int] = Counter()
    total: Counter[int] = Counter()
    free: Counter[int] = Counter()
    for b, w, u in zip(ctx.blocks, words.tolist(), unlinked.tolist()):
        for el in b.containers:
            blocks[id(el)] += 1
            total[id(el)] += w
            free[id(el)] += u
    # Each element's group, as (records, words, words outside links) of the
    # parent's children with its signature; None where it is no record.
    page_free = float(unlinked.sum())
    groups: dict[tuple[int, tuple[str, str]], tuple[int, float, float]] = {}
    records: dict[int, tuple[int, float, float] | None] = {}

    def record(parent: Element, el: Element) -> tuple[int, float, float] | None:
        if blocks[id(el)] < 2:
            return None
        key = (id(parent), _signature(el))
        found = groups.get(key)
        if found is None:
            members = [id(c) for c in parent.children
                       if isinstance(c, Element) and _signature(c) == key[1]]
            found = groups[key] = (len(members), sum(total[m] for m in members),
                                   sum(free[m] for m in members))
        return found if found[0] >= RECORD_SIBLINGS else None

    n = len(ctx.blocks)
    out = np.zeros((4, n))
    for i, b in enumerate(ctx.blocks):
        path = b.containers
        for k in range(len(path) - 1, 0, -1):
            el = path[k]
            if id(el) not in records:
                records[id(el)] = record(path[k - 1], el)
            found = records[id(el)]
            if found is not None:
                count, w, f = found
                out[:, i] = (count, f / page_free if page_free else 0.0,
                             (w - f) / w if w else 0.0, w / count)
                break
    return dict(zip(FEATURES, out))
