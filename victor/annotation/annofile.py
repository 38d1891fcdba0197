"""The `.anno` file: the labels a person (or the gold alignment) gave the blocks
of one page, kept as a small text file beside the page.

A `.anno` file (docs/annotation.md) holds the page's block texts with the
labels, not just the labels: the blocks come from the pipeline, and a
change to the parser, preclean or the block splitter changes them. Labels are
re-attached to a page's blocks by their text, so such a change is
reported block by block instead of silently shifting every later label.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz.distance import LCSseq

from victor import output
from victor.config import Config
from victor.errors import VictorError, read_utf8
from victor.files import write_atomic
from victor.batch.inputs import read_input
from victor.labels import LABELS, NAMES, OTHER
from victor.reading.page import Page, read_page
from victor.reading.text import collapse

# A block not labelled yet: the interactive tool saves unfinished pages, so
# a person can stop and resume; training and export refuse them.
UNLABELLED = "?"
MAGIC = "victor-annotation 1"
_HEADER_KEYS = ("source", "url", "config")
# The share of a page's blocks that must be found in an annotation before
# differences are reported as changed blocks rather than as another page.
_SAME_PAGE = 0.5


@dataclass
class Annotation:
    # The page, as a path usable from the current folder; in the file it is
    # written relative to the .anno file's folder, so that a folder of pages
    # and annotations can be moved or cloned as a whole.
    source: str
    url: str
    labels: list[str]
    texts: list[str]
    config: str = ""  # name of the config the blocks were made with
    # Line number in the file of each block (for messages); empty if new.
    lines: list[int] = field(default_factory=list, repr=False, compare=False)


def load_annotation(path: str | os.PathLike) -> Annotation:
    path = Path(path)
    try:
        with open(path, "rb") as f:
            first = f.read(len(MAGIC.encode()))
    except OSError:
        first = None  # read_utf8 says what is wrong with the file
    if first is not None and first != MAGIC.encode():
        # Before decoding: a page given by mistake was reported as "not
        # UTF-8 text", which says nothing of what the file should be.
        page = first.lstrip().startswith(b"<")
        raise VictorError(f"{path}:1: not a Victor annotation file ("
                          f"{'an HTML page; ' if page else ''}a .anno file starts with "
                          f"'{MAGIC}'; make one with victor annotate)")
    text = read_utf8(path, "annotation file")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line.removesuffix("\r") for line in lines]

    def bad(number: int, why: str) -> VictorError:
        return VictorError(f"{path}:{number}: {why}")

    if not lines or lines[0] != MAGIC:
        raise bad(1, f"not a Victor annotation (the first line must be '{MAGIC}')")
    header: dict[str, str] = {}
    n = 1
    while True:
        n += 1
        if n > len(lines):
            raise bad(n, "the header must end with an empty line")
        line = lines[n - 1]
        if line == "":
            break
        key, sep, value = line.partition(":")
        if not sep or key not in _HEADER_KEYS:
            raise bad(n, f"expected a header line 'KEY: value' with KEY one of {', '.join(_HEADER_KEYS)}")
        if key in header:
            raise bad(n, f"'{key}' given twice")
        header[key] = value.strip()
    for key in _HEADER_KEYS:
        if key not in header:
            raise bad(n, f"the header has no '{key}:' line")
    if not header["source"]:
        raise bad(n, "the header's 'source:' names no page")
    labels, texts, numbers = [], [], []
    for number in range(n + 1, len(lines) + 1):
        label, sep, block = lines[number - 1].partition("\t")
        if not sep or (label not in LABELS and label != UNLABELLED):
            raise bad(number, "expected a label (p, h, l, c, o or ? for none yet), a tab "
                              "and the block's text")
        if not block or collapse(block) != block:
            raise bad(number, "the block's text must be non-empty, with single spaces and no tabs")
        labels.append(label)
        texts.append(block)
        numbers.append(number)
    source = os.path.normpath(os.path.join(path.parent, header["source"]))
    return Annotation(source, header["url"], labels, texts, header["config"], numbers)


def save_annotation(path: str | os.PathLike, annotation: Annotation) -> None:
    """Written whole or not at all (a temporary file renamed over the old
    one), so an interrupted save never leaves half an annotation."""
    path = Path(path)
    a = annotation
    if len(a.labels) != len(a.texts):
        raise VictorError(f"{path}: {len(a.labels)} labels for {len(a.texts)} blocks; not saved")
    for i, (label, text) in enumerate(zip(a.labels, a.texts)):
        if label not in LABELS and label != UNLABELLED:
            raise VictorError(f"{path}: block {i} has label {label!r}, not one of "
                              f"{', '.join(LABELS)} or {UNLABELLED}; not saved")
        if not text or collapse(text) != text:
            raise VictorError(f"{path}: block {i} has empty or uncollapsed text; not saved")
    for key, value in (("url", a.url), ("config", a.config)):
        if "\n" in value or "\r" in value:
            raise VictorError(f"{path}: the {key} contains a line break; not saved")
    source = Path(os.path.relpath(os.path.abspath(a.source), os.path.abspath(path.parent)))
    lines = [MAGIC, f"source: {source.as_posix()}", f"url: {a.url}", f"config: {a.config}", ""]
    lines.extend(f"{label}\t{text}" for label, text in zip(a.labels, a.texts))
    write_atomic(path, "\n".join(lines) + "\n")


def attach(annotation: Annotation, page: Page, anno_path: str | os.PathLike,
           config_name: str | None = None) -> list[str]:
    """The annotation's labels for `page.blocks`.

    Blocks are matched by text in order (the longest common subsequence of
    the two block lists), so that the labels follow their text. Every page
    block must be matched; an annotated block missing from the page is
    tolerated only if it was labelled `o`, since dropping it changes no
    segment. Anything else is an error naming the first blocks that differ:
    labels are never guessed. Read with another config than the one it was
    made with (`config_name`), the page may lack content blocks of elements
    that config deletes (the general config keeps <noscript>, the others
    drop it): those are not on its page to be labelled, and are let go.
    """
    texts = [b.text for b in page.blocks]
    if texts == annotation.texts:
        return list(annotation.labels)
    where = f"{anno_path}: annotates {annotation.source}"
    if annotation.url and page.url and annotation.url != page.url:
        raise VictorError(f"{where} ({annotation.url}), not {page.source} ({page.url})")
    found: list[int | None] = [None] * len(texts)  # annotation index of each page block
    kept = [False] * len(annotation.texts)
    for op in LCSseq.opcodes(annotation.texts, texts):
        if op.tag == "equal":
            for k in range(op.src_end - op.src_start):
                found[op.dest_start + k] = op.src_start + k
                kept[op.src_start + k] = True
    matched = sum(kept)
    if matched < _SAME_PAGE * max(len(texts), len(annotation.texts)):
        raise VictorError(f"{where}, not {page.source}: only {matched} of the page's "
                          f"{len(texts)} blocks are in it")
    new = [j for j, i in enumerate(found) if i is None]
    other_config = config_name is not None and annotation.config not in ("", config_name)
    gone = [] if other_config else [i for i, k in enumerate(kept)
                                    if not k and annotation.labels[i] != OTHER]
    if new or gone:
        parts = [f"block {j} {_short(texts[j])!r} is not in the annotation" for j in new[:2]]
        line = (lambda i: f"line {annotation.lines[i]}") if annotation.lines else (lambda i: f"block {i}")
        parts += [f"{line(i)} {_short(annotation.texts[i])!r} ({annotation.labels[i]}) is not on the page"
                  for i in gone[:2]]
        raise VictorError(
            f"{anno_path}: the blocks of {page.source} changed since it was annotated "
            f"({len(new)} new, {len(gone)} content blocks gone): {'; '.join(parts)}; "
            "annotate those blocks again")
    return [annotation.labels[i] for i in found]


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def read_page_file(path: str | os.PathLike, config: Config) -> Page:
    """The page at `path`, gzip-compressed (NAME.html.gz) or not."""
    return read_page(read_input(str(path)), config, str(path))


def load_training_page(anno_path: str | os.PathLike, config: Config,
                       annotation: Annotation | None = None) -> tuple[Page, list[str]]:
    """The page an annotation names, read with `config`, and its labels
    (`annotation`: the file's content, when the caller has read it)."""
    annotation = annotation or load_annotation(anno_path)
    if not os.path.exists(annotation.source):
        raise VictorError(f"{anno_path}: the page it names ('source:') does not exist: "
                          f"{annotation.source}")
    _check_finished(annotation, anno_path)
    page = read_page_file(annotation.source, config)
    return page, attach(annotation, page, anno_path, config.name)


def _check_finished(annotation: Annotation, where: str | os.PathLike) -> None:
    left = annotation.labels.count(UNLABELLED)
    if left:
        first = annotation.labels.index(UNLABELLED)
        at = f"line {annotation.lines[first]}" if annotation.lines else f"block {first}"
        raise VictorError(f"{where}: {left} blocks not labelled yet (the first at {at}); "
                          f"finish them with: victor annotate {annotation.source} {where}")


# --- what annotate.py does besides the interactive tool -----------------


EXPORTS = ("cleaneval", "text")


def export(annotation: Annotation, fmt: str) -> str:
    """The text an annotation keeps, as the cleaner would output it."""
    _check_finished(annotation, f"the annotation of {annotation.source}")
    if fmt == "cleaneval":
        return output.cleaneval(annotation.url, [(s.kind, s.text) for s in output.segments(
            annotation.texts, annotation.labels)])
    if fmt == "text":
        return output.plain_text(annotation.texts, annotation.labels)
    raise VictorError(f"unknown export format {fmt!r}; choose one of {', '.join(EXPORTS)}")


# The content labels in the order of the thesis's Table 5.1.
_STATS_ORDER = ("h", "l", "p", "c")


def label_stats(counts: Counter[str]) -> str:
    """The label distribution laid out as the thesis's Table 5.1."""
    content = sum(counts[k] for k in _STATS_ORDER)
    total = content + counts[OTHER]
    rows = [(NAMES[k], counts[k]) for k in _STATS_ORDER]
    rows += [("total (content)", content), ("other (noise)", counts[OTHER]), ("all blocks", total)]
    width = max(len(name) for name, _ in rows)
    lines = [f"{'label':<{width}}  {'count':>7}  {'share':>6}"]
    lines += [f"{name:<{width}}  {n:>7}  {n / total if total else 0:>6.1%}" for name, n in rows]
    return "\n".join(lines) + "\n"
