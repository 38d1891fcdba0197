"""What a person labelling pages needs to know: what each label is for and
which key does what. The annotation tool shows it on `?` and lists its keys
in the bottom bar, and `victor annotate --help` prints it: docs/annotate.md,
the full guide, is not in the installed package.

Kept apart from victor/annotation/tui.py so that the command's help does not import
the terminal toolkit.
"""

from __future__ import annotations

import textwrap

from victor.labels import LABELS, NAMES

# What each label is for; the continuation is the one people stumble on.
USES = {
    "p": "running text that starts a new paragraph",
    "h": "a heading",
    "l": "one item of a list",
    "c": "text that goes on the paragraph, header or list item of the block before "
         "it: a link or <b> inside a paragraph is a block of its own, labelled c",
    "o": "everything cleaned away: menus, ads, footers, link lists",
}

# The tool's keys beside the labels: (key as the bottom bar shows it, what
# the bar calls it, what it does).
KEYS = (
    ("j/k", "block", "next / previous block (also Down / Up)"),
    ("PgUp/PgDn", "page", "a screenful of blocks up / down"),
    ("g/G", "top/end", "first / last block (also Home / End)"),
    ("n", "unlabelled", "next unlabelled block, wrapping round to the top"),
    ("u", "undo", "undo the last label and go back to its block; again to undo more"),
    ("s", "save", "save the labels to the .anno file (also Ctrl-S)"),
    ("q", "quit", "quit; with labels not saved it asks first (also Ctrl-C)"),
    ("?", "help", "show this help; any key goes back"),
)


def guide() -> str:
    """The labels and keys, with the hint the status line gives, as plain
    text of at most 80 columns."""
    lines = ["Labels (the key labels the current block and moves to the next):"]
    lines += [textwrap.fill(f"  {k}  {NAMES[k]:<13} {USES[k]}", 80, subsequent_indent=" " * 19)
              for k in LABELS]
    lines += ["", "Keys:"]
    lines += [f"  {key:<10} {does}" for key, _, does in KEYS]
    lines += ["",
              "The status line shows the elements the block sits in and the tags just",
              "before it: after <p>, <li> or <h2> a block usually starts something new",
              "(p, l, h); after </a> or <b> it usually goes on (c)."]
    return "\n".join(lines) + "\n"
