"""token.*: whitespace-separated tokens by class, counts (-abs) and shares
(-rel) (thesis 4.2): words (letters, no digits), numbers (digits, no
letters), mixtures of both (model names, codes, URLs), and other (no
letter or digit: dashes, bullets, symbols). Punctuation in a token does
not change its class: "world!" is a word, "$12.50" a number."""

from __future__ import annotations

from victor.reading import text
from victor.features.context import COUNT, RATIO, Context

CLASSES = {"alpha": text.WORD_TOKEN, "num": text.NUM_TOKEN,
           "mix": text.MIX_TOKEN, "other": text.OTHER_TOKEN}
FEATURES = {**{f"token.{c}-rel": RATIO for c in CLASSES},
            **{f"token.{c}-abs": COUNT for c in CLASSES}}


def compute(ctx: Context) -> dict[str, list]:
    tokens, total = ctx.text.tokens, ctx.text.token_count
    out: dict[str, list] = {}
    for c, i in CLASSES.items():
        out[f"token.{c}-rel"] = tokens[:, i] / total
        out[f"token.{c}-abs"] = tokens[:, i]
    return out
