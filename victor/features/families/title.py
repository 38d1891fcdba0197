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
    # Most blocks share no word with the title: one set operation in C
    # tells, and only the others count their words one by one.
    for ws in ctx.word_lists:
        common = title.intersection(ws)
        if common:
            in_title.append(sum(map(common.__contains__, ws)) / len(ws))
            of_title.append(len(common) / size)
        else:
            in_title.append(0.0)
            of_title.append(0.0)
    return {"title.in-title": in_title, "title.of-title": of_title}
