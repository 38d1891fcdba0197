"""The CRF stage: Victor's template, its expansion into crfsuite attributes,
training with L-BFGS, and tagging with per-block marginals.

A template (see docs/templates.md) says which features of which neighbouring
blocks the CRF sees and which of them it sees in combination. Expansion is on
the hot path of cleaning, so a template keeps, across pages, its wildcards
resolved per set of feature names and a memo from each feature value to its
attribute strings; the per-block work then runs inside map(), zip() and
filter(). The CRF receives the attributes under short hashed keys, which
crfsuite takes in much faster than readable names.

crfsuite trains the model; tagging reads its weights and runs Viterbi and
forward-backward with numpy, which gives crfsuite's labels and marginals
without handing it every attribute string of every block (see Model).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import itertools
import json
import math
import os
import platform
import re
import secrets
import struct
import time
from collections import Counter
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np
import pycrfsuite

from victor.errors import VictorError

LABELS = ("p", "h", "l", "c", "o")

# Every block gets this attribute so that the CRF can learn label priors.
BIAS = "bias"

DEFAULT_PARAMS: dict[str, object] = {
    "c1": 0.1,
    "c2": 0.01,
    "max_iterations": 200,
    # All 25 label transitions get a weight, even those unseen in training:
    # with five labels that is cheap and lets L1/L2 decide.
    "feature.possible_transitions": True,
}

# Names how compact_key encodes attributes; a model records it, since a model
# read with another encoding would know none of the page's attributes.
ATTRIBUTE_KEYS = "blake2b-64/base64-11"

# Bounds on what a template remembers between pages (see _Memo, _Plan).
_MEMO_LIMIT = 4096
_LAYOUT_LIMIT = 64

_PATTERN = re.compile(r"[A-Za-z0-9_.\-]+\*?|\*")
_REFERENCE = re.compile(r"\s*(?P<pattern>[^\s\[\]&]+)\s*(?:\[(?P<offsets>[^\]]*)\])?\s*")
_OFFSET = re.compile(r"\s*([+-]?\d+)\s*(?:\.\.\s*([+-]?\d+)\s*)?")


@dataclass(frozen=True)
class Reference:
    """A feature name, or a name prefix ending in `*`, seen at some offsets."""

    pattern: str
    offsets: tuple[int, ...]

    def matches(self, name: str) -> bool:
        if self.pattern.endswith("*"):
            return name.startswith(self.pattern[:-1])
        return name == self.pattern

    def __str__(self) -> str:
        return f"{self.pattern}[{','.join(map(str, self.offsets))}]"


@dataclass(frozen=True)
class Template:
    """A parsed template. `lines` with one reference emit single features;
    lines with several emit their conjunctions."""

    source: str
    text: str
    lines: tuple[tuple[Reference, ...], ...]
    _plans: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def digest(self) -> str:
        """Hash of the template's meaning (comments and spacing do not count),
        stored with a model so that a changed template is noticed."""
        canonical = "\n".join(" & ".join(map(str, line)) for line in self.lines)
        return hashlib.sha256(canonical.encode()).hexdigest()


def load_template(path: str | os.PathLike) -> Template:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise VictorError(f"{path}: template file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise VictorError(f"{path}: cannot read template ({e})") from None
    return parse_template(text, str(path))


def parse_template(text: str, source: str) -> Template:
    """`source` names the template in error messages (a path, or a model
    file whose metadata carries the template)."""
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if body:
            line = tuple(_parse_reference(part, source, number) for part in body.split("&"))
            if line not in lines:
                lines.append(line)
    if not lines:
        raise VictorError(f"{source}: template names no features")
    return Template(source=source, text=text, lines=tuple(lines))


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


# ---------------------------------------------------------------- expansion
#
# Expansion works on columns rather than blocks: for each (feature, offset)
# the page's values are shifted by the offset and mapped through a memo from
# value to attribute strings, so the per-block work happens inside map(),
# zip() and filter(). The memos live with the template and serve every page.


def _attribute(name: str, offset: int, value: str) -> str:
    return f"{name}[{offset:+d}]={value}"


class _Memo(dict):
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


def _single(name: str, offset: int, encode: Callable[[str], str]) -> _Memo:
    return _Memo(lambda value: [_attribute(name, offset, item) for item in _items(value)],
                 encode)


def _combination(terms: tuple[tuple[str, int], ...], encode: Callable[[str], str]) -> _Memo:
    def make(values: tuple[str | None, ...]) -> list[str]:
        choices = [[_attribute(name, offset, item) for item in _items(value)]
                   for (name, offset), value in zip(terms, values)]
        return ["|".join(parts) for parts in itertools.product(*choices)]
    return _Memo(make, encode)


@dataclass
class _Layout:
    """What a template asks of a page with a given set of feature names."""

    names: tuple[str, ...]
    singles: list[tuple[str, int, _Memo]]
    combinations: list[tuple[tuple[tuple[str, int], ...], _Memo]]


@dataclass
class _Plan:
    template: Template
    encode: Callable[[str], str]
    constant: list[tuple[str, int]]   # bias and the page-edge markers
    singles: dict = field(default_factory=dict)
    combinations: dict = field(default_factory=dict)
    layouts: dict = field(default_factory=dict)

    def layout(self, names: frozenset[str]) -> _Layout:
        layout = self.layouts.get(names)
        if layout is None:
            if len(self.layouts) >= _LAYOUT_LIMIT:
                self.layouts.clear()
            layout = self.layouts[names] = self._resolve(sorted(names))
        return layout

    def _resolve(self, names: list[str]) -> _Layout:
        """Resolves the wildcards against the page's feature names. A feature
        matched by several single lines is emitted once per distinct offset;
        a combination is emitted once however many lines produce it, mirror
        images included, and never combines a term with itself."""
        single_refs = [line[0] for line in self.template.lines if len(line) == 1]
        singles = []
        for name in names:
            for o in sorted({o for ref in single_refs if ref.matches(name) for o in ref.offsets}):
                if (name, o) not in self.singles:
                    self.singles[name, o] = _single(name, o, self.encode)
                singles.append((name, o, self.singles[name, o]))
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
                if terms not in self.combinations:
                    self.combinations[terms] = _combination(terms, self.encode)
                combinations.append((terms, self.combinations[terms]))
        used = {name for name, _, _ in singles}
        used.update(name for terms, _ in combinations for name, _ in terms)
        return _Layout(tuple(sorted(used)), singles, combinations)


def _plan(template: Template, compact: bool) -> _Plan:
    if compact not in template._plans:
        encode = compact_key if compact else str
        reach = sorted({o for line in template.lines for ref in line for o in ref.offsets} - {0})
        constant = [(BIAS, 0)] + [(f"__BOS__[{o:+d}]" if o < 0 else f"__EOS__[{o:+d}]", o)
                                  for o in reach]
        template._plans[compact] = _Plan(template, encode, [(encode(a), o) for a, o in constant])
    return template._plans[compact]


def compact_key(attribute: str) -> str:
    """The name under which the CRF knows an attribute: 11 characters of a
    64-bit hash. crfsuite copies and looks up every attribute string of a
    page; strings this short stay within C++'s small-string buffer, which
    makes taking in a page about three times faster than with readable
    names. A collision among a model's attributes has a chance of about
    n² / 2⁶⁵, below one in a million for n = 10⁶."""
    digest = hashlib.blake2b(attribute.encode(), digest_size=8).digest()
    return base64.b64encode(digest)[:11].decode("ascii")


def _shift(column: list, offset: int) -> list:
    """Entry i of the result is entry i + offset of `column`, None off the page."""
    n = len(column)
    if offset >= 0:
        return column[offset:] + [None] * min(offset, n)
    return [None] * min(-offset, n) + column[:max(n + offset, 0)]


def _constant(n: int, attribute: str, offset: int) -> list[str | None]:
    """`attribute` on every block when offset is 0; otherwise on the blocks
    whose neighbour at `offset` lies beyond the page."""
    if offset == 0:
        return [attribute] * n
    k = min(abs(offset), n)
    if offset < 0:
        return [attribute] * k + [None] * (n - k)
    return [None] * (n - k) + [attribute] * k


def expand(template: Template, feature_dicts: Sequence[dict[str, str]],
           compact: bool = False) -> list[list[str]]:
    """Attribute strings for each block of one page, in the form crfsuite's
    Trainer.append and Tagger.set take directly: readable ones, or with
    `compact` the keys (compact_key) under which training and tagging pass
    them to the CRF."""
    n = len(feature_dicts)
    if n == 0:
        return []
    plan = _plan(template, compact)
    layout = plan.layout(frozenset().union(*feature_dicts))
    values = {name: [d.get(name) for d in feature_dicts] for name in layout.names}
    shifted: dict[tuple[str, int], list] = {}

    def column(name: str, offset: int) -> list:
        if (name, offset) not in shifted:
            shifted[name, offset] = _shift(values[name], offset)
        return shifted[name, offset]

    plain = [_constant(n, attribute, o) for attribute, o in plan.constant]
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


# ---------------------------------------------------------------- training


class _Trainer(pycrfsuite.Trainer):
    """crfsuite's trainer, reporting iterations to a callback instead of
    printing its log."""

    def __init__(self, on_iteration: Callable[[int, float], None] | None):
        super().__init__(algorithm="lbfgs", verbose=True)
        self.report = on_iteration
        self.iterations = 0
        self.loss: float | None = None

    def on_iteration(self, log, info):
        self.iterations = info["num"]
        self.loss = info["loss"]
        if self.report is not None:
            self.report(self.iterations, self.loss)

    def on_start(self, log): pass
    def on_featgen_progress(self, log, percent): pass
    def on_featgen_end(self, log): pass
    def on_prepared(self, log): pass
    def on_prepare_error(self, log): pass
    def on_optimization_end(self, log): pass
    def on_end(self, log): pass


def _training_params(params: Mapping[str, object], trainer: _Trainer) -> dict[str, object]:
    """Victor's defaults overlaid with the caller's crfsuite L-BFGS settings.
    A dash may stand for an underscore (YAML configs write max-iterations).
    crfsuite itself silently reads a malformed number as 0, so values are
    checked here."""
    known = set(trainer.params())
    merged = dict(DEFAULT_PARAMS)
    for key, value in params.items():
        name = key.replace("-", "_")
        if name not in known:
            raise VictorError(
                f"crf settings: unknown parameter '{key}' (known: {', '.join(sorted(known))})")
        if name != "linesearch" and (isinstance(value, str) or not isinstance(value, (int, float))):
            raise VictorError(f"crf settings: parameter '{key}' must be a number, not {value!r}")
        merged[name] = value
    return merged


def _metadata_path(model_path: Path) -> Path:
    return model_path.with_name(model_path.name + ".json")


def _versions() -> dict[str, str]:
    return {"python": platform.python_version(),
            "python-crfsuite": importlib.metadata.version("python-crfsuite")}


def train(sequences: Sequence[Sequence[dict[str, str]]],
          labels: Sequence[Sequence[str]],
          template: Template,
          params: Mapping[str, object],
          model_path: str | os.PathLike,
          metadata: Mapping[str, object],
          on_iteration: Callable[[int, float], None] | None = None) -> dict:
    """Trains on whole pages and writes MODEL plus MODEL.json beside it.

    Both files are written under temporary names and renamed into place, so
    an interrupted run leaves the previous model usable. The metadata keeps
    the caller's (JSON-serialisable) keys, a `config` key being what
    load_model checks, and adds, overriding any of the same name, the
    template itself, since tagging must expand features exactly as training
    did, plus the model file's size and hash, which is how a truncated or
    mismatched model file is recognised. Returns the metadata written."""
    path = Path(model_path)
    if len(sequences) != len(labels):
        raise VictorError(f"{path}: {len(sequences)} pages of features but {len(labels)} of labels")
    counts: Counter[str] = Counter()
    for number, (blocks, page_labels) in enumerate(zip(sequences, labels), start=1):
        if len(blocks) != len(page_labels):
            raise VictorError(f"{path}: training page {number} has {len(blocks)} blocks "
                              f"but {len(page_labels)} labels")
        counts.update(page_labels)
    unknown = sorted(set(counts) - set(LABELS))
    if unknown:
        raise VictorError(f"{path}: unknown labels {unknown} in training data "
                          f"(expected {', '.join(LABELS)})")
    if not counts:
        raise VictorError(f"{path}: no training blocks")

    trainer = _Trainer(on_iteration)
    settings = _training_params(params, trainer)
    trainer.set_params(settings)
    for blocks, page_labels in zip(sequences, labels):
        if blocks:
            trainer.append(expand(template, blocks, compact=True), list(page_labels))

    temporaries: list[Path] = []
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        model_tmp = _temporary(path, temporaries)
        meta_tmp = _temporary(_metadata_path(path), temporaries)
        started = time.perf_counter()
        trainer.train(str(model_tmp))
        seconds = time.perf_counter() - started
        data = model_tmp.read_bytes()
        written = {
            **metadata,
            "labels": dict(sorted(counts.items())),
            "pages": len(sequences),
            "template": {"source": template.source, "sha256": template.digest,
                         "text": template.text},
            "attribute_keys": ATTRIBUTE_KEYS,
            "params": settings,
            "iterations": trainer.iterations,
            "final_loss": trainer.loss,
            "training_seconds": round(seconds, 3),
            "trained_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "versions": _versions(),
            "model_bytes": len(data),
            "model_sha256": hashlib.sha256(data).hexdigest(),
        }
        meta_tmp.write_text(json.dumps(written, indent=2, ensure_ascii=False) + "\n",
                            encoding="utf-8")
        os.replace(model_tmp, path)
        os.replace(meta_tmp, _metadata_path(path))
    except FileExistsError:  # from mkdir: "File exists" would not say which
        raise VictorError(f"{path}: cannot write model ({path.parent} is a file, "
                          "not a folder)") from None
    except OSError as e:
        raise VictorError(f"{path}: cannot write model ({e.strerror or e})") from None
    except pycrfsuite.CRFSuiteError as e:
        raise VictorError(f"{path}: crfsuite failed to train ({e})") from None
    finally:
        for tmp in temporaries:
            tmp.unlink(missing_ok=True)
    return written


def _temporary(path: Path, created: list[Path]) -> Path:
    """A fresh file in the target's folder, so that renaming it over the
    target is atomic; recorded in `created` for clean-up."""
    name = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    # Unlike mkstemp's 0600, this leaves permissions to the umask, as for
    # any file the user writes.
    os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    created.append(name)
    return name


# ---------------------------------------------------------------- tagging
#
# Tagging runs on the model's weights with numpy instead of crfsuite's
# tagger. crfsuite must be handed every attribute string of every block,
# some 235 a block with the cleaneval template, and building and taking in
# those strings cost more than reading the page and computing its features.
# Here a page's values are numbered per feature, and each column of the
# template (a feature at an offset, or a combination) adds the weight
# vectors of its few distinct values to all blocks at once. Training stays
# with crfsuite; tests/test_crf.py checks that labels and marginals equal
# crfsuite's own tagger's on real pages.


@dataclass(frozen=True)
class Weights:
    """What a crfsuite model learnt: for each attribute it knows, a weight
    per label (zero for the pairs training never saw), and the weight of
    each label following each other. Labels in crfsuite's order."""

    labels: tuple[str, ...]
    state: dict[str, np.ndarray]
    transition: np.ndarray  # [previous label, label]


# crfsuite's model file (crf1dmodel.c, cqdb.c), all little-endian: a
# header of magic, size, type, version and eight uint32 counts and offsets;
# at the features' offset a chunk "FEAT" of size and count, then each
# feature as type (0 attribute-to-label, 1 label-to-label), source,
# destination and a float64 weight; at the labels' and the attributes'
# offsets a string database "CQDB" whose backward array gives, for each
# number, the offset of a record of number, length and NUL-ended string.
_HEADER = struct.Struct("<4sI4sI8I")
_CHUNK = struct.Struct("<4sII")
_FEATURE = struct.Struct("<IIId")
_CQDB = struct.Struct("<4sIIIII")
_RECORD = struct.Struct("<II")


def _names(data: bytes, base: int) -> list[str]:
    chunk, _, _, _, count, backward = _CQDB.unpack_from(data, base)
    if chunk != b"CQDB":
        raise ValueError("no string database")
    names = []
    for number, at in enumerate(struct.unpack_from(f"<{count}I", data, base + backward)):
        stored, length = _RECORD.unpack_from(data, base + at)
        if at == 0 or stored != number or length == 0:
            raise ValueError(f"bad string record {number}")
        start = base + at + _RECORD.size
        names.append(data[start:start + length - 1].decode("utf-8"))
    return names


def read_weights(data: bytes, source: str) -> Weights:
    """The names and weights of a crfsuite model file, read from its bytes:
    crfsuite's own dump of a model prints weights to six decimals only and
    needs a temporary file."""
    try:
        header = _HEADER.unpack_from(data)
        labels = tuple(_names(data, header[8]))
        attributes = _names(data, header[9])
        chunk, _, count = _CHUNK.unpack_from(data, header[7])
        if chunk != b"FEAT":
            raise ValueError("no feature chunk")
        start = header[7] + _CHUNK.size
        features = _FEATURE.iter_unpack(data[start:start + count * _FEATURE.size])
        state = {name: np.zeros(len(labels)) for name in attributes}
        transition = np.zeros((len(labels), len(labels)))
        for kind, src, dst, weight in features:
            if kind == 0:
                state[attributes[src]][dst] = weight
            else:
                transition[src, dst] = weight
    except (struct.error, ValueError, IndexError) as e:
        raise VictorError(f"{source}: unreadable crfsuite model ({e}); retrain") from None
    return Weights(labels, state, transition)


@dataclass
class Model:
    """A trained CRF with the template it was trained with."""

    path: Path
    metadata: dict
    labels: tuple[str, ...]
    template: Template
    weights: Weights = field(repr=False)
    _table: "_WeightTable" = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._table = _WeightTable(self.weights.state, len(self.weights.labels))

    def tag(self, feature_dicts: Sequence[dict[str, str]]) -> tuple[list[str], list[dict[str, float]]]:
        """The most likely labels of a page's blocks, and for each block the
        probability of every label, which downstream thresholds use."""
        scores = self.scores(feature_dicts)
        return self.best_labels(scores), self.marginals(scores)

    def best_labels(self, scores: np.ndarray) -> list[str]:
        """The most likely label sequence (Viterbi) for a page's scores."""
        if not len(scores):
            return []
        names = self.weights.labels
        return [names[i] for i in _viterbi(scores, self.weights.transition)]

    def marginals(self, scores: np.ndarray) -> list[dict[str, float]]:
        """Each block's probability of every label (forward-backward). Apart
        from best_labels, since the text formats need no probabilities."""
        if not len(scores):
            return []
        names = self.weights.labels
        return [dict(zip(names, row))
                for row in _marginals(scores, self.weights.transition).tolist()]

    def scores(self, feature_dicts: Sequence[dict[str, str]]) -> np.ndarray:
        """Each block's score for each label: the sum of the weights of the
        attributes expand() would give it. Every column's values become row
        numbers of one table of weight vectors, and one gather sums them."""
        n = len(feature_dicts)
        if n == 0:
            return np.zeros((0, len(self.weights.labels)))
        plan = _plan(self.template, compact=True)
        layout = plan.layout(frozenset().union(*feature_dicts))
        table = self._table
        if len(table) >= _TABLE_LIMIT:
            table.clear()
        reach = max((abs(o) for line in self.template.lines for ref in line
                     for o in ref.offsets), default=0)
        # Per feature: the page's distinct values (None, absent, first) and
        # each block's number among them, padded with 0 beyond the page.
        numbered: dict[str, tuple[list, np.ndarray]] = {}
        for name in layout.names:
            try:
                column = list(map(itemgetter(name), feature_dicts))
            except KeyError:
                column = [d.get(name) for d in feature_dicts]
            number = {None: 0}
            for value in dict.fromkeys(column):
                number.setdefault(value, len(number))
            codes = np.zeros(n + 2 * reach, np.intp)
            codes[reach:reach + n] = list(map(number.__getitem__, column))
            numbered[name] = (list(number), codes)

        columns = len(layout.singles) + len(layout.combinations)
        rows = np.empty((n, columns), np.int32)  # table rows stay below _TABLE_LIMIT
        for j, (name, offset, memo) in enumerate(layout.singles):
            values, codes = numbered[name]
            ids = np.array([table.row((name, offset), memo, v) for v in values], np.intp)
            rows[:, j] = ids[codes[reach + offset:reach + offset + n]]
        for j, (terms, memo) in enumerate(layout.combinations, len(layout.singles)):
            pages = [numbered[name] for name, _ in terms]
            combos, index = _distinct(
                [codes[reach + o:reach + o + n] for (_, o), (_, codes) in zip(terms, pages)],
                [len(values) for values, _ in pages])
            ids = [table.row(terms, memo, tuple(values[k] for (values, _), k in zip(pages, combo)))
                   for combo in combos]
            rows[:, j] = np.array(ids, np.intp)[index]

        weights = table.vectors
        scores = np.empty((n, len(self.weights.labels)))
        for start in range(0, n, _GATHER):  # bounds the n x columns x labels gather
            part = slice(start, start + _GATHER)
            scores[part] = weights[rows[part]].sum(axis=1)
        state = self.weights.state
        for key, offset in plan.constant:
            if key in state:
                scores[_constant_span(n, offset)] += state[key]
        return scores


# Combinations of features whose numbers of values multiply to at most
# this are told apart with a look-up array; larger ones by sorting.
_DENSE_LIMIT = 1 << 16


def _distinct(columns: list[np.ndarray], sizes: list[int]) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """The distinct tuples of value numbers across the columns, and each
    block's position among them."""
    if math.prod(sizes) <= _DENSE_LIMIT:
        combined = np.ravel_multi_index(columns, sizes)
        present = np.flatnonzero(np.bincount(combined))
        lookup = np.zeros(present[-1] + 1, np.intp)
        lookup[present] = np.arange(len(present))
        return list(zip(*(c.tolist() for c in np.unravel_index(present, sizes)))), lookup[combined]
    distinct, index = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
    return [tuple(row) for row in distinct.tolist()], index.reshape(-1)


# Rows the weight table of a model may hold before it starts afresh
# (discretised features have a handful of values; bags such as class names
# have unboundedly many), and blocks a gather takes at a time.
_TABLE_LIMIT = 200_000
_GATHER = 1024


class _WeightTable:
    """Weight vectors of (column, value) pairs, each summed once over the
    attributes the template's memo gives the value, numbered in the order
    first met; row 0 is zeros, for values that give no known attribute."""

    def __init__(self, state: dict[str, np.ndarray], width: int):
        self.state = state
        self.width = width
        self.clear()

    def clear(self) -> None:
        self.index: dict = {}
        self.vectors = np.zeros((1024, self.width))
        self.size = 1

    def __len__(self) -> int:
        return self.size

    def row(self, column, memo: _Memo, value) -> int:
        number = self.index.get((column, value))
        if number is None:
            items = value.split() if type(value) is str else ()
            if len(items) > 1:
                # A bag (class words): pages share the items, not the bags,
                # so each item's row is kept and the bag's is their sum.
                found = [self.vectors[n] for n in (self.row(column, memo, i) for i in items) if n]
            else:
                keys = memo[value]
                if type(keys) is not tuple:
                    keys = () if keys is None else (keys,)
                found = [self.state[k] for k in keys if k in self.state]
            if found:
                if self.size == len(self.vectors):
                    self.vectors = np.concatenate([self.vectors, np.zeros_like(self.vectors)])
                number = self.size
                self.size += 1
                self.vectors[number] = sum(found)
            else:
                number = 0
            self.index[column, value] = number
        return number


def _constant_span(n: int, offset: int) -> slice:
    """The blocks that get a constant attribute (see _constant)."""
    if offset == 0:
        return slice(0, n)
    k = min(abs(offset), n)
    return slice(0, k) if offset < 0 else slice(n - k, n)


def _viterbi(scores: np.ndarray, transition: np.ndarray) -> list[int]:
    """The best label sequence; ties go to the lower label number, as in
    crfsuite."""
    n = len(scores)
    back = np.zeros(scores.shape, np.intp)
    best = scores[0]
    for t in range(1, n):
        candidates = best[:, None] + transition
        back[t] = candidates.argmax(axis=0)
        best = candidates[back[t], np.arange(len(best))] + scores[t]
    path = [int(best.argmax())]
    for t in range(n - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    return path[::-1]


def _marginals(scores: np.ndarray, transition: np.ndarray) -> np.ndarray:
    """P(label of block t | page), by forward-backward on exponentiated
    scores, each step rescaled to sum 1 so nothing overflows."""
    n = len(scores)
    states = np.exp(scores - scores.max(axis=1, keepdims=True))
    moves = np.exp(transition)
    forward = np.empty(scores.shape)
    backward = np.empty(scores.shape)
    a = states[0]
    forward[0] = a / a.sum()
    for t in range(1, n):
        a = (forward[t - 1] @ moves) * states[t]
        forward[t] = a / a.sum()
    backward[n - 1] = 1.0
    for t in range(n - 2, -1, -1):
        b = moves @ (states[t + 1] * backward[t + 1])
        backward[t] = b / b.sum()
    joint = forward * backward
    return joint / joint.sum(axis=1, keepdims=True)


def read_metadata(path: str | os.PathLike) -> dict:
    """MODEL.json beside a model: what it was trained with and on."""
    path = Path(path)
    meta_path = _metadata_path(path)
    try:
        metadata = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise VictorError(f"{meta_path}: model metadata not found; retrain {path}") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise VictorError(f"{meta_path}: unreadable model metadata ({e}); retrain {path}") from None
    if not isinstance(metadata, dict) or not isinstance(metadata.get("template"), dict):
        raise VictorError(f"{meta_path}: not Victor model metadata; retrain {path}")
    return metadata


def load_model(path: str | os.PathLike, expected_config: object = None,
               expected_settings: dict | None = None) -> Model:
    """Opens a model written by train(), refusing anything crfsuite might
    crash on or silently misread: the file must match the size and hash its
    metadata recorded, and open with labels. With `expected_config`, the
    metadata's `config` must equal it, and with `expected_settings`
    (victor.config.settings) the settings it was trained with, so that a
    model is not used with features computed another way."""
    path = Path(path)
    meta_path = _metadata_path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise VictorError(f"{path}: model file not found; train one first") from None
    except OSError as e:
        raise VictorError(f"{path}: cannot read model ({e.strerror})") from None
    metadata = read_metadata(path)

    if len(data) != metadata.get("model_bytes") or not data.startswith(b"lCRF"):
        raise VictorError(f"{path}: truncated or corrupt model file ({len(data)} bytes, "
                          f"{metadata.get('model_bytes')} expected); retrain")
    if hashlib.sha256(data).hexdigest() != metadata.get("model_sha256"):
        raise VictorError(f"{path}: model file does not match its metadata "
                          f"(corrupt, or replaced without {meta_path.name}); retrain")
    if metadata.get("attribute_keys") != ATTRIBUTE_KEYS:
        raise VictorError(f"{meta_path}: model names its attributes by "
                          f"{metadata.get('attribute_keys')!r}, this Victor by "
                          f"{ATTRIBUTE_KEYS!r}; retrain {path}")
    if expected_config is not None and metadata.get("config") != expected_config:
        raise VictorError(f"{path}: trained for config {metadata.get('config')!r}, "
                          f"not {expected_config!r}; retrain or choose the matching model")
    if expected_settings is not None and "settings" in metadata:
        from victor.config import differences

        changed = differences(metadata["settings"], expected_settings)
        if changed:
            shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
            raise VictorError(f"{path}: the config's {shown} differ from what the model was "
                              "trained with; undo the change or retrain")

    tagger = pycrfsuite.Tagger()
    try:
        tagger.open(str(path))
        labels = tuple(tagger.labels())
    except (ValueError, OSError) as e:
        raise VictorError(f"{path}: crfsuite cannot open the model ({e}); retrain") from None
    if not labels or not set(labels) <= set(LABELS):
        raise VictorError(f"{path}: model has labels {list(labels)}, expected some of "
                          f"{', '.join(LABELS)}; retrain")
    try:
        template = parse_template(metadata["template"]["text"], str(meta_path))
    except (KeyError, TypeError):
        raise VictorError(f"{meta_path}: metadata lacks the template text; retrain {path}") from None
    if template.digest != metadata["template"].get("sha256"):
        raise VictorError(f"{meta_path}: template text does not match its recorded hash; "
                          f"retrain {path}")
    return Model(path, metadata, labels, template, read_weights(data, str(path)))
