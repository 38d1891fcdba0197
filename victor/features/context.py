"""What several feature families need from a page, computed at most once.

Families read these shared per-block numbers instead of counting words,
sentences or links again; each is computed on first use, so a config that
selects few features pays for few statistics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from victor.blocks import Block
from victor.config import Config
from victor.page import Page
from victor.tidy import Element

from victor.features.tags import BLOCK_LEVEL, CONTAINERS
from victor.features.textstats import TextStats, text_stats

# What a family's raw column holds, which says how it is discretised.
BINARY = "binary"  # 0/1
COUNT = "count"  # a number mapped by the config's `values` list
RATIO = "ratio"  # a share in [0, 1] mapped by the config's `scales` steps
CATEGORY = "category"  # a string from a small set
BAG = "bag"  # space-separated items

# --- container paths ------------------------------------------------------

def _container_bits() -> dict[str, int]:
    bits: dict[str, int] = {}
    for i, tags in enumerate(CONTAINERS.values()):
        for tag in tags:
            bits[tag] = bits.get(tag, 0) | 1 << i
    return bits


_CONTAINER_BITS = _container_bits()
LINK_BIT = 1 << list(CONTAINERS).index("a")


_PIECE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
_NO_WORDS: frozenset[str] = frozenset()


@dataclass(slots=True)
class Paths:
    """What the features need to know of the elements each block sits in."""
    masks: list[int]  # bit i: a container of the i-th CONTAINERS class
    nearest: list[Element | None]  # the innermost block-level container
    class_words: list[frozenset[str]]  # words of the containers' class and id


def paths(blocks: list[Block], class_words: bool) -> Paths:
    """The Paths of all blocks, built element by element.

    An element's path is the same for every block inside it, so it is
    computed once per element: a block costs a dictionary look-up, not a
    walk down from <body>. Class words are split only when asked for.
    """
    root = (0, None, _NO_WORDS)
    memo: dict[int, tuple[int, Element | None, frozenset[str]]] = {}
    split: dict[str, frozenset[str]] = {}
    out = []
    for b in blocks:
        path = b.containers
        info = memo.get(id(path[-1])) if path else root
        if info is None:
            k = len(path) - 1
            while k >= 0 and id(path[k]) not in memo:
                k -= 1
            info = memo[id(path[k])] if k >= 0 else root
            for el in path[k + 1:]:
                mask, nearest, words = info
                tag = el.tag
                mask |= _CONTAINER_BITS.get(tag, 0)
                if tag in BLOCK_LEVEL:
                    nearest = el
                if class_words and ("class" in el.attrs or "id" in el.attrs):
                    names = f"{el.attrs.get('class', '')} {el.attrs.get('id', '')}"
                    own = split.get(names)
                    if own is None:
                        own = split[names] = frozenset(
                            w.lower() for w in _PIECE.findall(names) if len(w) > 1)
                    words = words | own
                info = memo[id(el)] = (mask, nearest, words)
        out.append(info)
    masks, nearest, words = zip(*out) if out else ((), (), ())
    return Paths(list(masks), list(nearest), list(words))


@dataclass(slots=True)
class GroupWords:
    """Words of each div (td) group: blocks whose nearest enclosing div (td)
    is the same element; -1 gathers the blocks outside any."""
    of_block: list[int]  # the group of each block
    total: dict[int, int]  # all words of the group
    unlinked: dict[int, int]  # words of the group not inside <a>
    page_unlinked: int


class Context:
    """A page on its way to features: the blocks, the config, the selected
    feature names, and the statistics shared by the families."""

    def __init__(self, page: Page, config: Config, names: tuple[str, ...],
                 lm: Any = None) -> None:
        self.page = page
        self.config = config
        self.names = names  # the selected features
        self.lm = lm
        self.blocks = page.blocks
        self.texts = [b.text for b in page.blocks]

    @cached_property
    def text(self) -> TextStats:
        """Characters, tokens, words and sentence ends of every block."""
        return text_stats(self.texts)

    @cached_property
    def words(self) -> list[int]:
        return self.text.words.tolist()

    @cached_property
    def sentences(self) -> list[int]:
        """As victor.text.sentences splits them: every sentence end closes
        one, and text after the last end is one more."""
        return (self.text.sentence_ends + ~self.text.ends_sentence).tolist()

    @cached_property
    def paths(self) -> Paths:
        return paths(self.blocks, class_words="class-words" in self.names)

    @cached_property
    def in_link(self) -> list[bool]:
        return [bool(m & LINK_BIT) for m in self.paths.masks]

    @cached_property
    def div_groups(self) -> GroupWords:
        return self._groups([b.div_group for b in self.blocks])

    @cached_property
    def td_groups(self) -> GroupWords:
        return self._groups([b.td_group for b in self.blocks])

    def _groups(self, of_block: list[int]) -> GroupWords:
        total: dict[int, int] = {}
        unlinked: dict[int, int] = {}
        for g, w, linked in zip(of_block, self.words, self.in_link):
            total[g] = total.get(g, 0) + w
            if not linked:
                unlinked[g] = unlinked.get(g, 0) + w
        return GroupWords(of_block, total, unlinked, sum(unlinked.values()))

    @cached_property
    def div_ratios(self) -> dict[int, float]:
        return _ratios(self.div_groups)

    @cached_property
    def td_ratios(self) -> dict[int, float]:
        return _ratios(self.td_groups)


def _ratios(groups: GroupWords) -> dict[int, float]:
    """Each group's share of the page's words outside links (thesis 4.2:
    menus are links, so their groups weigh little)."""
    whole = groups.page_unlinked
    return {g: groups.unlinked.get(g, 0) / whole if whole else 0.0 for g in groups.total}
