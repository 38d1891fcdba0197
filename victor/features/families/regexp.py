"""regexp.*: language-specific patterns from the config (thesis 4.2):
dates and times (CleanEval marks date lines as headers) and URLs
(usually noise). The value is the number of the first pattern found in
the block, 0 for none.

Only blocks of at most MAX_LENGTH characters are searched: the lines these
patterns are for (a dateline, a byline with a time, an address) are short,
while in a paragraph a date is incidental; and searching the paragraphs
would cost more than all the other features together.
"""

from __future__ import annotations

from itertools import repeat

from victor.features.context import CATEGORY, Context

NAMES = ("url", "date", "time")
FEATURES = {f"regexp.{name}": CATEGORY for name in NAMES}
MAX_LENGTH = 120


def compute(ctx: Context) -> dict[str, list]:
    short = {t for t in ctx.texts if len(t) <= MAX_LENGTH}
    out: dict[str, list] = {}
    for name in NAMES:
        value: dict[str, str] = {}
        left = short  # distinct texts no earlier pattern matched
        for i, pattern in enumerate(ctx.config.regexp.get(name, ()), 1):
            found = list(filter(pattern.search, left))
            if found:
                value.update(dict.fromkeys(found, str(i)))
                left = left.difference(found)
        out[f"regexp.{name}"] = list(map(value.get, ctx.texts, repeat("0")))
    return out
