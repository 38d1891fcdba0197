"""Which stretches of a training page the CRF learns from.

Most blocks of a page are boilerplate (`o`), most of them in long runs far
from any content: menus, footers, link lists, comment threads. Every block
costs training time alike, but a far `o` block teaches little that its
neighbours in the run do not. So a page can be trained on in stretches:
every block within `near` of a content block, and a seeded share of the
`chunk`-block pieces of the runs beyond. The template is expanded over the
whole page first, so a kept block sees its real neighbours; each stretch is
a sequence of its own. Learning from none of the far runs costs Dragnet's
comment threads (docs/notes/general.md), hence a share of them.
"""

from __future__ import annotations

import random
from typing import Sequence

from victor.labels import OTHER

NEAR = 10
CHUNK = 20


def stretches(labels: Sequence[str], share: float, rng: random.Random,
              near: int = NEAR, chunk: int = CHUNK) -> list[tuple[int, int]]:
    """(start, end) of the runs of blocks to train on, in page order; the
    whole page when `share` is 1 or the page has no content block."""
    n = len(labels)
    content = [i for i, label in enumerate(labels) if label != OTHER]
    if share >= 1 or not content:
        return [(0, n)] if n else []
    keep = [False] * n
    for i in content:
        for j in range(max(0, i - near), min(n, i + near + 1)):
            keep[j] = True
    for start, end in _runs(keep, False):
        for piece in range(start, end, chunk):
            if rng.random() < share:
                keep[piece:min(piece + chunk, end)] = [True] * (min(piece + chunk, end) - piece)
    return _runs(keep, True)


def _runs(flags: list[bool], value: bool) -> list[tuple[int, int]]:
    out, i, n = [], 0, len(flags)
    while i < n:
        if flags[i] != value:
            i += 1
            continue
        j = i
        while j < n and flags[j] == value:
            j += 1
        out.append((i, j))
        i = j
    return out
