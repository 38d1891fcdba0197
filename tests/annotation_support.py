"""What the annotation tests share: a page of data/ read as the annotation
tool reads it, and a page's labels by block text."""

from __future__ import annotations

from pathlib import Path

from victor.reading.page import read_page


def page_of(path: Path, config, data: bytes | None = None):
    return read_page(path.read_bytes() if data is None else data, config, str(path))


def labels_by_text(texts: list[str], labels: list[str]) -> dict[str, str]:
    return {t: label for t, label in zip(texts, labels)}
