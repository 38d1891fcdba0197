"""The five labels a block can get (thesis 3.3), in the one order every
stage lists them: annotation files, the CRF, scoring, output and the
annotation tool all read them from here."""

from __future__ import annotations

from types import MappingProxyType

LABELS = ("p", "h", "l", "c", "o")

# What a person sees for each label.
NAMES = MappingProxyType({"p": "paragraph", "h": "header", "l": "list item",
                          "c": "continuation", "o": "other"})

# The label of boilerplate; every other label is content someone came for.
OTHER = "o"
CONTENT = frozenset(LABELS) - {OTHER}
