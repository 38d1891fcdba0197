"""What several feature families need from a page, computed at most once.

Families read these shared per-block numbers instead of counting words,
sentences or links again; each is computed on first use, so a config that
selects few features pays for few statistics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from victor.reading.blocks import Block
from victor.reading.page import Page
from victor.reading.parser import Element

from victor.compiled import twin
from victor.features.tags import BLOCK_LEVEL, CONTAINERS
from victor.reading.text import TextStats, text_stats, words

if TYPE_CHECKING:  # for type hints only: a stage imported alone loads no config
    from victor.config import Config

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
    # The number (`elements` below) of the innermost block-level
    # container, -1 where there is none.
    nearest: list[int]
    class_words: list[frozenset[str]]  # words of the containers' class and id
    # The number of the distinct path of (tag, class) pairs from <body>
    # down, -1 directly in <body>: path.py's template positions.
    templates: list[int]
    # The same with each element's kind (`kind` below) for its class:
    # kind.py's groups.
    kinds: list[int]
    # semantic.py's bits of each block, carried down its containers; None
    # where no semantic feature is selected.
    semantic: list[int] | None
    # The containers' tree: the elements blocks sit in, numbered as the
    # blocks first meet them (a parent before its children), each one's
    # parent's number (-1: <body>), and each block's innermost
    # container's number (-1: straight in <body>).
    elements: list[Element]
    parents: list[int]
    inner: list[int]


def class_pieces(names: str) -> frozenset[str]:
    """The words of a class and id attribute's value: split on camelCase,
    "-", "_", spaces and digits, lower-cased, one-letter pieces dropped
    ("ScrollSpy_container2": scroll, spy, container)."""
    return frozenset(w.lower() for w in _PIECE.findall(names) if len(w) > 1)


@lru_cache(maxsize=16384)
def kind(classes: str) -> str:
    """What an element is, by its first two class names without a digit.
    The items of a shop's grid or a blog's comment thread each add classes
    of their own (`post-15859`, `first`, `instock`, `even`) after the ones
    that say what they are. Sites repeat their class names from page to
    page: the answer is kept for the next page, and the page is mostly new
    all the same. In ASCII a digit is 0 to 9, which one search of the
    whole attribute tells for most, where str.isdigit took a call a
    character."""
    names = classes.split()
    if classes.isascii():
        if _ASCII_DIGIT.search(classes) is None:
            return " ".join(names[:2])
        return " ".join([c for c in names if _ASCII_DIGIT.search(c) is None][:2])
    return " ".join([c for c in names if not any(map(str.isdigit, c))][:2])


_ASCII_DIGIT = re.compile("[0-9]")


def paths(blocks: list[Block], class_words: bool,
          own_bits: Callable[[Element], int] | None = None) -> Paths:
    """The Paths of all blocks, built element by element.

    An element's path is the same for every block inside it, so it is
    computed once per element: a block costs a dictionary look-up, not a
    walk down from <body>. Class words are split only when asked for, and
    the bits `own_bits` gives each element (semantic.py's) carried down
    the path only when it is given: one walk for every family that reads
    the containers' tags and attributes. The walk numbers the elements as
    it meets them, a parent before its children, and keeps their tree as
    flat lists (Paths.elements, parents, inner), which the families that
    sum words up the tree (candidate.*, Context.words_below) read instead
    of walking every block's containers again.
    """
    # Each element's (mask, nearest, words, template, bits) at its number
    # plus one; <body>'s first.
    infos: list[tuple[int, int, frozenset[str], int, int]] = [(0, -1, _NO_WORDS, -1, 0)]
    # Elements compare and hash by identity (Element has eq=False).
    number: dict[Element, int] = {}
    elements: list[Element] = []
    parents: list[int] = []
    inner: list[int] = []
    split: dict[str, frozenset[str]] = {}
    # A page's repeated paths add the same class and id to the same words:
    # the words below such a step are looked up by the three at once.
    below: dict[tuple[frozenset[str], str, str], frozenset[str]] = {}
    templates: dict[tuple[int, str, str], int] = {}
    for b in blocks:
        path = b.containers
        last = number.get(path[-1], -2) if path else -1
        if last == -2:
            # The containers not met before are the innermost ones, below
            # the last one met.
            k = len(path) - 1
            while k >= 0 and path[k] not in number:
                k -= 1
            last = number[path[k]] if k >= 0 else -1
            for el in path[k + 1:]:
                mask, nearest, words, template, bits = infos[last + 1]
                parents.append(last)
                last = number[el] = len(elements)
                elements.append(el)
                tag = el.tag
                attrs = el.attrs
                mask |= _CONTAINER_BITS.get(tag, 0)
                if tag in BLOCK_LEVEL:
                    nearest = last
                cls = attrs.get("class", "")
                if class_words and (cls or "id" in attrs):
                    step = (words, cls, attrs.get("id", ""))
                    union = below.get(step)
                    if union is None:
                        names = f"{cls} {step[2]}"
                        own = split.get(names)
                        if own is None:
                            own = split[names] = class_pieces(names)
                        union = below[step] = words if own <= words else words | own
                    words = union
                template = templates.setdefault((template, tag, cls), len(templates))
                if own_bits is not None:
                    bits |= own_bits(el)
                infos.append((mask, nearest, words, template, bits))
        inner.append(last)
    out = [infos[i + 1] for i in inner]
    masks, nearest, words, template_of, bits = zip(*out) if out else ((), (), (), (), ())
    # A template's kind follows from its parent's: one step per distinct
    # path, not per element. The dict keeps insertion order, parents first.
    kind_of_template: list[int] = []
    kinds: dict[tuple[int, str, str], int] = {}
    for parent, tag, classes in templates:
        up = kind_of_template[parent] if parent >= 0 else -1
        kind_of_template.append(kinds.setdefault((up, tag, kind(classes)), len(kinds)))
    return Paths(list(masks), list(nearest), list(words), list(template_of),
                 [kind_of_template[t] if t >= 0 else -1 for t in template_of],
                 list(bits) if own_bits is not None else None, elements, parents, inner)


@dataclass(slots=True)
class Groups:
    """The div (td) groups of a page: blocks whose nearest enclosing div
    (td) is the same element; the blocks outside any form one group too.
    Per-group arrays are indexed by the group numbers in `of_block`."""
    of_block: np.ndarray  # the group of each block
    words: np.ndarray  # all words of each group
    unlinked: np.ndarray  # words of each group not inside <a>
    ratio: np.ndarray  # each group's share of the page's words not inside <a>


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

    @property
    def words(self) -> np.ndarray:
        return self.text.words

    @cached_property
    def word_lists(self) -> list[list[str]]:
        """Each block's words as victor.reading.text.words has them, for
        the families that match them against the page's own words (title,
        declared text): split once a page, not once a family."""
        return [words(t) for t in self.texts]

    @cached_property
    def sentences(self) -> np.ndarray:
        """As victor.reading.text.sentences splits them: every sentence end closes
        one, and text after the last end is one more."""
        return self.text.sentence_ends + ~self.text.ends_sentence

    @cached_property
    def paths(self) -> Paths:
        from victor.features.families import semantic  # which imports this module

        wanted = not semantic.FEATURES.keys().isdisjoint(self.names)
        return paths(self.blocks, class_words="class-words" in self.names,
                     own_bits=semantic.element_bits if wanted else None)

    @cached_property
    def words_below(self) -> tuple[list[int], list[int]]:
        """Each container's words (by its number in `paths`) and those of
        them inside <a>: its blocks', down to the innermost containers.
        Summed on each block's innermost container, then carried up to the
        parents, children first (a child's number is above its parent's):
        once an element, not once a block and container."""
        paths = self.paths
        words_in = [0] * len(paths.elements)
        linked_in = [0] * len(paths.elements)
        for el, w, linked in zip(paths.inner, self.words.tolist(), self.in_link.tolist()):
            if w and el >= 0:
                words_in[el] += w
                if linked:
                    linked_in[el] += w
        parents = paths.parents
        for el in range(len(parents) - 1, -1, -1):
            up = parents[el]
            if up >= 0:
                words_in[up] += words_in[el]
                linked_in[up] += linked_in[el]
        return words_in, linked_in

    @cached_property
    def masks(self) -> np.ndarray:
        """Bit i: the block is in an element of the i-th CONTAINERS class."""
        return np.array(self.paths.masks, np.int64)

    @cached_property
    def in_link(self) -> np.ndarray:
        return self.masks & LINK_BIT != 0

    @cached_property
    def div_groups(self) -> Groups:
        return self._groups([b.div_group for b in self.blocks])

    @cached_property
    def td_groups(self) -> Groups:
        return self._groups([b.td_group for b in self.blocks])

    def _groups(self, serials: list[int]) -> Groups:
        """Each group's share of the page's words outside links (thesis 4.2:
        menus are links, so their groups weigh little)."""
        of_block = np.array(serials, np.int64) + 1  # -1, outside any, is 0
        words = np.bincount(of_block, weights=self.words)
        unlinked = np.bincount(of_block, weights=self.words * ~self.in_link)
        whole = unlinked.sum()
        ratio = unlinked / whole if whole else np.zeros(len(unlinked))
        return Groups(of_block, words, unlinked, ratio)


# The walk compiled (victor/compiled/_paths.pyx) where it was built; the
# function above stays the reference and the fallback.
paths_py = paths
paths = twin(paths_py, "_paths")
class_pieces_py = class_pieces
class_pieces = twin(class_pieces_py, "_paths")
