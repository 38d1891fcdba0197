# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""summed (victor/crf/tagger.py) compiled: each block's weight vectors
added up in C, block by block, where the pure function gathers an
n x columns array a label. The columns are added in the order numpy adds
them, first to last where a page has two blocks or more, so the scores
are the pure function's to the bit (tests/test_compiled.py)."""

import numpy as np

from victor.crf.tagger import summed_py


def summed(weights, rows, Py_ssize_t labels):
    cdef const double[:, :] w = weights
    cdef const Py_ssize_t[:, :] r = rows
    cdef Py_ssize_t n = r.shape[0], columns = r.shape[1], i, j, k, label
    if n == 1:
        # One block's row is contiguous, and numpy sums a contiguous row
        # pairwise, not first to last: the pure function is that order.
        return summed_py(weights, rows, labels)
    out = np.zeros((n, labels))
    cdef double[:, :] o = out
    if columns == 0:
        return out
    for i in range(n):
        k = r[i, 0]
        for label in range(labels):
            o[i, label] = w[k, label]
        for j in range(1, columns):
            k = r[i, j]
            for label in range(labels):
                o[i, label] += w[k, label]
    return out
