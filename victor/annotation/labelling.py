"""What the annotation tool edits, without the screen: the labels of a
page's blocks, where the person is, undo, and saving to the .anno file.

A page can have thousands of blocks and a person presses a key every
second or so, so nothing done per keypress walks the page: label counts
are kept up to date as labels change and undo is a stack of single
changes. The screen is victor/annotation/tui.py.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from victor.annotation.annofile import (UNLABELLED, Annotation, attach, load_annotation,
                                        read_page_file, save_annotation)
from victor.config import Config
from victor.errors import VictorError
from victor.labels import LABELS
from victor.reading.page import Page

@dataclass(eq=False)
class Labelling:
    """The labels being edited (UNLABELLED: none yet), where the person
    is, and how to go back.

    `history` holds (block, label before, cursor before) for each change so
    that undo restores the label and returns to the block it was given on.
    `saved_depth` is the history depth at which the labels equal the file
    on disk; None when no undo can get back there (the labels changed after
    undoing past the save, or labels came from a pre-fill never saved).
    """

    labels: list[str]
    cursor: int = 0
    history: list[tuple[int, str, int]] = field(default_factory=list)
    saved_depth: int | None = 0
    counts: Counter = field(init=False)

    def __post_init__(self) -> None:
        self.counts = Counter(self.labels)

    @property
    def dirty(self) -> bool:
        return self.saved_depth != len(self.history)

    def label(self, label: str) -> None:
        """Label the current block and go on to the next: a person reads
        the page top to bottom, one key per block."""
        i = self.cursor
        if self.saved_depth is not None and len(self.history) < self.saved_depth:
            self.saved_depth = None
        self.history.append((i, self.labels[i], i))
        self._set(i, label)
        self.move(1)

    def undo(self) -> bool:
        if not self.history:
            return False
        i, before, cursor = self.history.pop()
        self._set(i, before)
        self.cursor = cursor
        return True

    def move(self, delta: int) -> None:
        self.cursor = max(0, min(len(self.labels) - 1, self.cursor + delta))

    def next_unlabelled(self) -> bool:
        """The first unlabelled block after the current one, wrapping round
        to the top: a pre-filled page leaves gaps anywhere."""
        if not self.counts[UNLABELLED]:
            return False
        try:
            self.cursor = self.labels.index(UNLABELLED, self.cursor + 1)
        except ValueError:
            self.cursor = self.labels.index(UNLABELLED)
        return True

    def mark_saved(self) -> None:
        self.saved_depth = len(self.history)

    def _set(self, i: int, label: str) -> None:
        self.counts[self.labels[i]] -= 1
        self.counts[label] += 1
        self.labels[i] = label


@dataclass(eq=False)
class Session:
    """One page being annotated: what is shown, what is saved where, and
    the one-line message for the person (cleared by the next key)."""

    page: Page
    config: str  # the config's name, recorded in the .anno
    anno_path: Path
    labelling: Labelling
    message: str = ""
    confirming_quit: bool = False
    helping: bool = False  # the guide (victor/annotation/guide.py) is shown in place of the blocks
    saves: int = 0  # made this run, for the line printed on quitting

    def save(self) -> bool:
        """Saving is the only moment a file is written, and it goes through
        the annotation module's atomic save: an interrupted save leaves the
        previous file whole."""
        texts = [b.text for b in self.page.blocks]
        annotation = Annotation(self.page.source, self.page.url, list(self.labelling.labels), texts,
                                self.config)
        try:
            save_annotation(self.anno_path, annotation)
        except (OSError, VictorError) as e:
            self.message = f"not saved: {e}"
            return False
        self.labelling.mark_saved()
        self.saves += 1
        self.message = f"saved {self.anno_path}"
        return True


def farewell(session: Session) -> str:
    """The line left on the terminal once the full screen is gone: what
    became of the person's work, which the screen no longer shows."""
    lab = session.labelling
    left = lab.counts[UNLABELLED]
    state = f"{len(lab.labels) - left} of {len(lab.labels)} blocks labelled"
    if lab.dirty:
        return (f"quit without saving: the labels since the last save are lost; "
                f"{session.anno_path} {'kept as it was' if session.anno_path.exists() else 'not written'}")
    if session.saves:
        return f"saved {session.anno_path}: {state}" + (f", {left} to go" if left else "")
    return f"nothing changed: {session.anno_path} {'as it was' if session.anno_path.exists() else 'not written'}"


def open_session(config: Config, page_path: Path, anno_path: Path,
                 prefill: list[str] | None = None) -> Session:
    """An existing .anno is resumed; `prefill` (labels from gold or a model,
    one per block) fills only the blocks it leaves unlabelled, so a
    person's own labels always win over a guess."""
    page = read_page_file(page_path, config)
    if not page.blocks:
        raise VictorError(f"{page_path}: no text blocks to annotate")
    labels = [UNLABELLED] * len(page.blocks)
    if anno_path.exists():
        labels = list(attach(load_annotation(anno_path), page, anno_path))
    saved_depth: int | None = 0
    if prefill is not None:
        if len(prefill) != len(page.blocks):
            raise VictorError(f"{page_path}: {len(prefill)} pre-filled labels for "
                              f"{len(page.blocks)} blocks")
        for i, label in enumerate(prefill):
            if label not in LABELS:
                raise VictorError(f"{page_path}: pre-filled label {label!r} at block {i + 1} "
                                  f"is not one of {', '.join(LABELS)}")
            if labels[i] == UNLABELLED:
                labels[i] = label
                saved_depth = None
    start = labels.index(UNLABELLED) if UNLABELLED in labels else 0
    return Session(page, config.name, anno_path, Labelling(labels, cursor=start, saved_depth=saved_depth))
