"""container.*: 1 when any element the block sits in is that element or of
that class (thesis 4.1): a block in <h2> is likely a header, one in <li>
a list item."""

from __future__ import annotations

from victor.features.context import BINARY, Context
from victor.features.tags import CONTAINERS

FEATURES = {f"container.{name}": BINARY for name in CONTAINERS}


def compute(ctx: Context) -> dict[str, list]:
    return {name: ctx.masks >> i & 1 for i, name in enumerate(FEATURES)}
