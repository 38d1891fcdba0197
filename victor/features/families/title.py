"""title.* (extra): how much the block has in common with the page's
<title>. News sites title a page with the article's headline, mostly
followed by the site's name ("Latest Amelia Earhart search falls short -
CBS News"), so the headline block is the one made of title words; a
menu entry that shares one word with it covers little of the title.

- title.in-title: the share of the block's words found in the title;
- title.of-title: the share of the title's words found in the block.
Words are victor.reading.text.words (lower-case); both are 0 without a title.
"""

from __future__ import annotations

from victor.features.context import RATIO, Context
from victor.reading.text import words

FEATURES = {"title.in-title": RATIO, "title.of-title": RATIO}


def compute(ctx: Context) -> dict[str, list[float]]:
    title = set(words(ctx.page.title))
    n = len(ctx.texts)
    if not title:
        return {"title.in-title": [0.0] * n, "title.of-title": [0.0] * n}
    in_title, of_title = [], []
    size = len(title)
    for ws in ctx.word_lists:
        hits = [w for w in ws if w in title]  # the title's words among the block's
        in_title.append(len(hits) / len(ws) if ws else 0.0)
        of_title.append(len(set(hits)) / size)
    return {"title.in-title": in_title, "title.of-title": of_title}
