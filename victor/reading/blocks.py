"""Stage 3: the page's text split on tags into the blocks the CRF labels.

Any tag, opening or closing, ends a block (thesis 3.2):
`<p>Hello <b><i>world</i></b>!</p>` gives "Hello", "world" and "!".
A block remembers what a reader of the markup would: the elements it sits
in, the tags passed since the previous block (to tell a new paragraph from
a continuation), and the div and td it belongs to directly (thesis 4.2:
the groups that separate one big content area from menus).
"""

from __future__ import annotations

import reprlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from victor.compiled import twin
from victor.reading.layout import BLOCK_LEVEL
from victor.reading.text import collapse
from victor.reading.parser import ASIDE, VOID, Element

T = TypeVar("T")

@dataclass(slots=True, eq=False)
class Block:
    id: int
    text: str
    # Enclosing elements below <body>, outermost first.
    containers: tuple[Element, ...]
    # Tags seen since the previous block in order: "p" opens, "/p" closes.
    splits: tuple[str, ...]
    # Serial number of the nearest enclosing div (td); -1 where there is none.
    div_group: int
    td_group: int
    # Where the block's text stands in the tree, for the output stages that
    # render the kept part of it (victor/output): the children
    # `parent.children[start:stop]` of its innermost container (the body
    # where it has none). The run may hold aside elements (`parser.ASIDE`).
    start: int
    stop: int
    # The block's line box (victor.reading.layout.line_box: the paragraph,
    # item or cell its text flows in) as a number the blocks of one box
    # share, in the order of their first blocks; -1 for text straight in
    # <body>. Found in the same walk, for the decoding (victor.decoding.layout).
    box: int
    # Whether the block sits in a link (<a>), found in the same walk for
    # the page type's signals.
    linked: bool

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(c.tag for c in self.containers)

    def __repr__(self) -> str:
        """One short line: the generated repr printed every container's
        whole subtree, millions of characters for one block of a big page,
        which hung a REPL or a notebook that showed it."""
        return (f"Block(id={self.id}, text={reprlib.repr(self.text)} ({len(self.text)} chars), "
                f"in {'>'.join(self.tags[-3:]) or 'body'}, {len(self.splits)} tags passed, "
                f"div_group={self.div_group}, td_group={self.td_group})")


def split_blocks(body: Element) -> tuple[list[Block], Counter[str]]:
    """Blocks in document order, and how many elements of each tag the
    tree holds (`count_tags`), counted on the way for the page type's
    signals (victor.page_type), which no longer walk the tree again.
    Whitespace-only text makes no block, but the tags around it still count
    as passed. Aside elements (formulas kept for the output) are passed
    over as if absent: the text on either side of one is one block, as it
    was when they were deleted."""
    blocks: list[Block] = []
    met = [body.tag]  # the tag of each element the walk meets
    asides: list[Element] = []
    splits: list[str] = []
    pending: list[str] = []  # text nodes not yet separated by a tag
    start = 0  # where the pending text starts among its parent's children
    path: list[Element] = []
    divs: list[int] = [-1]
    tds: list[int] = [-1]
    div_count = td_count = 0
    links = 0  # the <a> elements on the path
    lines: list[Element | None] = [None]  # the innermost line box on the path
    numbers: dict[Element, int] = {}  # each line box's number, given by its first block

    def flush(stop: int) -> None:
        """`stop`: where the element or end that ends the text stands."""
        text = collapse("".join(pending))
        pending.clear()
        if text:
            line = lines[-1]
            box = -1 if line is None else numbers.setdefault(line, len(numbers))
            blocks.append(Block(len(blocks), text, tuple(path), tuple(splits), divs[-1], tds[-1],
                                start, stop, box, links > 0))
            splits.clear()

    # The walk: for each element on the path, an iterator over its numbered
    # children, the innermost last.
    stack = [enumerate(body.children)]
    while stack:
        for i, child in stack[-1]:
            if isinstance(child, str):
                # Whitespace that starts a run of text is dropped by
                # collapse anyway; most of it (the indentation between tags)
                # then never has to be flushed.
                if pending:
                    pending.append(child)
                elif not child.isspace():
                    pending.append(child)
                    start = i
                continue
            tag = child.tag
            met.append(tag)
            if tag in ASIDE:
                asides.append(child)
                continue
            if pending:
                flush(i)
            splits.append(tag)
            if tag == "div":
                div_count += 1
                divs.append(div_count)
            elif tag == "td":
                td_count += 1
                tds.append(td_count)
            elif tag == "a":
                links += 1
            path.append(child)
            lines.append(child if tag in BLOCK_LEVEL else lines[-1])
            stack.append(enumerate(child.children))
            break
        else:  # the innermost element has ended
            stack.pop()
            if pending:
                flush(len(path[-1].children if path else body.children))
            if not path:  # <body> itself
                break
            tag = path.pop().tag
            lines.pop()
            if tag == "div":
                divs.pop()
            elif tag == "td":
                tds.pop()
            elif tag == "a":
                links -= 1
            if tag not in VOID:
                splits.append("/" + tag)
    tags = Counter(met)
    for aside in asides:
        tags.update(count_tags(aside))
        tags[aside.tag] -= 1  # met already
    return blocks, tags


def by_containers(blocks: Sequence[Block], answer: Callable[[T, Element], T], outside: T) -> list[T]:
    """Each block's answer about its containers, outermost first: `outside`
    for none, then `answer(the parent's answer, element)` down the chain.
    A block's containers are its innermost container's ancestors, so each
    element is answered once a page, from its parent's answer: a block costs
    a look-up or two, not a look at each of its containers."""
    within: dict[Element, T] = {}
    found = []
    for b in blocks:
        path = b.containers
        k = len(path)
        while k and path[k - 1] not in within:  # the innermost container answered
            k -= 1
        got = within[path[k - 1]] if k else outside
        for el in path[k:]:
            got = within[el] = answer(got, el)
        found.append(got)
    return found


def count_tags(root: Element | None) -> Counter[str]:
    """How many elements of each tag the tree below `root` holds, `root`
    included. Gathered a level at a time: a comprehension over a level
    costs less than a step of a stack for every element."""
    counts: Counter[str] = Counter()
    level = [root] if root is not None else []
    while level:
        counts.update([el.tag for el in level])
        level = [c for el in level for c in el.children if not isinstance(c, str)]
    return counts


# The walks compiled (victor/compiled/_blocks.pyx) where they were built;
# the functions above stay the reference and the fallback.
split_blocks_py = split_blocks
split_blocks = twin(split_blocks_py, "_blocks")
by_containers_py = by_containers
by_containers = twin(by_containers_py, "_blocks")
