"""path.* (extra): what the blocks that sit where this block sits have in
common: the same elements with the same classes from <body> down.
Templates repeat: every post of a forum, every entry of a blog, every
paragraph of an article sits on one path, every entry of a menu on
another. A div group (groups.py) sees one post at a time and finds it
small; the path sees all posts together and finds them the bulk of the
page, while a menu stays small however many entries it has. The errors
of a cleaner are mostly whole paths kept or dropped (docs/notes/results.md), so
the path is described as a whole:

- path.word-share: the share of the page's words, outside links, held by
  the path's blocks;
- path.link-density: the share of the path's words inside links;
- path.blocks: how many blocks sit on the path;
- path.avg-words: the words of its average block;
- path.span: the share of the page's blocks from the path's first block
  to its last (a menu is a narrow run, a thread's posts span the page);
- path.text-share: the share of its blocks that are running text, as
  nearest-text counts it.

The paths are numbered with the other container facts in context.paths;
ids are left out of them, as they are often numbered per post
(`post-1093`) and would make every post a path of its own.
"""

from __future__ import annotations

import numpy as np

from victor.features.context import COUNT, RATIO, Context
from victor.features.families.nearest_text import TEXT_WORDS

FEATURES = {"path.word-share": RATIO, "path.link-density": RATIO, "path.blocks": COUNT,
            "path.avg-words": COUNT, "path.span": RATIO, "path.text-share": RATIO}


def compute(ctx: Context) -> dict[str, np.ndarray]:
    paths = ctx._groups(ctx.paths.templates)
    of = paths.of_block
    n = len(of)
    blocks = np.bincount(of)
    linked = paths.words - paths.unlinked
    text = np.bincount(of, weights=ctx.words * ~ctx.in_link >= TEXT_WORDS)
    first, last = np.full(len(blocks), n), np.full(len(blocks), -1)
    np.minimum.at(first, of, np.arange(n))
    np.maximum.at(last, of, np.arange(n))
    with np.errstate(invalid="ignore", divide="ignore"):
        link_density = np.where(paths.words > 0, linked / paths.words, 0.0)
        avg_words = paths.words / np.maximum(blocks, 1)
        text_share = text / np.maximum(blocks, 1)
    return {"path.word-share": paths.ratio[of], "path.link-density": link_density[of],
            "path.blocks": blocks[of].astype(float), "path.avg-words": avg_words[of],
            "path.span": ((last - first + 1) / n)[of], "path.text-share": text_share[of]}
