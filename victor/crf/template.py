"""Victor's template language (docs/templates.md): which features of which
neighbouring blocks the CRF sees, and which of them in combination.

A parsed Template is a plain frozen value, so that one can be shared, hashed
and compared; what expansion learns about it across pages is kept by the
Expander that uses it (victor.crf.expansion)."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from victor.errors import VictorError
from victor.wildcards import matches

_PATTERN = re.compile(r"[A-Za-z0-9_.\-]+\*?|\*")
_REFERENCE = re.compile(r"\s*(?P<pattern>[^\s\[\]&]+)\s*(?:\[(?P<offsets>[^\]]*)\])?\s*")
_OFFSET = re.compile(r"\s*([+-]?\d+)\s*(?:\.\.\s*([+-]?\d+)\s*)?")


@dataclass(frozen=True)
class Reference:
    """A feature name, or a name prefix ending in `*`, seen at some offsets."""

    pattern: str
    offsets: tuple[int, ...]

    def matches(self, name: str) -> bool:
        return matches(self.pattern, name)

    def __str__(self) -> str:
        return f"{self.pattern}[{','.join(map(str, self.offsets))}]"


@dataclass(frozen=True)
class Template:
    """A parsed template. `lines` with one reference emit single features;
    lines with several emit their conjunctions. A single feature at one of
    the `absent` values emits nothing (an `@absent` line)."""

    source: str
    text: str
    lines: tuple[tuple[Reference, ...], ...]
    absent: frozenset[str] = frozenset()

    @property
    def digest(self) -> str:
        """Hash of the template's meaning (comments and spacing do not count),
        stored with a model so that a changed template is noticed."""
        canonical = "\n".join(" & ".join(map(str, line)) for line in self.lines)
        if self.absent:  # templates without the line keep the digest they had
            canonical += "\n@absent " + " ".join(sorted(self.absent))
        return hashlib.sha256(canonical.encode()).hexdigest()

    @property
    def reach(self) -> int:
        """How far from a block the template looks, either way."""
        return max((abs(o) for line in self.lines for ref in line for o in ref.offsets),
                   default=0)


def load_template(path: str | os.PathLike) -> Template:
    """A template file, its `@include NAME` lines replaced by the text of
    NAME.tpl beside it: the parsed template, and the text a model records,
    stand alone."""
    return parse_template(_read_included(Path(path), ()), str(path))


def _read_included(path: Path, seen: tuple[Path, ...]) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise VictorError(f"{path}: template file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise VictorError(f"{path}: cannot read template ({e})") from None
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].split()
        if body[:1] != ["@include"]:
            out.append(raw)
            continue
        if len(body) != 2:
            raise VictorError(f"{path} line {number}: @include takes one template name")
        name = body[1] if body[1].endswith(".tpl") else body[1] + ".tpl"
        included = path.parent / name
        if included.resolve() in seen or included.resolve() == path.resolve():
            raise VictorError(f"{path} line {number}: {name} includes itself")
        out.append(_read_included(included, seen + (path.resolve(),)).rstrip("\n"))
    return "\n".join(out) + "\n"


def parse_template(text: str, source: str) -> Template:
    """`source` names the template in error messages (a path, or a model
    file whose metadata carries the template)."""
    lines = []
    absent: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if body.startswith("@"):
            absent.update(_parse_directive(body, source, number))
        elif body:
            line = tuple(_parse_reference(part, source, number) for part in body.split("&"))
            if line not in lines:
                lines.append(line)
    if not lines:
        raise VictorError(f"{source}: template names no features")
    return Template(source=source, text=text, lines=tuple(lines), absent=frozenset(absent))


def _parse_directive(body: str, source: str, number: int) -> list[str]:
    """`@absent VALUE...`: values at which a single feature says nothing.
    One value of each feature can go without an attribute, the CRF's bias
    standing in for it, and a block's attributes are mostly zeros, which
    cost training time in proportion (docs/templates.md)."""
    name, *values = body.split()
    if name != "@absent":
        raise VictorError(f"{source} line {number}: unknown directive '{name}' (known: @absent)")
    if not values:
        raise VictorError(f"{source} line {number}: @absent names no value")
    return values


def _parse_reference(part: str, source: str, number: int) -> Reference:
    where = f"{source} line {number}"
    m = _REFERENCE.fullmatch(part)
    if not m:
        raise VictorError(f"{where}: expected FEATURE[OFFSETS], got '{part.strip()}'")
    pattern = m["pattern"]
    if not _PATTERN.fullmatch(pattern):
        raise VictorError(
            f"{where}: bad feature name '{pattern}' (letters, digits, '.', '-', '_'; "
            "'*' only at the end)")
    if m["offsets"] is None:
        return Reference(pattern, (0,))
    offsets: set[int] = set()
    for item in m["offsets"].split(","):
        o = _OFFSET.fullmatch(item)
        if not o:
            raise VictorError(f"{where}: bad offset '{item.strip()}' in '{part.strip()}'")
        first = int(o[1])
        last = first if o[2] is None else int(o[2])
        if last < first:
            raise VictorError(f"{where}: offset range '{item.strip()}' runs backwards")
        offsets.update(range(first, last + 1))
    return Reference(pattern, tuple(sorted(offsets)))
