"""Tagging with numpy on a model's weights: each block's score for each
label, then Viterbi for the labels and forward-backward for the marginals
(chain.py).

crfsuite's own tagger must be handed every attribute string of every
block, some 235 a block with the cleaneval template, and building and
taking in those strings cost more than reading the page and computing its
features. Here a page's values are numbered per feature, and each column of
the template (a feature at an offset, or a combination) adds the weight
vectors of its few distinct values to all blocks at once. Training stays
with crfsuite; tests/test_crf.py checks that labels and marginals equal
crfsuite's own tagger's on real pages.
"""

from __future__ import annotations

import math
import threading
from operator import getitem, itemgetter
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from victor.compiled import twin
from victor.crf.chain import forward_backward, viterbi
from victor.crf.expansion import Expander, Layout, Memo, constant_span
from victor.crf.modelfile import Weights
from victor.crf.template import Template
from victor.crf.weight_table import WeightTable

if TYPE_CHECKING:
    from victor.columns import Columns

# Combinations of features whose numbers of values multiply to at most
# this are told apart with a look-up array; larger ones by sorting.
_DENSE_LIMIT = 1 << 16

# Rows the weight table of a tagger may hold before it starts afresh
# (discretised features have a handful of values; bags such as class names
# have unboundedly many).
_TABLE_LIMIT = 200_000


class Tagger:
    """A model's weights with the template they were trained with, and
    the tables tagging builds up from page to page (its Expander's memos,
    its weight table).

    Threads may share it: the weight table is grown, and started afresh,
    by one page at a time (`_lock`). Unguarded, a page scored while another
    started the table afresh read rows of the new, emptier table
    (IndexError, or wrong scores), and two pages growing it could lose a
    row. The lock costs nothing to one thread, and little to several:
    scoring holds the GIL all but in numpy's gathers."""

    def __init__(self, weights: Weights, template: Template):
        self.weights = weights
        self.template = template
        self.expander = Expander(template, compact=True)
        self.table = WeightTable(weights)
        # A numeric feature comes with all its labels, the same on every
        # page: the table rows of each of its columns are looked up once,
        # and kept until the table starts afresh. So are those of a
        # combination of numeric features (keyed by its terms), each pair
        # of labels by its number as np.ravel_multi_index gives it, -1 for
        # one not met yet.
        self.coded_rows: dict[tuple, np.ndarray] = {}
        self._lock = threading.Lock()

    def __getstate__(self) -> dict:
        """A lock does not pickle: the copy gets its own."""
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

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
        return [names[i] for i in viterbi(scores, self.weights.transition)]

    def marginals(self, scores: np.ndarray) -> list[dict[str, float]]:
        """Each block's probability of every label (forward-backward). Apart
        from best_labels: training's checks and some callers need the path
        alone."""
        if not len(scores):
            return []
        names = self.weights.labels
        return [dict(zip(names, row))
                for row in forward_backward(scores, self.weights.transition).tolist()]

    def scores(self, feature_dicts: Sequence[dict[str, str]]) -> np.ndarray:
        """Each block's score for each label: the sum of the weights of the
        attributes the Expander would give it. Every column's values become
        row numbers of one table of weight vectors, whose rows are summed."""
        n = len(feature_dicts)
        if n == 0:
            return np.zeros((0, len(self.weights.labels)))
        layout = self.expander.layout(frozenset().union(*feature_dicts))
        reach = self.template.reach
        numbered = {}
        for name in layout.names:
            try:
                column = list(map(itemgetter(name), feature_dicts))
            except KeyError:
                column = [d.get(name) for d in feature_dicts]
            numbered[name] = _number(column, reach)
        with self._lock:
            return self._sum(layout, numbered, n)

    def column_scores(self, columns: Columns) -> np.ndarray:
        """scores() of a page's features as columns (victor.features.columns),
        which spares making a dict a block and numbering the numeric
        features' values again: they come numbered."""
        n = columns.size
        if n == 0:
            return np.zeros((0, len(self.weights.labels)))
        layout = self.expander.layout(frozenset(columns.names))
        reach = self.template.reach
        numbered = {}
        # Every numeric feature's numbers at once, each column padded with
        # 0 for `reach` blocks beyond either end (each block's number among
        # the feature's labels, shifted past None's 0): a numpy call a page instead of a few a feature.
        spans = columns.spans
        padded = np.zeros((n + 2 * reach, len(spans)), np.intp, order="F")
        if spans:
            padded[reach:reach + n] = columns.at
            padded[reach:reach + n] += 1 - np.array([lo for lo, _ in spans], np.intp)
        labels = columns.labels.tolist()
        feature = {name: i for i, name in enumerate(columns.numeric)}
        static = {}
        for name in layout.names:
            i = feature.get(name)
            if i is None:
                numbered[name] = _number(columns.values[name], reach)
            else:
                lo, hi = spans[i]
                numbered[name] = ([None, *labels[lo:hi]], padded[:, i])
                static[name] = (i, hi - lo + 1)
        with self._lock:
            return self._sum(layout, numbered, n, static, padded)

    def _sum(self, layout: Layout, numbered: dict[str, tuple[list, np.ndarray]],
             n: int, static: Mapping[str, tuple[int, int]] | None = None,
             padded: np.ndarray | None = None) -> np.ndarray:
        """The scores of a page whose features are `numbered` (_number);
        the `static` ones are numbered by all their labels, each a column
        of `padded`, by name its column and its number of values, None's
        included (column_scores)."""
        static = static or {}
        table = self.table
        if len(table) >= _TABLE_LIMIT:
            table.clear()
            self.coded_rows.clear()
        coded_rows = self.coded_rows
        reach = self.template.reach
        columns = len(layout.singles) + len(layout.combinations)
        # A column a block of memory. Of numpy's index type: a narrower one
        # is widened again by each label's gather below.
        rows = np.empty((n, columns), np.intp, order="F")
        split: dict[str, list[str]] = {}  # the page's bags' items, for every column
        # The static columns whose rows are known, filled at once below.
        js, tables, features, starts = [], [], [], []
        for j, (name, offset, memo) in enumerate(layout.singles):
            column = (name, offset)
            ids = coded_rows.get(column) if name in static else None
            if ids is not None:
                js.append(j)
                tables.append(ids)
                features.append(static[name][0])
                starts.append(reach + offset)
                continue
            values, codes = numbered[name]
            # Most values were met on earlier pages: looked up all at
            # once, the others (None) found or made one by one.
            found = list(map(table.known(column).get, values))
            if None in found:
                bags = []
                for p, k in enumerate(found):
                    if k is None:
                        v = values[p]
                        if _is_bag(v):
                            bags.append(p)
                        else:
                            found[p] = table.row(column, memo, v)
                if bags:  # summed together: a page brings many bags, most new
                    new = table.bags(column, memo, [values[p] for p in bags], split)
                    for p, k in zip(bags, new):
                        found[p] = k
            ids = np.array(found, np.intp)
            if name in static:
                coded_rows[column] = ids
            rows[:, j] = ids[codes[reach + offset:reach + offset + n]]
        if js:
            static_rows(rows, js, tables, features, starts, padded)
        # The combinations of numeric features met before (_pair_rows keeps
        # the rows of their labels' pairs): filled at once where every pair
        # on the page has its row; the others, and the rest, one by one.
        first = len(layout.singles)
        met = [(j, terms, coded_rows[terms])
               for j, (terms, _) in enumerate(layout.combinations, first)
               if terms in coded_rows] if padded is not None else []
        done = {j for j, _, _ in met}.difference(
            combined_rows(rows, met, static, padded, reach) if met else ())
        for j, (terms, memo) in enumerate(layout.combinations, first):
            if j in done:
                continue
            pages = [numbered[name] for name, _ in terms]
            value_lists = [values for values, _ in pages]
            page_codes = [codes[reach + o:reach + o + n]
                          for (_, o), (_, codes) in zip(terms, pages)]
            sizes = [len(values) for values in value_lists]
            if all(name in static for name, _ in terms) and math.prod(sizes) <= _DENSE_LIMIT:
                rows[:, j] = self._pair_rows(terms, memo, value_lists, page_codes, sizes)
                continue
            combos, index = _distinct(page_codes, sizes)
            known = table.known(terms)
            ids = []
            for combo in combos:
                value = tuple(map(getitem, value_lists, combo))
                k = known.get(value, -1)
                ids.append(k if k >= 0 else table.row(terms, memo, value))
            rows[:, j] = np.array(ids, np.intp)[index]

        scores = summed(table.vectors, rows, len(self.weights.labels))
        of = self.weights.of
        for key, offset in self.expander.constant:
            weight = of(key)
            if weight is not None:
                scores[constant_span(n, offset)] += weight
        return scores


    def _pair_rows(self, terms, memo: Memo, value_lists: list[list], page_codes: list[np.ndarray],
                   sizes: list[int]) -> np.ndarray:
        """The table rows of a combination of numeric features on a page,
        from the rows its label pairs were given on earlier pages
        (`coded_rows`): a gather a page instead of finding the page's
        distinct pairs and looking each up. A pair first met is looked up
        as in `_sum`, in the order of its number."""
        known = self.coded_rows.get(terms)
        if known is None:
            known = self.coded_rows[terms] = np.full(math.prod(sizes), -1, np.intp)
        at = np.ravel_multi_index(page_codes, sizes)
        ids = known[at]
        new = ids < 0
        if new.any():
            numbers = np.unique(at[new])
            combos = zip(*(c.tolist() for c in np.unravel_index(numbers, sizes)))
            met = self.table.known(terms)
            for number, combo in zip(numbers.tolist(), combos):
                value = tuple(map(getitem, value_lists, combo))
                k = met.get(value, -1)
                known[number] = k if k >= 0 else self.table.row(terms, memo, value)
            ids = known[at]
        return ids


def summed(weights: np.ndarray, rows: np.ndarray, labels: int) -> np.ndarray:
    """Each block's score for each label: the weight vectors of its row of
    `rows` (one table row a template column) added up. Label by label, an
    n x columns gather summed along the columns in the order a loop over
    the columns would add them (rows is column-major, so the sum runs
    column after column; a page of one block has one row, which numpy
    sums pairwise), in a few numpy calls instead of one a column; the
    compiled twin adds them in the same order, so its scores are the same
    to the bit."""
    scores = np.zeros((len(rows), labels))
    if rows.shape[1]:
        for label in range(labels):
            scores[:, label] = weights[:, label][rows].sum(axis=1)
    return scores


def static_rows(rows: np.ndarray, js: list[int], ids: list[np.ndarray], features: list[int],
                starts: list[int], padded: np.ndarray) -> None:
    """Column js[k] of `rows` set to the table rows ids[k] gives each
    block's value of a numeric feature: its number among the feature's
    labels, read from column features[k] of `padded` from row starts[k]
    on (the column's offset past the padding). Once a page's numeric
    columns have met all their labels, most of its columns are these: one
    call for them all, not numpy's two a column."""
    n = len(rows)
    for j, table, i, start in zip(js, ids, features, starts):
        rows[:, j] = table[padded[start:start + n, i]]


def combined_rows(rows: np.ndarray, known: list[tuple[int, tuple, np.ndarray]],
                  static: Mapping[str, tuple[int, int]], padded: np.ndarray,
                  reach: int) -> list[int]:
    """For each (j, terms, table) of `known`, a combination of numeric
    features and the rows of its labels' combinations by their number as
    np.ravel_multi_index gives it (-1 for one not met yet): column j of
    `rows` set to each block's, where every block's has a row. Returns the
    columns where some block's has none, left to the caller. `static`
    gives each feature's column of `padded` and its number of values."""
    n = len(rows)
    unmet = []
    for j, terms, table in known:
        at = np.ravel_multi_index(
            [padded[reach + offset:reach + offset + n, static[name][0]] for name, offset in terms],
            [static[name][1] for name, _ in terms])
        ids = table[at]
        if (ids < 0).any():
            unmet.append(j)
        else:
            rows[:, j] = ids
    return unmet


# The three compiled (victor/compiled/_scores.pyx) where they were built;
# the functions above stay the reference and the fallback.
summed_py, static_rows_py, combined_rows_py = summed, static_rows, combined_rows
summed = twin(summed_py, "_scores")
static_rows = twin(static_rows_py, "_scores")
combined_rows = twin(combined_rows_py, "_scores")


def _is_bag(value) -> bool:
    """A value of several space-separated items (class words)."""
    return type(value) is str and len(value.split(maxsplit=1)) > 1


def _number(column: list, reach: int) -> tuple[list, np.ndarray]:
    """A feature's distinct values on a page (None, for absent, first) and
    each block's number among them, padded with 0 for `reach` blocks
    beyond either end of the page."""
    number = {None: 0}
    for value in dict.fromkeys(column):
        number.setdefault(value, len(number))
    codes = np.zeros(len(column) + 2 * reach, np.intp)
    codes[reach:reach + len(column)] = list(map(number.__getitem__, column))
    return list(number), codes


def _distinct(columns: list[np.ndarray], sizes: list[int]) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """The distinct tuples of value numbers across the columns, and each
    block's position among them."""
    if math.prod(sizes) <= _DENSE_LIMIT:
        combined = np.ravel_multi_index(columns, sizes)
        present = np.flatnonzero(np.bincount(combined))
        lookup = np.zeros(present[-1] + 1, np.intp)
        lookup[present] = np.arange(len(present))
        if len(sizes) == 2:  # the template's usual pair, unravelled without numpy's calls
            return [divmod(p, sizes[1]) for p in present.tolist()], lookup[combined]
        return list(zip(*(c.tolist() for c in np.unravel_index(present, sizes)))), lookup[combined]
    distinct, index = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
    return [tuple(row) for row in distinct.tolist()], index.reshape(-1)
