"""duplicate-count, first-duplicate (thesis 4.2): noise repeats ("read
more", "permalink", a quoted post), and the first of a repeated group is
often the original.

Blocks are the same when their letters are, case aside; blocks without
letters ("|", "1") are compared on their characters, so that page numbers
are not all duplicates of each other.
"""

from __future__ import annotations

from collections import Counter

from victor.features.context import BINARY, COUNT, Context

FEATURES = {"first-duplicate": BINARY, "duplicate-count": COUNT}

def compute(ctx: Context) -> dict[str, list]:
    keys = [(letters or t.replace(" ", "")).lower()
            for letters, t in zip(ctx.text.letters, ctx.texts)]
    count = Counter(keys)
    # Each key to the index of its first block: later blocks are written
    # first, so the earliest is written last.
    first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))
    return {"first-duplicate": [count[k] > 1 and first[k] == i for i, k in enumerate(keys)],
            "duplicate-count": list(map(count.__getitem__, keys))}
