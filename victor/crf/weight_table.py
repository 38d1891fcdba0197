"""The weight vectors a tagger adds up: one row for each (template column,
value) pair met, summed once over the attributes it gives and kept across
pages (victor/crf/tagger.py starts it afresh when it is full)."""

from __future__ import annotations

import numpy as np

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
        self.index: dict = {}
        self.items: dict = {}  # column -> {bag item: row}, beside `index`
        # Label-major in memory (Fortran order): _sum gathers one label's
        # weights for every block and column at once from a contiguous run.
        self.vectors = np.zeros((1024, self.width), order="F")
        self.size = 1

    def __len__(self) -> int:
        return self.size

    def row(self, column, memo: Memo, value) -> int:
        """The row of a value that is no bag (`bags` sums those)."""
        number = self.index.get((column, value))
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
            self.index[column, value] = number
        return number

    def bags(self, column, memo: Memo, bags: list[str]) -> list[int]:
        """The rows of bags (class words) new to the table: each the sum of
        its items' rows (kept too, as pages share items more than bags),
        added in the bag's order as a plain sum over its attributes would;
        0 for a bag of no known item. Summed all at once: one by one, a
        page's new bags cost more than the rest of its tagging."""
        index = self.index
        # Each item's row by the item alone (a column's own dict): looked up
        # in C over all the page's items, the items new to it added first.
        rows_of = self.items.setdefault(column, {})
        split = [bag.split() for bag in bags]
        items = [item for parts in split for item in parts]
        for item in set(items).difference(rows_of):
            rows_of[item] = self.row(column, memo, item)
        numbers = np.fromiter(map(rows_of.__getitem__, items), np.intp, len(items))
        owner = np.repeat(np.arange(len(bags)), [len(parts) for parts in split])
        known = numbers != 0
        owner = owner[known]
        sums = np.zeros((len(bags), self.width))
        np.add.at(sums, owner, self.vectors[numbers[known]])  # in order, item by item
        has = np.zeros(len(bags), bool)
        has[owner] = True
        self._room(self.size + int(has.sum()))
        out = []
        for b, bag in enumerate(bags):
            number = 0
            if has[b]:
                number = self.size
                self.size += 1
                self.vectors[number] = sums[b]
            index[column, bag] = number
            out.append(number)
        return out

    def _room(self, rows: int) -> None:
        while rows > len(self.vectors):
            grown = np.zeros((2 * len(self.vectors), self.width), order="F")
            grown[:len(self.vectors)] = self.vectors
            self.vectors = grown
