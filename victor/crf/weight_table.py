"""The weight vectors a tagger adds up: one row for each (template column,
value) pair met, summed once over the attributes it gives and kept across
pages (victor/crf/tagger.py starts it afresh when it is full)."""

from __future__ import annotations

from itertools import chain

import numpy as np

from victor.compiled import twin
from victor.crf.expansion import Memo
from victor.crf.modelfile import Weights


class WeightTable:
    """Weight vectors of (column, value) pairs, each summed once over the
    attributes the Expander's memo gives the value, numbered in the order
    first met; row 0 is zeros, for values that give no known attribute."""

    def __init__(self, weights: Weights):
        self.weights = weights
        self.width = len(weights.labels)
        self.clear()

    def clear(self) -> None:
        # column -> {value: row}: a dict a column, so that a page's values
        # are looked up by map() in C, with no (column, value) key to make.
        self.index: dict = {}
        # Label-major in memory (Fortran order): _sum gathers one label's
        # weights for every block and column at once from a contiguous run.
        self.vectors = np.zeros((1024, self.width), order="F")
        self.size = 1

    def __len__(self) -> int:
        return self.size

    def known(self, column) -> dict:
        """The rows of the values of `column` met so far, by value."""
        rows = self.index.get(column)
        if rows is None:
            rows = self.index[column] = {}
        return rows

    def row(self, column, memo: Memo, value) -> int:
        """The row of a value that is no bag (`bags` sums those)."""
        known = self.known(column)
        number = known.get(value)
        if number is None:
            keys = memo[value]
            if type(keys) is not tuple:
                keys = () if keys is None else (keys,)
            rows = self.weights.rows
            found = [self.weights.state[r] for r in map(rows.get, keys) if r is not None]
            if found:
                self._room(self.size + 1)
                number = self.size
                self.size += 1
                self.vectors[number] = sum(found)
            else:
                number = 0
            known[value] = number
        return number

    def rows(self, column, memo: Memo, values) -> list[int]:
        """The rows of values new to `column`, none a bag, as `row` gives
        them one by one: made all at once, as a page's new bags bring many
        new items, most of one attribute each, whose weight vectors are
        copied from the model's in one numpy call."""
        values = list(values)
        known = self.known(column)
        rows = self.weights.rows
        numbers = []
        copied = []  # the model's rows of the values of one attribute, in order
        for value in values:
            keys = memo[value]
            if type(keys) is str:
                r = rows.get(keys)
                if r is None:
                    number = 0
                else:
                    number = self.size + len(copied)
                    copied.append(r)
            elif keys is None:
                number = 0
            else:
                number = None
            numbers.append(number)
            if number is not None:
                known[value] = number
        if copied:
            self._room(self.size + len(copied))
            self.vectors[self.size:self.size + len(copied)] = self.weights.state[copied]
            self.size += len(copied)
        for p, number in enumerate(numbers):  # values of several attributes, summed
            if number is None:
                numbers[p] = self.row(column, memo, values[p])
        return numbers

    def bags(self, column, memo: Memo, bags: list[str], split: dict[str, list[str]]) -> list[int]:
        """The rows of bags (class words) new to the table: each the sum of
        its items' rows (kept too, as pages share items more than bags);
        0 for a bag of no known item. All of a page's at once: one by one,
        a page's new bags cost more than the rest of its tagging. `split`
        holds the page's bags split into items, filled here, shared by the
        columns that read one feature at several offsets."""
        # Each item's row as a value of the column (no item holds a space,
        # so none is taken for a bag), the items new to it added first.
        rows_of = self.known(column)
        parts = []
        for bag in bags:
            items = split.get(bag)
            if items is None:
                items = split[bag] = bag.split()
            parts.append(items)
        self.rows(column, memo, set().union(*parts).difference(rows_of))
        self._room(self.size + len(bags))
        numbers, self.size = bag_rows(parts, rows_of, self.vectors, self.size)
        rows_of.update(zip(bags, numbers))
        return numbers

    def _room(self, rows: int) -> None:
        while rows > len(self.vectors):
            grown = np.zeros((2 * len(self.vectors), self.width), order="F")
            grown[:len(self.vectors)] = self.vectors
            self.vectors = grown


def bag_rows(split: list[list[str]], rows_of: dict[str, int], vectors: np.ndarray,
             size: int) -> tuple[list[int], int]:
    """Each bag's row in `vectors`, written from row `size` on: the sum of
    its items' rows (`rows_of`), added in the bag's order as a plain sum
    over its attributes would; 0 for a bag of no known item. And the
    table's size after them. `vectors` has room for a row a bag. The sums
    are made for all bags at once, with numpy's calls a page, not a bag."""
    sizes = [len(parts) for parts in split]
    numbers = np.fromiter(map(rows_of.__getitem__, chain.from_iterable(split)), np.intp, sum(sizes))
    owner = np.repeat(np.arange(len(split)), sizes)
    known = numbers != 0
    owner = owner[known]
    sums = np.zeros((len(split), vectors.shape[1]))
    np.add.at(sums, owner, vectors[numbers[known]])  # in order, item by item
    has = np.zeros(len(split), bool)
    has[owner] = True
    out = []
    for b in range(len(split)):
        if has[b]:
            vectors[size] = sums[b]
            out.append(size)
            size += 1
        else:
            out.append(0)
    return out, size


# The sums in C (victor/compiled/_table.pyx) where it was built; the
# function above stays the reference and the fallback.
bag_rows_py = bag_rows
bag_rows = twin(bag_rows_py, "_table")
