"""duplicate-count, first-duplicate (thesis 4.2): noise repeats ("read
more", "permalink", a quoted post), and the first of a repeated group is
often the original.

Blocks are the same when their letters are, case aside; blocks without
letters ("|", "1") are compared on their characters, so that page numbers
are not all duplicates of each other.
"""

from __future__ import annotations

from victor.features.context import BINARY, COUNT, Context

FEATURES = {"first-duplicate": BINARY, "duplicate-count": COUNT}
EXTRA = None

def compute(ctx: Context) -> dict[str, list]:
    keys = [(letters or t.replace(" ", "")).lower()
            for letters, t in zip(ctx.text.letters, ctx.texts)]
    count: dict[str, int] = {}
    for k in keys:
        count[k] = count.get(k, 0) + 1
    seen: set[str] = set()
    first = []
    for k in keys:
        first.append(int(count[k] > 1 and k not in seen))
        seen.add(k)
    return {"first-duplicate": first, "duplicate-count": [count[k] for k in keys]}
