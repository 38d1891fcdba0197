"""A template's expansion into the attribute strings crfsuite trains on.

Expansion is on the hot path of training and, through the tagger's tables,
of cleaning, so an Expander keeps, across pages, its template's wildcards
resolved per set of feature names and a memo from each feature value to its
attribute strings. It works on columns rather than blocks: for each
(feature, offset) the page's values are shifted by the offset and mapped
through a memo, so the per-block work happens inside map(), zip() and
filter(). The CRF receives the attributes under short hashed keys
(compact_key), which crfsuite takes in much faster than readable names.

The memos are owned by the Expander, not by the frozen Template: whoever
holds an Expander (an estimator, a loaded model) holds its cache, and two
models never share one behind each other's backs.
"""

from __future__ import annotations

import binascii
import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Callable, Sequence

from victor.crf.template import Template

# Every block gets this attribute so that the CRF can learn label priors.
BIAS = "bias"

# Names how compact_key encodes attributes; a model records it, since a model
# read with another encoding would know none of the page's attributes.
ATTRIBUTE_KEYS = "blake2b-64/base64-11"

# Bounds on what an Expander remembers between pages (see _Memo, layout).
_MEMO_LIMIT = 4096
_LAYOUT_LIMIT = 64


def compact_key(attribute: str) -> str:
    """The name under which the CRF knows an attribute: 11 characters of a
    64-bit hash. crfsuite copies and looks up every attribute string of a
    page; strings this short stay within C++'s small-string buffer, which
    makes taking in a page much faster than with readable names. A collision among a model's attributes has a chance of about
    n² / 2⁶⁵, below one in a million for n = 10⁶."""
    digest = hashlib.blake2b(attribute.encode(), digest_size=8).digest()
    return binascii.b2a_base64(digest)[:11].decode("ascii")


def _attribute(name: str, offset: int, value: str) -> str:
    return f"{name}[{offset:+d}]={value}"


class Memo(dict):
    """key -> the attributes it emits: one string, None for none, or a tuple
    for several (a bag). Single strings let most columns be assembled with
    filter(); only columns of memos that have met a bag pay for flattening.
    Remembers a bounded number of keys: discretised features have a handful
    of values, but bags such as class names can have unboundedly many."""

    def __init__(self, make: Callable[..., list[str]], encode: Callable[[str], str]):
        super().__init__()
        self.make = make
        self.encode = encode
        self.has_bags = False

    def __missing__(self, key):
        attrs = [self.encode(a) for a in self.make(key)]
        if len(attrs) > 1:
            self.has_bags = True
            value = tuple(attrs)
        else:
            value = attrs[0] if attrs else None
        if len(self) < _MEMO_LIMIT:
            self[key] = value
        return value


def _items(value: str | None) -> list[str]:
    # Whitespace separates the items of a bag; an empty bag or an absent
    # feature emits nothing.
    return value.split() if value else []


def _single(name: str, offset: int, encode: Callable[[str], str],
            absent: frozenset[str]) -> Memo:
    prefix = _attribute(name, offset, "")
    return Memo(lambda value: [prefix + item for item in _items(value) if item not in absent],
                encode)


def _combination(terms: tuple[tuple[str, int], ...], encode: Callable[[str], str]) -> Memo:
    def make(values: tuple[str | None, ...]) -> list[str]:
        choices = [[_attribute(name, offset, item) for item in _items(value)]
                   for (name, offset), value in zip(terms, values)]
        return ["|".join(parts) for parts in itertools.product(*choices)]
    return Memo(make, encode)


@dataclass
class Layout:
    """What a template asks of a page with a given set of feature names."""

    names: tuple[str, ...]
    singles: list[tuple[str, int, Memo]]
    combinations: list[tuple[tuple[tuple[str, int], ...], Memo]]


@dataclass
class Expander:
    """A template's expansion, readable or (`compact`) under compact_key,
    with the memos it gathers from page to page."""

    template: Template
    compact: bool = False
    constant: list[tuple[str, int]] = field(init=False)  # bias and the page-edge markers
    _singles: dict = field(default_factory=dict, init=False, repr=False)
    _combinations: dict = field(default_factory=dict, init=False, repr=False)
    _layouts: dict = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.encode = compact_key if self.compact else str
        reach = sorted({o for line in self.template.lines for ref in line
                        for o in ref.offsets} - {0})
        constant = [(BIAS, 0)] + [(f"__BOS__[{o:+d}]" if o < 0 else f"__EOS__[{o:+d}]", o)
                                  for o in reach]
        self.constant = [(self.encode(a), o) for a, o in constant]

    def layout(self, names: frozenset[str]) -> Layout:
        layout = self._layouts.get(names)
        if layout is None:
            if len(self._layouts) >= _LAYOUT_LIMIT:
                self._layouts.clear()
            layout = self._layouts[names] = self._resolve(sorted(names))
        return layout

    def _resolve(self, names: list[str]) -> Layout:
        """Resolves the wildcards against the page's feature names. A feature
        matched by several single lines is emitted once per distinct offset;
        a combination is emitted once however many lines produce it, mirror
        images included, and never combines a term with itself."""
        single_refs = [line[0] for line in self.template.lines if len(line) == 1]
        singles = []
        for name in names:
            for o in sorted({o for ref in single_refs if ref.matches(name) for o in ref.offsets}):
                if (name, o) not in self._singles:
                    self._singles[name, o] = _single(name, o, self.encode,
                                                      self.template.absent)
                singles.append((name, o, self._singles[name, o]))
        combinations = []
        seen = set()
        for line in self.template.lines:
            if len(line) == 1:
                continue
            choices = [[(name, o) for name in names if ref.matches(name) for o in ref.offsets]
                       for ref in line]
            for terms in itertools.product(*choices):
                key = frozenset(terms)
                if len(key) < len(terms) or key in seen:
                    continue
                seen.add(key)
                if terms not in self._combinations:
                    self._combinations[terms] = _combination(terms, self.encode)
                combinations.append((terms, self._combinations[terms]))
        used = {name for name, _, _ in singles}
        used.update(name for terms, _ in combinations for name, _ in terms)
        return Layout(tuple(sorted(used)), singles, combinations)

    def expand(self, feature_dicts: Sequence[dict[str, str]]) -> list[list[str]]:
        """Attribute strings for each block of one page, in the form
        crfsuite's Trainer.append and Tagger.set take directly."""
        n = len(feature_dicts)
        if n == 0:
            return []
        layout = self.layout(frozenset().union(*feature_dicts))
        values = {name: [d.get(name) for d in feature_dicts] for name in layout.names}
        shifted: dict[tuple[str, int], list] = {}

        def column(name: str, offset: int) -> list:
            if (name, offset) not in shifted:
                shifted[name, offset] = _shift(values[name], offset)
            return shifted[name, offset]

        plain = [_constant(n, attribute, o) for attribute, o in self.constant]
        bagged = []
        for name, o, memo in layout.singles:
            attrs = list(map(memo.__getitem__, column(name, o)))
            (bagged if memo.has_bags else plain).append(attrs)
        for terms, memo in layout.combinations:
            attrs = list(map(memo.__getitem__, zip(*(column(name, o) for name, o in terms))))
            (bagged if memo.has_bags else plain).append(attrs)

        out = [list(filter(None, row)) for row in zip(*plain)]
        if bagged:
            for attrs, row in zip(out, zip(*bagged)):
                for entry in row:
                    if type(entry) is tuple:
                        attrs.extend(entry)
                    elif entry is not None:
                        attrs.append(entry)
        return out


def expand(template: Template, feature_dicts: Sequence[dict[str, str]],
           compact: bool = False) -> list[list[str]]:
    """One page's attributes, readable or (`compact`) as the CRF gets them;
    with a fresh Expander, for looking at one page: repeated work should
    keep an Expander."""
    return Expander(template, compact).expand(feature_dicts)


def _shift(column: list, offset: int) -> list:
    """Entry i of the result is entry i + offset of `column`, None off the page."""
    n = len(column)
    if offset >= 0:
        return column[offset:] + [None] * min(offset, n)
    return [None] * min(-offset, n) + column[:max(n + offset, 0)]


def _constant(n: int, attribute: str, offset: int) -> list[str | None]:
    column: list[str | None] = [None] * n
    span = constant_span(n, offset)
    column[span] = [attribute] * (span.stop - span.start)
    return column


def constant_span(n: int, offset: int) -> slice:
    """The blocks of an n-block page that get a constant attribute: every
    block for offset 0 (the bias), otherwise those whose neighbour at
    `offset` lies beyond the page."""
    if offset == 0:
        return slice(0, n)
    k = min(abs(offset), n)
    return slice(0, k) if offset < 0 else slice(n - k, n)
