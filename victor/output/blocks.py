"""Labelled blocks as text, without the page's tree: what an annotation
file renders (victor/annotation/) and what training scores its folds on.

A block labelled p, h or l opens a segment of that type and each following
`c` block joins it, so a paragraph split by inline tags reads as one again.
`o` blocks are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from victor.labels import OTHER


@dataclass(slots=True)
class Segment:
    kind: str  # p, h or l
    text: str
    blocks: list[int]  # indexes of the blocks joined into it


def segments(texts: list[str], labels: list[str]) -> list[Segment]:
    """A `c` with no segment open yet starts a paragraph: the block is
    content, and a paragraph is the least specific content type."""
    out: list[Segment] = []
    for i, (text, label) in enumerate(zip(texts, labels)):
        if label == OTHER:
            continue
        if label == "c" and out:
            seg = out[-1]
            seg.text = f"{seg.text} {text}"
            seg.blocks.append(i)
        else:
            out.append(Segment("p" if label == "c" else label, text, [i]))
    return out


def plain_text(texts: list[str], labels: list[str]) -> str:
    """One segment a paragraph, paragraphs separated by blank lines."""
    segs = segments(texts, labels)
    return "\n\n".join(s.text for s in segs) + ("\n" if segs else "")


def listing(texts: list[str], labels: list[str]) -> str:
    """Victor's own view: every block with its label, as an annotation lists
    them, so a cleaned page can be corrected and used for training."""
    return "".join(f"{label}\t{text}\n" for text, label in zip(texts, labels))
