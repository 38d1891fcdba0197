"""What the kept tree's markup says badly, said as a reader reads it: an
ordered list's items that carry their own number, a counter set in two
boxes, footnotes. One pass over the kept tree (victor/output/tree.py),
before any format is rendered, so that every format says the same.
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag

from victor.reading.layout import BLOCK_LEVEL, HEADINGS
from victor.reading.parser import Element, Node

_NUMBER = re.compile(r"\s*(\d{1,4})\s*[.):]?\s*")
_LEADING_NUMBER = re.compile(r"\s*(\d{1,4})[.):]\s+")
_COUNTER = re.compile(r"\s*(\d{1,4})\s*(of|/)\s*(\d{1,4})\s*")
_COUNTER_END = re.compile(r"\s*(?:of|/)?\s*\d{1,4}\s*")
_RANK = re.compile(r"\s*\d{1,3}\s*[.):]?\s*")
# A footnote's mark: a number, a letter or a sign, maybe in brackets.
_NOTE_MARK = re.compile(r"\s*\[?\s*([0-9]{1,3}|[a-zA-Z]|[*†‡§])\s*\]?\s*")
_NOTE_LABEL = re.compile(r"[^0-9A-Za-z_-]")


# The elements settle looks at; a page whose kept tree has none of them,
# and no block `unsettled` says is part of a counter, needs no pass.
SETTLED = frozenset({"ol", "sup"})


def unsettled(block_text: str) -> bool:
    """Whether a block's text may be a counter's second box ("of 15") or a
    heading's number set apart from it ("1.")."""
    return len(block_text) < 16 and (block_text.startswith(("of", "/"))
                                     or bool(_RANK.fullmatch(block_text)))


def settle(tree: Element, base: str = "") -> Element:
    """The kept tree, changed in place where its markup says what a reader
    would read otherwise (the functions below say how)."""
    lists: list[Element] = []
    refs: list[tuple[Element, str, int]] = []  # a mark's parent, its target, its index there
    items: dict[str, tuple[Element, Element]] = {}  # (list item, its list) by the item's id
    counters: list[list[Element]] = []  # paths to a counter's last part
    ranks: list[tuple[Element, int, Element]] = []  # (box, the number's index, its heading)
    path: list[Element] = []
    stack: list[object] = [tree]
    while stack:
        el = stack.pop()
        if el is None:
            path.pop()
            continue
        path.append(el)
        stack.append(None)
        tag = el.tag
        if tag == "ol":
            lists.append(el)
        for i, child in enumerate(el.children):
            if isinstance(child, str):
                if len(child) < 16 and ("of" in child or "/" in child) and _COUNTER_END.fullmatch(
                        child):
                    counters.append(list(path))
            elif child.tag == "sup" and (target := _note_target(child, base)):
                refs.append((el, target, i))
            elif child.tag == "li" and "id" in child.attrs:
                items.setdefault(child.attrs.pop("id"), (child, el))
            elif child.tag in HEADINGS and (rank := _rank_before(el.children, i)) is not None:
                ranks.append((el, rank, child))
        stack.extend(reversed([c for c in el.children if isinstance(c, Element)]))
    if refs:  # first: the others move children, and refs are by index
        _notes(refs, items, base)
    for ol in lists:
        _drop_own_numbers(ol)
    for counter_path in counters:
        _one_line_counter(counter_path)
    for box, rank, heading in reversed(ranks):  # from the last, so that indices hold
        heading.children.insert(0, " ".join(_text(box.children[rank]).split()) + " ")
        del box.children[rank]
    return tree


def _rank_before(children: list[Node], i: int) -> int | None:
    """The index of a heading's number set in a box of its own before it
    (`<span class="faq-rank">1.</span><h3>...`, WCXB 0212), which Markdown
    and text showed as a line of its own ("1\\."); None if there is none."""
    j = i - 1
    while j >= 0 and isinstance(children[j], str) and children[j].isspace():
        j -= 1
    if j < 0:
        return None
    before = children[j]
    if isinstance(before, Element) and before.tag in BLOCK_LEVEL:
        return None
    text = _text(before)
    return j if text.strip() and _RANK.fullmatch(text) else None


def item_numbers(ol: Element) -> list[int]:
    """The number a browser shows before each item (<li>) of an ordered
    list: from its `start` (or its count, `reversed`), an item's `value`
    setting it anew."""
    items = [li for li in ol.children if isinstance(li, Element) and li.tag == "li"]
    step = -1 if "reversed" in ol.attrs else 1
    number = _int(ol.attrs.get("start"), len(items) if step < 0 else 1)
    numbers = []
    for li in items:
        number = _int(li.attrs.get("value"), number)
        numbers.append(number)
        number += step
    return numbers


def keep_place(ol: Element, li: Element, copy: Element, ol_copy: Element, kept: set[int],
               places: dict[int, dict[int, int] | None]) -> None:
    """The copy of an ordered list's item keeps the number it has on the
    page when the labels dropped some of the list's items: the third step
    stays "3." (and its own "3" box is seen as its number). `kept` holds
    the ids of the source's kept elements, `places` each list's numbers."""
    key = id(ol)
    if key not in places:
        items = [c for c in ol.children if isinstance(c, Element) and c.tag == "li"]
        places[key] = (None if all(id(c) in kept for c in items)
                       else dict(zip(map(id, items), item_numbers(ol))))
    numbers = places[key]
    if numbers is None:
        return
    copy.attrs["value"] = str(numbers[id(li)])
    if not any(isinstance(c, Element) and c.tag == "li" for c in ol_copy.children):
        ol_copy.attrs["start"] = copy.attrs["value"]


def _drop_own_numbers(ol: Element) -> None:
    """When every item of an ordered list begins with its own place's
    number, as a box (`<div class="stepnum">1</div>`, WCXB 0018) or as text
    ("1. "), the numbers go: the list's markers say them, and a reader of
    Markdown or text would read "1. 1 Look for a deal". Every item, so that
    a recipe's "1 cup" and "2 eggs" stay."""
    items = [li for li in ol.children if isinstance(li, Element) and li.tag == "li"]
    if len(items) < 2:
        return
    found = []
    for li, number in zip(items, item_numbers(ol)):
        place = _leading_number(li, number)
        if place is None:
            return
        found.append(place)
    for el, i, rest in found:
        if rest is None:
            del el.children[i]
        else:
            el.children[i] = rest


def _leading_number(li: Element, number: int) -> tuple[Element, int, str | None] | None:
    """Where the item's first text is `number`: (element, child index, the
    text after the number, or None to drop the whole child)."""
    el = li
    while True:
        first = next((i for i, c in enumerate(el.children)
                      if not (isinstance(c, str) and c.isspace())), None)
        if first is None:
            return None
        child = el.children[first]
        if isinstance(child, str):
            m = _LEADING_NUMBER.match(child)
            if m and int(m.group(1)) == number and child[m.end():].strip():
                return el, first, child[m.end():]
            return None
        m = _NUMBER.fullmatch(_text(child))
        if m:
            return (el, first, None) if int(m.group(1)) == number else None
        el = child


def _one_line_counter(path: list[Element]) -> None:
    """A counter set in boxes ("1" above "of 15", WCXB 4708) is one line,
    "1 of 15", as a reader reads it, not two paragraphs."""
    for el in reversed(path[-4:]):
        m = _COUNTER.fullmatch(_text(el))
        if m:
            if el.tag not in _ROWS and any(
                    isinstance(c, Element) and c.tag in BLOCK_LEVEL
                    for child in el.children if isinstance(child, Element)
                    for c in _elements(child)):
                el.children = [f"{m.group(1)} {m.group(2)} {m.group(3)}"]
            return


_ROWS = frozenset("table thead tbody tfoot tr".split())


def _notes(refs: list[tuple[Element, str, int]], items: dict[str, tuple[Element, Element]],
           base: str) -> None:
    """A footnote's mark (`<sup><a href="#fn1">1</a></sup>`) becomes a
    `<sup note="1">`: the formats write it as a note, not as a link to an
    address that is no longer there. Where the notes it points to are kept,
    a list whose every item a kept mark points to, each item gets `note`
    and loses its links back to the marks, and the marks are `defined`:
    Markdown writes `[^1]` and `[^1]: ...` (a note no mark points to would
    not be shown), text `[1]` and the list. A label two notes share stays
    the first one's."""
    found = []
    label_of: dict[str, str] = {}  # a note's id -> its label
    taken: dict[str, str] = {}  # a label -> the note's id
    for parent, target, i in refs:
        mark = _NOTE_MARK.fullmatch(_text(parent.children[i])).group(1)
        label = _NOTE_LABEL.sub("", mark) or str(len(taken) + 1)
        if (target in items and _says_more(items[target][0], base)
                and taken.setdefault(label, target) == target):
            label_of.setdefault(target, label)
        found.append((parent, i, mark, label, target))
    noted = {id(items[target][0]) for target in label_of}
    for target in list(label_of):
        if not all(id(li) in noted for li in items[target][1].children
                   if isinstance(li, Element) and li.tag == "li"):
            del label_of[target]
    for target, label in label_of.items():
        items[target][0].attrs["note"] = label
        _drop_back_links(items[target][0], base)
    for parent, i, mark, label, target in found:
        attrs = {"note": label, "defined": "1"} if label_of.get(target) == label else {"note": mark}
        parent.children[i] = Element("sup", attrs, [mark])


def _drop_back_links(item: Element, base: str) -> None:
    """The arrows (↩, ^, a b) that lead from a note back to its marks."""
    stack = [item]
    while stack:
        el = stack.pop()
        el.children = [c for c in el.children
                       if isinstance(c, str) or not (c.tag == "a" and _back_link(c, base))]
        stack.extend(c for c in el.children if isinstance(c, Element))


def _says_more(item: Element, base: str) -> bool:
    """Whether a note holds text beside its links back to the marks."""
    stack: list[Node] = [item]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if node.strip():
                return True
        elif not (node.tag == "a" and _back_link(node, base)):
            stack.extend(node.children)
    return False


def _back_link(a: Element, base: str) -> bool:
    """A link to this page that says no word: ↩, ↑, ^, or Wikipedia's a, b
    to each of a note's several marks."""
    return bool(_BACK.fullmatch(_text(a))) and bool(_same_page(a, base))


_BACK = re.compile(r"\s*(?:[^\w\s]{1,3}|[a-z]{1,2})\s*")


def _note_target(sup: Element, base: str) -> str:
    """The id a footnote's mark points to, "" if `sup` is none: a link to
    this page's fragment that is all the <sup> holds, its text a mark."""
    inner = [c for c in sup.children if not (isinstance(c, str) and c.isspace())]
    if len(inner) != 1 or isinstance(inner[0], str):
        return ""
    a = inner[0]
    if a.tag != "a" or not _NOTE_MARK.fullmatch(_text(a)):
        return ""
    return _same_page(a, base)


def _same_page(a: Element, base: str) -> str:
    href = a.attrs.get("href", "")
    if "#" not in href:
        return ""
    address, fragment = urldefrag(href)
    return fragment if not address or address == urldefrag(base)[0] else ""


def _elements(el: Element):
    stack = [el]
    while stack:
        e = stack.pop()
        yield e
        stack.extend(c for c in e.children if isinstance(c, Element))


def _text(el: Node) -> str:
    if isinstance(el, str):
        return el
    return "".join(c if isinstance(c, str) else _text(c) for c in el.children)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default
