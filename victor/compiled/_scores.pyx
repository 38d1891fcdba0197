# cython: language_level=3, boundscheck=False, wraparound=False
"""summed (victor/crf/tagger.py) compiled: each block's weight vectors
added up in C, block by block, where the pure function gathers an
n x columns array a label. The columns are added in the order numpy adds
them, first to last where a page has two blocks or more, so the scores
are the pure function's to the bit (tests/test_compiled.py)."""

import numpy as np

from libc.stdint cimport uintptr_t

from victor.crf.tagger import summed_py


def summed(weights, rows, Py_ssize_t labels):
    # The pure function adds the columns first to last where `rows` is
    # column-major, as the tagger makes it; other rows and arrays go to it.
    if (weights.dtype != np.float64 or rows.dtype != np.intp or weights.ndim != 2
            or rows.ndim != 2 or weights.shape[1] < labels or not rows.flags.f_contiguous):
        return summed_py(weights, rows, labels)
    cdef Py_ssize_t n = rows.shape[0], columns = rows.shape[1], i, j, k, label
    if n == 1:
        # One block's row is contiguous, and numpy sums a contiguous row
        # pairwise, not first to last: the pure function is that order.
        return summed_py(weights, rows, labels)
    out = np.zeros((n, labels))
    if columns == 0:
        return out
    # The arrays' memory read through their strides (in bytes), as
    # numpy's own loops do: the table is label-major, the rows column-major.
    cdef const char *w = <const char *> <uintptr_t> weights.ctypes.data
    cdef const char *r = <const char *> <uintptr_t> rows.ctypes.data
    cdef double *o = <double *> <uintptr_t> out.ctypes.data
    cdef Py_ssize_t w0 = weights.strides[0], w1 = weights.strides[1]
    cdef Py_ssize_t r0 = rows.strides[0], r1 = rows.strides[1]
    cdef double *at
    for i in range(n):
        at = o + i * labels
        k = (<const Py_ssize_t *> (r + i * r0))[0]
        for label in range(labels):
            at[label] = (<const double *> (w + k * w0 + label * w1))[0]
        for j in range(1, columns):
            k = (<const Py_ssize_t *> (r + i * r0 + j * r1))[0]
            for label in range(labels):
                at[label] += (<const double *> (w + k * w0 + label * w1))[0]
    return out
