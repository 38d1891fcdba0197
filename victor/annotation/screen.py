"""What the annotation tool shows: the blocks laid out in lines to fit the
terminal, and the status line; no terminal is needed to compute them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

from victor.annotation.annofile import UNLABELLED
from victor.annotation.labelling import Session
from victor.labels import LABELS

# How many lines a block other than the current one may take: enough to
# recognise it, few enough that the context of several blocks fits.
CONTEXT_LINES = 2


STYLE = Style.from_dict({
    "title": "reverse",
    "label.p": "ansigreen bold",
    "label.h": "ansimagenta bold",
    "label.l": "ansicyan bold",
    "label.c": "ansiblue bold",
    "label.o": "ansibrightblack",
    "text.o": "ansibrightblack",
    "unlabelled": "ansiyellow bold",
    "current": "bg:#303050 bold",
    "status": "reverse",
    "message": "bg:ansiyellow ansiblack bold",
    "bar": "bg:#444444 #ffffff",
    "bar.key": "bg:#444444 ansiyellow bold",
})


def wrap(text: str, width: int, limit: int) -> list[str]:
    """At most `limit` lines of at most `width` terminal cells, broken at
    spaces (words longer than a line are cut); a last line ending in … says
    the block goes on. Only the text that can show is looked at, so a
    block of a megabyte costs no more than one of a line."""
    # Enough text to fill `limit` lines: all but zero-width characters
    # take at least a cell.
    shown = text[: limit * width + 1]
    lines: list[str] = []
    line, used = "", 0
    for word in shown.split(" "):
        cells = get_cwidth(word)
        if line and used + 1 + cells <= width:
            line, used = f"{line} {word}", used + 1 + cells
            continue
        if line:
            lines.append(line)
        while cells > width:
            head, word = _cut(word, width)
            lines.append(head)
            cells = get_cwidth(word)
        line, used = word, cells
        if len(lines) > limit:
            break
    if line:
        lines.append(line)
    if len(lines) > limit or len(shown) < len(text):
        lines = lines[:limit]
        lines[-1] = _cut(lines[-1], max(1, width - 1))[0] + "…"
    return lines


def _cut(word: str, width: int) -> tuple[str, str]:
    """The longest head of `word` fitting `width` cells, at least one
    character so that a wide character in a narrow column still moves on."""
    used = 0
    for i, ch in enumerate(word):
        used += get_cwidth(ch)
        if used > width and i:
            return word[:i], word[i:]
    return word, ""


@dataclass(slots=True)
class Screen:
    lines: list[StyleAndTextTuples]
    first: int  # first and last block with a line on the screen
    last: int


def layout_blocks(texts: list[str], labels: list[str], cursor: int,
                  width: int, height: int) -> Screen:
    """The lines of the block list for a window of `width` x `height`: the
    current block whole where it fits, about a third of the window of
    context above it and the rest below (more above near the end of the
    page, none wasted at its top). Only blocks that can show are wrapped."""
    text_width = max(1, width - 6)  # "> [p] " in front of each block

    def block_lines(i: int, limit: int) -> list[StyleAndTextTuples]:
        label = labels[i]
        current = i == cursor
        if label == UNLABELLED:
            tag, tag_style, text_style = "[ ] ", "class:unlabelled", ""
        else:
            tag, tag_style = f"[{label}] ", f"class:label.{label}"
            text_style = "class:text.o" if label == "o" else ""
        out = []
        for n, line in enumerate(wrap(texts[i], text_width, limit)):
            gutter = "> " if current and n == 0 else "  "
            head = [("", gutter), (tag_style, tag)] if n == 0 else [("", "      ")]
            body = [(text_style, line)]
            if current:
                pad = width - 6 - get_cwidth(line)
                body.append(("", " " * max(0, pad)))
                out.append([(f"class:current {s}", t) for s, t in head + body])
            else:
                out.append(head + body)
        return out

    def collect(indexes: Iterable[int], budget: int, reverse: bool) -> list[tuple[int, StyleAndTextTuples]]:
        """Lines of consecutive blocks, nearest first, until `budget` lines."""
        out: list[tuple[int, StyleAndTextTuples]] = []
        for i in indexes:
            if len(out) >= budget:
                break
            lines = block_lines(i, CONTEXT_LINES)
            out.extend((i, line) for line in (reversed(lines) if reverse else lines))
        return out

    current = [(cursor, line) for line in block_lines(cursor, max(1, height * 2 // 3))]
    room = max(0, height - len(current))
    above = collect(range(cursor - 1, -1, -1), room, reverse=True)
    below = collect(range(cursor + 1, len(texts)), room, reverse=False)
    take_below = min(len(below), room - min(len(above), height // 3))
    take_above = min(len(above), room - take_below)
    shown = above[:take_above][::-1] + current + below[:take_below]
    return Screen([line for _, line in shown], shown[0][0], shown[-1][0])


class BlockList(UIControl):
    """The block list, drawn from the window's size on each render. It
    remembers which blocks the last render showed, which is what a page
    up or down moves by."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.texts = [b.text for b in session.page.blocks]
        self.shown = (0, 0)

    def create_content(self, width: int, height: int) -> UIContent:
        lab = self.session.labelling
        screen = layout_blocks(self.texts, lab.labels, lab.cursor, width, height)
        self.shown = (screen.first, screen.last)
        return UIContent(get_line=screen.lines.__getitem__, line_count=len(screen.lines),
                         show_cursor=False)

    def page_step(self) -> int:
        first, last = self.shown
        return max(1, last - first)


def status_line(session: Session) -> list[StyleAndTextTuples]:
    """The status as entries that `flow` lays out: a message alone, or
    where the person is, the counts, and where the block sits."""
    lab = session.labelling
    if session.message:
        return [[("class:message", f" {session.message} ")]]
    if session.helping:
        return [[("class:status", " help: any key goes back to the page ")]]
    counts = "  ".join(f"{k} {lab.counts[k]}" for k in LABELS)
    block = session.page.blocks[lab.cursor]
    # Where the block sits and the tags just before it: what tells a new
    # paragraph (p) from the rest of the previous one (c).
    where = " > ".join(block.tags[-4:]) or "body"
    after = " ".join(f"<{t}>" for t in block.splits[-4:])
    modified = "  [modified]" if lab.dirty else ""
    return [[("class:status", f" {part} ")] for part in (
        f"block {lab.cursor + 1} of {len(lab.labels)} ",
        f"{counts}  unlabelled {lab.counts[UNLABELLED]}{modified} ",
        f"in {where}  after {after or 'text'}")]


def flow(rows: list[list[StyleAndTextTuples]], width: int) -> list[StyleAndTextTuples]:
    """Each row's entries on as few lines of `width` cells as hold each
    entry whole: a narrow terminal gets more lines, never a cut entry."""
    out: list[StyleAndTextTuples] = []
    for row in rows:
        line: StyleAndTextTuples = []
        used = 0
        for entry in row:
            cells = sum(get_cwidth(text) for _, text in entry)
            if line and used + cells > width:
                out.append(line)
                line, used = [], 0
            line = line + entry
            used += cells
        out.append(line)
    return out


class Flowed(UIControl):
    """A bar of entries that flows onto more lines where they do not fit
    (the status line, cut at 100 columns before, and the key bar)."""

    def __init__(self, rows: Callable[[], list[list[StyleAndTextTuples]]]) -> None:
        self.rows = rows

    def preferred_height(self, width: int, max_available_height: int, wrap_lines: bool,
                         get_line_prefix: object) -> int:
        return len(flow(self.rows(), width))

    def create_content(self, width: int, height: int) -> UIContent:
        lines = flow(self.rows(), width)
        return UIContent(get_line=lines.__getitem__, line_count=len(lines), show_cursor=False)
