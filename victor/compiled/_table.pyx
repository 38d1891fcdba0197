# cython: language_level=3, boundscheck=False, wraparound=False
"""bag_rows (victor/crf/weight_table.py) compiled: each bag's items'
weight vectors added up in C as the bag's items are read, where the pure
function gathers them all and adds them with numpy's add.at. Both add a
bag's items first to last from zero, so the rows are the same to the bit
(tests/test_compiled.py)."""

import numpy as np

from libc.stdint cimport uintptr_t

from victor.crf.weight_table import bag_rows_py

cdef enum:
    WIDEST = 64  # labels a model may have for this loop; more go to the pure function


def bag_rows(list split, dict rows_of, vectors, Py_ssize_t size):
    if (vectors.dtype != np.float64 or vectors.ndim != 2 or vectors.shape[1] > WIDEST
            or not vectors.flags.writeable):
        return bag_rows_py(split, rows_of, vectors, size)
    # The table's memory read and written through its strides (in bytes).
    cdef char *v = <char *> <uintptr_t> vectors.ctypes.data
    cdef Py_ssize_t width = vectors.shape[1], v0 = vectors.strides[0], v1 = vectors.strides[1]
    cdef Py_ssize_t k, r
    cdef double total[WIDEST]
    cdef bint found
    cdef list out = []
    cdef list parts
    for parts in split:
        for k in range(width):
            total[k] = 0.0
        found = False
        for item in parts:
            r = rows_of[item]
            if r != 0:
                found = True
                for k in range(width):
                    total[k] += (<double *> (v + r * v0 + k * v1))[0]
        if found:
            for k in range(width):
                (<double *> (v + size * v0 + k * v1))[0] = total[k]
            out.append(size)
            size += 1
        else:
            out.append(0)
    return out, size
