"""class-words (extra): the words web developers put into the class and id
attributes of the block's containers ("nav", "sidebar", "comment",
"article", "footer"): layout intent spelt out, as SemText uses it. A bag:
the sorted distinct words, space-separated.

Attributes are split on camelCase, "-", "_", spaces and digits and
lower-cased ("ScrollSpy_container2" -> scroll spy container); one-letter
pieces carry no meaning and are dropped. The splitting is done with the
other container facts in context.paths.
"""

from __future__ import annotations

from victor.features.context import BAG, Context

FEATURES = {"class-words": BAG}


def compute(ctx: Context) -> dict[str, list]:
    text: dict[frozenset[str], str] = {}
    out = []
    for bag in ctx.paths.class_words:
        s = text.get(bag)
        if s is None:
            s = text[bag] = " ".join(sorted(bag))
        out.append(s)
    return {"class-words": out}
