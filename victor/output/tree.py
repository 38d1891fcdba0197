"""Stage 6a: the labels cut the page's tree down to its main content.

The CRF labels blocks, but a reader wants the page: a table as a table, code
with its line breaks, a link with its address, `H<sub>2</sub>O` as one word.
So the output is not built from the block texts but from the tree the
blocks were split from: each block knows where its text stands in it
(`Block.start`, `Block.stop`), and the kept tree holds exactly the text of
the kept blocks, inside the elements that held it. An element with no kept
text is gone; a text-free element survives only as a line break or a
formula (`parser.FORMULA`) among kept text.

What the markup does not say, the labels do: an element whose kept text is
all labelled header becomes a heading. Tables used only to lay a page out
become plain boxes, so that only data tables are drawn as tables (each
element's clean copy: elements.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from victor.compiled import twin
from victor.labels import OTHER
from victor.output.characters import readable
from victor.output.elements import PLAIN, RETITLED, bare, copied, left_out
from victor.output.pictures import unkept
from victor.output.structures import SETTLED, keep_place, settle, unsettled
from victor.reading.layout import BLOCK_LEVEL
from victor.reading.parser import FORMULA, Element, Node

if TYPE_CHECKING:
    from victor.reading.blocks import Block

_CELLS = frozenset({"td", "th"})


@dataclass(frozen=True, slots=True)
class Rendering:
    """What a user may leave out of the structured formats."""

    links: bool = True
    images: bool = True
    tables: bool = True

    @classmethod
    def of(cls, options: Rendering | None = None, links: bool | None = None,
           images: bool | None = None, tables: bool | None = None) -> Rendering:
        """The options given either way the API takes them: a Rendering
        (the older form, kept working) or keywords as `extract` has them."""
        keywords = {k: v for k, v in (("links", links), ("images", images), ("tables", tables))
                    if v is not None}
        if options is not None and keywords:
            raise TypeError("give a Rendering or keywords, not both")
        return options if options is not None else cls(**keywords)


def kept_tree(body: Element, blocks: Sequence[Block], labels: list[str], base: str = "") -> Element:
    """A new tree of the kept content; the page's tree is not changed.
    `base` is the address relative links and images resolve against."""
    runs: dict[int, dict[int, tuple[int, str]]] = {}
    marked: set[int] = set()  # elements with a kept block inside
    labels_in: dict[int, set[str]] = {}  # kept labels by nearest block-level box
    outer: set[int] = set()  # boxes with a kept block in a box inside them
    settling = False  # whether structures.settle has anything to look at
    for b, label in zip(blocks, labels):
        containers = b.containers
        parent = containers[-1] if containers else body
        runs.setdefault(id(parent), {})[b.start] = (b.stop, label)
        if label == OTHER:
            continue
        if _add_ancestors(containers, marked) or unsettled(b.text):
            settling = True
        box = id(body)
        for j in range(len(containers) - 1, -1, -1):
            if containers[j].tag in BLOCK_LEVEL:
                box = id(containers[j])
                for c in containers[j - 1::-1] if j else ():
                    if c.tag in BLOCK_LEVEL:
                        if id(c) in outer:
                            break
                        outer.add(id(c))
                break
        labels_in.setdefault(box, set()).add(label)
    headers = {box for box, seen in labels_in.items() if seen == {"h"} and box not in outer}
    tree = _copy(body, runs, marked, headers, base)
    return settle(tree, base) if settling else tree


def _add_ancestors(containers: tuple[Element, ...], into: set[int]) -> bool:
    """Adds the containers innermost first, stopping at one already in:
    its own containers are in too, so each element is added once a page.
    Whether one added is of a tag structures.settle looks at."""
    found = False
    for c in reversed(containers):
        key = id(c)
        if key in into:
            return found
        into.add(key)
        found = found or c.tag in SETTLED
    return found


def _copy(body: Element, runs, marked, headers, base: str) -> Element:
    """The walk is iterative: pages nest elements thousands deep."""
    root = Element("body")
    # (source element, its copy, in a layout table, in a table of code,
    # in text whose spaces are its own: pre, code, a formula)
    stack: list[tuple[Element, Element, bool, bool, bool]] = [(body, root, False, False, False)]
    places: dict[int, dict[int, int] | None] = {}  # ordered lists' numbers, for keep_place
    while stack:
        src, dst, in_layout, in_code, literal = stack.pop()
        own = runs.get(id(src), {})
        children = src.children
        i, n = 0, len(children)
        pending: list[tuple[Element, Element, bool, bool, bool]] = []
        shown = False  # whether kept content stands before child i in src
        while i < n:
            run = own.get(i)
            if run is not None:
                stop, label = run
                if label != OTHER:
                    dst.children += [readable(node) if isinstance(node, str) else _formula(node)
                                     for node in children[i:stop]]
                    shown = True
                i = stop
                continue
            child = children[i]
            i += 1
            if isinstance(child, str):
                dst.children.append(child)  # whitespace no block holds
            elif id(child) in marked:
                if left_out(child, in_code):
                    continue
                tag = child.tag
                if tag in PLAIN:  # most elements: copied bare
                    copy = Element("h2" if tag in RETITLED and id(child) in headers else tag)
                    layout, code = in_layout, in_code
                else:
                    copy, layout, code = copied(child, in_layout, in_code,
                                                id(child) in headers, base)
                if tag == "li" and src.tag == "ol":
                    keep_place(src, child, copy, dst, marked, places)
                if (not literal and i > 1 and id(children[i - 2]) in marked
                        and _apart(children[i - 2], child)):
                    dst.children.append(" ")
                dst.children.append(copy)
                pending.append((child, copy, layout, code, literal or tag in _LITERAL))
                shown = True
            elif child.tag in _CELLS and src.tag == "tr" and not in_layout:
                # A cell with no kept text keeps its place in its row: without
                # it the cells after it would stand under the wrong heads.
                cell = bare(child, base)
                cell.children.extend(unkept(child, False, shown, lambda: True,
                                            lambda el: bare(el, base)))
                dst.children.append(cell)
            else:
                dst.children.extend(unkept(child, src.tag == "figure", shown,
                                           lambda: i <= _last_kept(src, own, marked),
                                           lambda el: bare(el, base)))
        stack.extend(reversed(pending))
    return root


# Elements whose text keeps its spacing as it is.
_LITERAL = frozenset({"pre", "code", "kbd", "samp", FORMULA})
# Inline elements of type, not of layout: side by side they may be one
# word (a drop cap, `<font>L</font><font>earning</font>`, H<sub>2</sub>).
_TYPE = frozenset("b strong i em u s strike font big small tt mark sub sup ins del wbr q cite "
                  "dfn var abbr".split())


def _apart(before: Node, el: Element) -> bool:
    """Whether two inline elements side by side, with no space between
    them in the source (`<span>3 beds</span><span>2.5 baths</span>`, two
    buttons, two badges), are read as two words: a page sets such boxes
    apart with its style sheet (flex items, pills, a hidden copy for
    screen readers), which the output does not have, so without a space
    "3 beds2.5 baths" and "on AmazonCheck Price" came out. Not between
    elements of type (_TYPE), and only where both edges are letters or
    digits, so that a price's `<span>$</span><span>99</span>` stays one."""
    if (isinstance(before, str) or before.tag in BLOCK_LEVEL or el.tag in BLOCK_LEVEL
            or before.tag in _TYPE or el.tag in _TYPE):
        return False
    left, right = _edge(before, True), _edge(el, False)
    return left.isalnum() and right.isalnum()


def _edge(el: Element, last: bool) -> str:
    """The first (last) character of an element's text, "" if it has none."""
    stack: list[Node] = [el]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if node:
                return node[-1] if last else node[0]
            continue
        stack.extend(node.children if last else reversed(node.children))
    return ""


def _last_kept(src: Element, own: dict[int, tuple[int, str]], marked: set[int]) -> int:
    """The index of the last of src's children that holds kept text."""
    children = src.children
    for j in range(len(children) - 1, -1, -1):
        run = own.get(j)
        if (run is not None and run[1] != OTHER
                or not isinstance(children[j], str) and id(children[j]) in marked):
            return j
    return -1


def _formula(node: Element) -> Node:
    """An aside in a kept run: its formula (the only asides there are)."""
    return Element(FORMULA, dict(node.attrs), node.children) if node.tag == FORMULA else node


# The walks compiled (victor/compiled/_tree.pyx) where they were built; the
# function above stays the reference and the fallback.
kept_tree_py = kept_tree
kept_tree = twin(kept_tree_py, "_tree")
