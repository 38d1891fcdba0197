"""char.*: the block's characters by class, as counts (-abs) and as shares
of the block's length (-rel) (thesis 4.2). Running text is mostly letters
and spaces; dates, prices and menus of symbols are not.

Classes: letters (str.isalpha), decimal digits, Unicode punctuation (P*,
which includes "_", "#", "@" and "&"), whitespace, and other (symbols
such as "$", "|", "©", marks, ...).
"""

from __future__ import annotations

from victor.reading import text
from victor.features.context import COUNT, RATIO, Context

CLASSES = {"alpha": text.ALPHA, "num": text.NUM, "punct": text.PUNCT,
           "white": text.WHITE, "other": text.OTHER}
FEATURES = {**{f"char.{c}-rel": RATIO for c in CLASSES},
            **{f"char.{c}-abs": COUNT for c in CLASSES}}


def compute(ctx: Context) -> dict[str, list]:
    chars = ctx.text.chars
    lengths = chars.sum(axis=1)
    out: dict[str, list] = {}
    for c, i in CLASSES.items():
        out[f"char.{c}-rel"] = chars[:, i] / lengths
        out[f"char.{c}-abs"] = chars[:, i]
    return out
