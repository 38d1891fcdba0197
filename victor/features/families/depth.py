"""depth (extra): how many elements the block sits in. Content tends to sit
at one depth of a page's layout, boilerplate at others."""

from __future__ import annotations

from victor.features.context import COUNT, Context

FEATURES = {"depth": COUNT}


def compute(ctx: Context) -> dict[str, list]:
    return {"depth": [len(b.containers) for b in ctx.blocks]}
