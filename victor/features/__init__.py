"""Stage 4: the feature vector of every block (thesis chapter 4).

Each module of this package computes one family of features from the
blocks of a page, all of its features in one pass; statistics more than
one family needs (words, sentences, links, groups) are computed once in a
shared `Context`. The config's `crf-features` says which features reach
the CRF, its `values` and `scales` how numbers become the finite value
sets a CRF needs, and its `extras` switch on the families beyond the
thesis.
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from itertools import islice
from operator import itemgetter
from types import MappingProxyType
from typing import Any

import numpy as np

from victor.config import Config
from victor.errors import VictorError
from victor.features import (
    bullet, candidate, chars, class_words, container, density, depth, document, duplicate,
    groups, link_density, main_group, nearest_text, path, perplexity, position, regexp, semantic,
    sentence, size, split, structured, tag_path, title, tokens, words_before,
)
from victor.features.context import BINARY, COUNT, RATIO, Context
from victor.features.discretise import Labeller
from victor.page import Page

# In table order: markup, content, document; the extras last.
FAMILIES = (container, split, chars, tokens, sentence, duplicate, regexp, bullet, groups,
            position, document, class_words, link_density, depth, perplexity,
            density, size, tag_path, main_group, title, path, words_before, nearest_text,
            semantic, candidate, structured)

KINDS = MappingProxyType({n: k for fam in FAMILIES for n, k in fam.FEATURES.items()})
FEATURE_NAMES: tuple[str, ...] = tuple(KINDS)
# The extras switch that a feature needs on, for the features beyond the thesis.
EXTRA_OF = MappingProxyType({n: fam.EXTRA for fam in FAMILIES for n in fam.FEATURES
                             if fam.EXTRA})
EXTRAS = frozenset(EXTRA_OF.values())


def _wildcards() -> dict[str, tuple[str, ...]]:
    """`family.*` to the features it stands for, for every dotted prefix."""
    out: dict[str, list[str]] = {}
    for name in FEATURE_NAMES:
        parts = name.split(".")
        for i in range(1, len(parts)):
            out.setdefault(".".join(parts[:i]) + ".*", []).append(name)
    return {w: tuple(ns) for w, ns in out.items()}


WILDCARDS = MappingProxyType(_wildcards())


def select_features(config: Config) -> tuple[str, ...]:
    """The features the config sends to the CRF, in table order.

    `crf-features` entries are names or family wildcards (`container.*`);
    features of an extra family are left out while its `extras` switch is
    off, so that an ablation flips one switch. Everything the selected
    features need from the config must be there, and nothing may name a
    feature that does not exist: a typo would silently change the model.
    """
    def bad(key: str, why: str) -> VictorError:
        return VictorError(f"{config.path}: key '{key}': {why}")

    for name in config.extras:
        if name not in EXTRAS:
            raise bad(f"extras.{name}", f"unknown extra; known: {', '.join(sorted(EXTRAS))}")
    chosen = set()
    for entry in config.crf_features:
        hits = WILDCARDS.get(entry) or ((entry,) if entry in KINDS else ())
        if not hits:
            raise bad("crf-features", f"unknown feature '{entry}'{_suggest(entry)}")
        chosen.update(hits)
    selected = tuple(n for n in FEATURE_NAMES if n in chosen
                     and (n not in EXTRA_OF or config.extras.get(EXTRA_OF[n], False)))
    for key, kind, table, what in (("values", COUNT, config.values, "a list of values"),
                                   ("scales", RATIO, config.scales, "a number of steps")):
        for n in table:
            if KINDS.get(n) != kind:
                raise bad(f"{key}.{n}", f"not a feature discretised by {key}{_suggest(n)}")
        for n in selected:
            if KINDS[n] == kind and n not in table:
                raise bad(f"{key}.{n}", f"missing: the selected feature {n} needs {what}")
    for name in config.regexp:
        if name not in regexp.NAMES:
            raise bad(f"regexp.{name}", f"no feature uses it; known: {', '.join(regexp.NAMES)}")
    for n in selected:
        if n.startswith("regexp.") and n[7:] not in config.regexp:
            raise bad(f"regexp.{n[7:]}", f"missing: the selected feature {n} needs patterns")
    return selected


def _suggest(name: str) -> str:
    close = difflib.get_close_matches(name, FEATURE_NAMES, n=1)
    return f"; did you mean {close[0]}?" if close else "; docs/features.md lists them"


def compute(page: Page, config: Config, lm: Any = None) -> list[dict[str, str]]:
    """One dict a block, feature name to value, of the selected features.

    `lm` is a language model with `.block_perplexity(text)`, needed only
    when the perplexity extra is on.
    """
    names = select_features(config)
    if not names or not page.blocks:
        return [{} for _ in page.blocks]
    ctx = Context(page, config, names, lm)
    wanted = set(names)
    raw: dict[str, Any] = {}
    for fam in FAMILIES:
        if not wanted.isdisjoint(fam.FEATURES):
            raw.update(fam.compute(ctx))
    numeric, other, labeller = _layout(names, tuple(map(config.values.get, names)),
                                       tuple(map(config.scales.get, names)))
    n = len(page.blocks)
    x = np.empty((len(numeric), n))
    for i, name in enumerate(numeric):
        x[i] = raw[name]
    at = labeller.indices(x)  # a row a block
    # Most blocks share most numeric labels with the rest of the page (the
    # document.* features, container.* zeros, ...): every block's dict is a
    # copy of one holding each feature's commonest label, and gets only the
    # labels that differ from it and the other features (about a quarter
    # of the values), which costs far less than filling every key.
    common = _commonest(at, len(labeller.labels))
    template = dict.fromkeys(names)
    template.update(zip(numeric, labeller.labels[common].tolist()))
    differs = at != common
    columns = np.nonzero(differs)[1]
    changes = zip(np.array(numeric, dtype=object)[columns].tolist(),
                  labeller.labels[at[differs]].tolist())
    others = np.empty((n, len(other)), dtype=object)
    for j, name in enumerate(other):
        others[:, j] = raw[name]
    feats = []
    for count, row in zip(differs.sum(axis=1).tolist(), others.tolist()):
        f = template.copy()
        f.update(islice(changes, count))
        f.update(zip(other, row))
        feats.append(f)
    return feats


def _commonest(at: np.ndarray, width: int) -> np.ndarray:
    """The commonest value of each column of `at`, whose values are below
    `width`."""
    columns = at.shape[1]
    if not columns:
        return np.zeros(0, np.int64)
    counts = np.bincount((at + np.arange(columns) * width).ravel(), minlength=columns * width)
    return counts.reshape(columns, width).argmax(axis=1)


@lru_cache(maxsize=16)
def _layout(names: tuple[str, ...], values: tuple[tuple[float, ...] | None, ...],
            steps: tuple[int | None, ...]) -> tuple[tuple[str, ...], tuple[str, ...], Labeller]:
    """The numeric features among `names` (with the `values` list or
    `steps` of each name), the others, and the Labeller of the numeric
    ones: the same for every page of a run, so made once."""
    numeric = [j for j, n in enumerate(names) if KINDS[n] in (COUNT, RATIO, BINARY)]
    labeller = Labeller([KINDS[names[j]] for j in numeric], [values[j] for j in numeric],
                        [steps[j] for j in numeric])
    return (tuple(names[j] for j in numeric),
            tuple(n for n in names if KINDS[n] not in (COUNT, RATIO, BINARY)), labeller)


def table(page: Page, feature_dicts: list[dict[str, str]]) -> str:
    """The document table the CRF sees (thesis 3.5): a header row, then one
    row a block, the block id first, tab-separated."""
    names = list(feature_dicts[0]) if feature_dicts else []
    lines = ["\t".join(["id", *names])]
    values = itemgetter(*names) if len(names) > 1 else lambda feats: (feats[names[0]],)
    rows = map("\t".join, map(values, feature_dicts))
    lines.extend(map("{}\t{}".format, (b.id for b in page.blocks), rows) if names
                 else (str(b.id) for b in page.blocks))
    return "\n".join(lines) + "\n"
