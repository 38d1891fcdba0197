"""Issue 31's second pass made cheap enough to ship: the same tree facts as
research/second_pass_pages.py's `tree_info` and the same matrix as
research/second_pass_features.py's `page_features`, computed over arrays.

The code now lives in the package, as the runtime stage that uses it
(victor/rescoring/: `fast_tree` in tree.py, `fast_features`, `densest_run`
and `first_columns` in features.py); it is imported here under its research
names, so that research/second_pass_speed.py and tests/test_second_pass_fast.py
measure and check what cleaning runs.

    tree = fast_tree(result.page.blocks)
    X = fast_features(tree, texts, p, first_labels)   # == page_features(...)
"""

from __future__ import annotations

from victor.rescoring.features import COL, PAGE_FEATURES, densest_run, fast_features, first_columns
from victor.rescoring.tree import fast_tree

__all__ = ["COL", "PAGE_FEATURES", "densest_run", "fast_features", "fast_tree", "first_columns"]
