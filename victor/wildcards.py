"""The one wildcard Victor's feature names take: a trailing `*` stands for
any ending (`container.*` is every container feature). Configs, templates
and `learn --disable` all match names with it, so that a pattern means the
same wherever it is written."""

from __future__ import annotations

from typing import Iterable


def matches(pattern: str, name: str) -> bool:
    if pattern.endswith("*"):
        return name.startswith(pattern[:-1])
    return name == pattern


def expand(pattern: str, names: Iterable[str]) -> list[str]:
    """The names the pattern stands for, in their given order."""
    return [n for n in names if matches(pattern, n)]
