"""Stage 3: the page's text split on tags into the blocks the CRF labels.

Any tag, opening or closing, ends a block (thesis 3.2):
`<p>Hello <b><i>world</i></b>!</p>` gives "Hello", "world" and "!".
A block remembers what a reader of the markup would: the elements it sits
in, the tags passed since the previous block (to tell a new paragraph from
a continuation), and the div and td it belongs to directly (thesis 4.2:
the groups that separate one big content area from menus).
"""

from __future__ import annotations

from dataclasses import dataclass

from victor.text import collapse
from victor.tidy import VOID, Element

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

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(c.tag for c in self.containers)


def split_blocks(body: Element) -> list[Block]:
    """Blocks in document order. Whitespace-only text makes no block, but
    the tags around it still count as passed."""
    blocks: list[Block] = []
    splits: list[str] = []
    pending: list[str] = []  # text nodes not yet separated by a tag
    path: list[Element] = []
    divs: list[int] = [-1]
    tds: list[int] = [-1]
    serial = {"div": 0, "td": 0}

    def flush() -> None:
        text = collapse("".join(pending))
        pending.clear()
        if text:
            blocks.append(Block(len(blocks), text, tuple(path), tuple(splits), divs[-1], tds[-1]))
            splits.clear()

    # The walk: a stack of (element, index of the next child to visit).
    stack: list[tuple[Element, int]] = [(body, 0)]
    while stack:
        el, i = stack[-1]
        if i == len(el.children):
            stack.pop()
            if el is body:
                break
            flush()
            path.pop()
            if el.tag == "div":
                divs.pop()
            elif el.tag == "td":
                tds.pop()
            if el.tag not in VOID:
                splits.append("/" + el.tag)
            continue
        stack[-1] = (el, i + 1)
        child = el.children[i]
        if isinstance(child, str):
            pending.append(child)
            continue
        flush()
        splits.append(child.tag)
        if child.tag == "div" or child.tag == "td":
            serial[child.tag] += 1
            (divs if child.tag == "div" else tds).append(serial[child.tag])
        path.append(child)
        stack.append((child, 0))
    flush()
    return blocks
