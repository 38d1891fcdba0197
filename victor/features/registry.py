"""Every feature family and every feature name with its kind: what a
config, a template or `learn --disable` may name."""

from __future__ import annotations

from types import MappingProxyType

from victor.features.families import (
    bullet,
    candidate,
    chars,
    class_words,
    container,
    depth,
    document,
    duplicate,
    groups,
    kind,
    link_density,
    nearest_text,
    path,
    perplexity,
    position,
    regexp,
    semantic,
    sentence,
    split,
    structured,
    title,
    tokens,
    words_before,
)

# In table order: markup, content, document; the features beyond the thesis last.
FAMILIES = (container, split, chars, tokens, sentence, duplicate, regexp, bullet, groups,
            position, document, class_words, link_density, depth, perplexity,
            title, path, kind, words_before, nearest_text,
            semantic, candidate, structured)

KINDS = MappingProxyType({n: k for fam in FAMILIES for n, k in fam.FEATURES.items()})
FEATURE_NAMES: tuple[str, ...] = tuple(KINDS)
REGEXP_NAMES = regexp.NAMES
