"""structured.* (extra): how much of the block the page itself declares as
its main text. Many pages state their content for search engines and link
previews: JSON-LD's articleBody, text or description, og:description
(victor.reading.metadata). A block whose word sequences stand in that text is the
content on any site and in any language; a menu entry never is.

- structured.in-declared: the share of the block's word trigrams found in
  the declared text (a block of two words: 1 when they stand there
  together, else 0; a block of one word: 0, as a lone word says little);
  0 where the page declares nothing.
"""

from __future__ import annotations

from victor.features.context import RATIO, Context
from victor.reading.text import words

FEATURES = {"structured.in-declared": RATIO}
_N = 3


def compute(ctx: Context) -> dict[str, list]:
    declared = [words(t) for t in ctx.page.meta.structured_text] if ctx.page.meta else []
    if not any(declared):
        return {"structured.in-declared": [0.0] * len(ctx.blocks)}
    grams = {tuple(ws[i:i + _N]) for ws in declared for i in range(len(ws) - _N + 1)}
    joined = " " + " | ".join(" ".join(ws) for ws in declared) + " "
    # A block with none of the declared words has none of their n-grams
    # either: one set operation in C tells, for most blocks.
    vocabulary = {w for ws in declared for w in ws}
    out = []
    for ws in ctx.word_lists:
        if vocabulary.isdisjoint(ws):
            out.append(0.0)
        elif len(ws) >= _N:
            out.append(sum(map(grams.__contains__, zip(ws, ws[1:], ws[2:]))) / (len(ws) - 2))
        else:
            out.append(float(len(ws) == 2 and f" {' '.join(ws)} " in joined))
    return {"structured.in-declared": out}
