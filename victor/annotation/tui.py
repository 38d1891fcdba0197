"""The annotation tool: a full-screen terminal view of a page's blocks in
which a person gives each block its label with one key.

A page can have thousands of blocks and a person presses a key every
second or so, so the screen is built from the blocks around the current
one only. What is edited, and saved, is victor/annotation/labelling.py.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import ConditionalContainer, HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output

from victor.annotation.annofile import UNLABELLED
from victor.config import Config
from victor.errors import VictorError
from victor.annotation.guide import KEYS, guide
from victor.annotation.labelling import Session, farewell, open_session
from victor.annotation.screen import STYLE, BlockList, Flowed, status_line
from victor.labels import LABELS, NAMES


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
