"""Stage 4: the feature vector of every block (thesis chapter 4).

Each module of this package computes one family of features from the
blocks of a page, all of its features in one pass; statistics more than
one family needs (words, sentences, links, groups) are computed once in a
shared `Context`. Which features reach the CRF is decided once per run
by selection.py (the config's list of them, less what
`learn --disable` leaves out); the config's `values` and `scales` say how
numbers become the finite value sets a CRF needs. registry.py lists the
families and their features.
"""

from victor.columns import Columns
from victor.features.registry import FAMILIES, FEATURE_NAMES, KINDS
from victor.features.selection import select_features
from victor.features.vectors import columns, compute, table

__all__ = ["FAMILIES", "FEATURE_NAMES", "KINDS", "Columns", "columns", "compute",
           "select_features", "table"]
