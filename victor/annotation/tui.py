"""The annotation tool: a full-screen terminal view of a page's blocks in
which a person gives each block its label with one key.

A page can have thousands of blocks and a person presses a key every
second or so, so the screen is built from the blocks around the current
one only. What is edited, and saved, is victor/annotation/labelling.py.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import ConditionalContainer, HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl, UIContent, UIControl
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

from victor.annotation import UNLABELLED
from victor.config import Config
from victor.errors import VictorError
from victor.annotation.guide import KEYS, guide
from victor.annotation.labelling import Session, farewell, open_session
from victor.labels import LABELS, NAMES

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


# Every key the tool takes, as Victor's bottom bar listed them: labels on
# the first line, then moving and the file (Up and Down work as j and k).
KEY_ROWS = ([[("class:bar.key", f" {k}"), ("class:bar", f" {NAMES[k]} ")] for k in LABELS],
            [[("class:bar.key", f" {key}"), ("class:bar", f" {name} ")] for key, name, _ in KEYS])


def application(session: Session, input: Input | None = None,
                output: Output | None = None) -> Application[int]:
    lab = session.labelling
    blocks = BlockList(session)
    confirming = Condition(lambda: session.confirming_quit)
    helping = Condition(lambda: session.helping)
    keys = KeyBindings()

    def bind(*names: str, filter=~confirming & ~helping) -> Callable:
        """Each key first clears the last message: it answered the key
        before and would mislead after this one."""
        def register(action: Callable[[object], None]) -> Callable[[object], None]:
            def handler(event) -> None:
                session.message = ""
                action(event)
            for name in names:
                keys.add(name, filter=filter)(handler)
            return action
        return register

    def give(label: str) -> None:
        last = lab.cursor == len(lab.labels) - 1
        lab.label(label)
        if last:
            left = lab.counts[UNLABELLED]
            session.message = (f"end of the page: {left} blocks unlabelled, n goes to the next" if left
                               else "end of the page: every block is labelled, s saves")

    for key in LABELS:
        bind(key)(lambda event, key=key: give(key))
    bind("down", "j")(lambda event: lab.move(1))
    bind("up", "k")(lambda event: lab.move(-1))
    bind("pagedown")(lambda event: lab.move(blocks.page_step()))
    bind("pageup")(lambda event: lab.move(-blocks.page_step()))
    bind("home", "g")(lambda event: lab.move(-len(lab.labels)))
    bind("end", "G")(lambda event: lab.move(len(lab.labels)))

    @bind("n")
    def _(event) -> None:
        if not lab.next_unlabelled():
            session.message = "every block is labelled"

    @bind("u")
    def _(event) -> None:
        if not lab.undo():
            session.message = "nothing to undo"

    @bind("s", "c-s")
    def _(event) -> None:
        session.save()

    @bind("q", "c-c")
    def _(event) -> None:
        if not lab.dirty:
            event.app.exit(result=0)
            return
        session.confirming_quit = True
        # Short enough for 80 columns: the answer must be readable in full.
        session.message = "unsaved labels: q quit without saving, s save and quit, other keys go back"

    @bind("?")
    def _(event) -> None:
        session.helping = True

    @bind("<any>", filter=helping)
    def _(event) -> None:
        session.helping = False

    # While asking, the last binding added for a key wins: any key goes
    # back, except the two answers.
    @bind("<any>", filter=confirming)
    def _(event) -> None:
        session.confirming_quit = False

    @bind("q", "c-c", filter=confirming)
    def _(event) -> None:
        event.app.exit(result=0)

    @bind("s", "c-s", filter=confirming)
    def _(event) -> None:
        session.confirming_quit = False
        if session.save():
            event.app.exit(result=0)

    title = f" {session.page.source} -> {session.anno_path}   {session.page.url}"
    body = HSplit([
        Window(FormattedTextControl([("class:title", title)]), height=1, style="class:title"),
        ConditionalContainer(Window(blocks, always_hide_cursor=True), filter=~helping),
        ConditionalContainer(Window(FormattedTextControl(guide()), wrap_lines=True,
                                    always_hide_cursor=True), filter=helping),
        # Flowed rather than cut: at 100 columns the tags before a block,
        # what tells p from c, fell off the end.
        Window(Flowed(lambda: [status_line(session)]), style="class:status",
               dont_extend_height=True),
        Window(Flowed(lambda: list(KEY_ROWS)), style="class:bar", dont_extend_height=True),
    ])
    return Application(layout=Layout(body), key_bindings=keys,
                       style=STYLE, full_screen=True, input=input, output=output)


def run(config: Config, page_path: str | Path, anno_path: str | Path,
        prefill: list[str] | None = None, input: Input | None = None,
        output: Output | None = None) -> int:
    """Annotate one page until the person quits; the exit status for the
    script. `input`/`output` let tests drive the tool without a terminal."""
    if input is None and not sys.stdin.isatty():
        raise VictorError("annotate: standard input is not a terminal; the annotation tool is interactive")
    session = open_session(config, Path(page_path), Path(anno_path), prefill)
    status = application(session, input, output).run()
    print(farewell(session))
    return status
