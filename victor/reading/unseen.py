"""Which blocks of a page a reader never reads as text: what the page's own
style sheet hides, copies kept for screen readers beside the shown one,
and data a script reads (JSON, serialised state) parked in a box.

Such text is in the tree, so the CRF labels it like any other, and on a
shop's grid it can be most of the page (a `<div class="… hidden">` of a
widget's state, every price twice). The blocks are left as they are, so
that annotations and models see the page they always saw; the decision
(cleaner.Cleaner.label) drops these blocks, and a page whose labels kept
much of them is one the model read badly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial

from victor.compiled import twin
from victor.reading.blocks import Block, by_containers
from victor.reading.parser import Element

# Classes that frameworks use for text only a screen reader reads, set
# beside the text a reader sees (Bootstrap, WordPress, Amazon, GOV.UK...).
SCREEN_READER_ONLY = frozenset({
    "sr-only", "screen-reader-text", "screen-reader-only", "visually-hidden", "visuallyhidden",
    "a-offscreen", "screenreader-only", "sr-text", "u-visually-hidden", "govuk-visually-hidden",
    "element-invisible", "hidden-visually", "offscreen", "show-for-sr", "assistive-text"})
# Elements whose text is code or data by the page's own word.
_CODE = frozenset({"pre", "code", "samp", "kbd", "textarea", "script"})

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_HIDING = re.compile(r"(?:^|;)\s*display\s*:\s*none\s*(?:!important\s*)?(?:;|$)", re.I)
# Names of boxes a reader opens (an accordion's answer, a tab, "read
# more"): their text is hidden until a click, and it is the page's.
_OPENED = re.compile(r"accordion|tab|collaps|toggle|expand|faq|answer|more|reveal|panel|content|"
                     r"body|text|desc|detail|show", re.I)
_SHOWING = re.compile(r"(?:^|;)\s*(?:display\s*:\s*(?!none)[a-z-]+|visibility\s*:\s*visible)", re.I)
_ONE_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_SIMPLE = re.compile(r"\s*\.(-?[_a-zA-Z][\w-]*)\s*")


@dataclass(frozen=True, slots=True)
class Hiding:
    """What a page's own style sheet hides: `hidden` classes, unless an
    element also has one of the `shown` classes."""

    hidden: frozenset[str] = frozenset()
    shown: frozenset[str] = frozenset()

    def hides(self, classes: list[str]) -> bool:
        return not self.hidden.isdisjoint(classes) and self.shown.isdisjoint(classes)


def hidden_classes(styles: Iterable[str]) -> Hiding:
    """The classes the page's own `<style>` hides for every reader: a rule
    of the style sheet's top level (not one of a screen's width, `@media`)
    whose selector is the class alone and which says `display: none`. A
    class any other rule shows (a tab made `.tab.active { display:
    block }`, a width's `@media`) is not hidden, nor an element with such a
    class beside it (atomic CSS: `class="ab ac"`, `.ac` shown from a
    width on): a script or the screen shows them. Nor a box a reader
    opens (`_OPENED`)."""
    hiding: set[str] = set()
    shown: set[str] = set()
    for sheet in styles:
        sheet = _COMMENT.sub("", sheet)
        # Most rules say neither `display` nor `visibility`. In ASCII, which
        # the case-blind patterns read as lower() does, str.find tells so
        # at memchr's pace, where each pattern tried at every character.
        ascii = sheet.isascii()
        for selectors, body, top in _rules(sheet):
            if ascii:
                low = body.lower()
                if "display" not in low and "visibility" not in low:
                    continue
            if top and _HIDING.search(body):
                for selector in selectors.split(","):
                    m = _SIMPLE.fullmatch(selector)
                    if m and not _OPENED.search(m.group(1)):
                        hiding.add(m.group(1))
            elif _SHOWING.search(body):
                shown.update(_ONE_CLASS.findall(selectors))
    return Hiding(frozenset(hiding - shown), frozenset(shown)) if hiding else Hiding()


def _rules(sheet: str) -> Iterable[tuple[str, str, bool]]:
    """(selectors, declarations, whether at the top level) of each rule of
    a style sheet, read by its braces: an at-rule's block (`@media`,
    `@supports`) holds rules that are not at the top level."""
    depth = 0
    start = 0
    at_rule = 0  # the depth of the innermost open at-rule's block, 0 if none
    selectors: str | None = None
    for m in re.finditer(r"[{}]", sheet):
        if m.group() == "{":
            prelude = sheet[start:m.start()].strip()
            depth += 1
            if prelude.startswith("@"):
                at_rule = at_rule or depth
            selectors = prelude
        else:
            if depth and selectors is not None:
                yield selectors, sheet[start:m.start()], not at_rule
            if depth == at_rule:
                at_rule = 0
            depth = max(depth - 1, 0)
            selectors = None
        start = m.end()


def unseen_blocks(blocks: Sequence[Block], hiding: Hiding) -> tuple[int, ...]:
    """The indices of the blocks a reader does not read: inside an element
    the page's style sheet hides (`hidden_classes`) or kept for screen
    readers, or a block of data (`is_data`) outside code. Where what the
    style sheet hides would be most of the page's text, it is a page a
    script shows (its own classes, its own rules), and only the rest
    counts."""
    found, styled = [], []
    said = by_containers(blocks, partial(_says, hiding, {}), (_SHOWN, False))
    for i, (b, (kind, code)) in enumerate(zip(blocks, said)):
        if kind == _READER:
            found.append(i)
        elif kind == _STYLED:
            styled.append(i)
        elif not code and is_data(b.text):
            found.append(i)
    if styled and 2 * sum(len(blocks[i].text) for i in styled) < sum(len(b.text) for b in blocks):
        found.extend(styled)
    return tuple(sorted(found))


_SHOWN, _READER, _STYLED = 0, 1, 2


def _says(hiding: Hiding, kinds: dict[str, int], above: tuple[int, bool],
          c: Element) -> tuple[int, bool]:
    """What the chain down to `c` says, from what the chain above it says
    (`above`): the outermost container that keeps its text for screen
    readers (_READER) or that the style sheet hides (_STYLED) decides,
    else _SHOWN; and whether a container down to there is code. `kinds`
    holds what each class attribute met on the page says: a page repeats
    a few, and splitting one into its names was most of the cost."""
    kind, code = above
    if kind != _SHOWN:
        return above
    cls = c.attrs.get("class")
    if cls:
        kind = kinds.get(cls)
        if kind is None:
            kind = kinds[cls] = _class_says(hiding, cls)
        if kind != _SHOWN:
            return kind, code
    # Most elements change nothing: no new tuple.
    return above if code or c.tag not in _CODE else (_SHOWN, True)


def _class_says(hiding: Hiding, cls: str) -> int:
    """What a class attribute alone says (_says)."""
    names = cls.split()
    if not SCREEN_READER_ONLY.isdisjoint(names):
        return _READER
    if hiding.hidden and hiding.hides(names):
        return _STYLED
    return _SHOWN


_DATA_START = re.compile(r"\s*[\[{]\s*[\"'{\[]")
_PAIRS = re.compile(r"[\"']\s*:\s*[\"'{\[\dtfn-]")


def is_data(text: str) -> bool:
    """Whether a block's text is data for a script, not prose: a JSON
    object or array (a widget's state), or text of that shape cut short,
    with many "key": value pairs and nothing around them."""
    stripped = text.strip()
    if len(stripped) < 20 or not _DATA_START.match(stripped):
        return False
    if stripped[-1] in "}]":
        try:
            value = json.loads(stripped)
        except ValueError:
            pass
        else:
            return isinstance(value, (dict, list)) and bool(value)
    return len(_PAIRS.findall(stripped)) >= 3 and stripped.count(" ") * 8 < len(stripped)


# The brace scan compiled (victor/compiled/_unseen.pyx) where it was built;
# the generator above stays the reference and the fallback.
_rules_py = _rules
_rules = twin(_rules_py, "_unseen")
