# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""bag_rows (victor/crf/weight_table.py) compiled: each bag's items'
weight vectors added up in C as the bag's items are read, where the pure
function gathers them all and adds them with numpy's add.at. Both add a
bag's items first to last from zero, so the rows are the same to the bit
(tests/test_compiled.py)."""

from victor.crf.weight_table import bag_rows_py

cdef enum:
    WIDEST = 64  # labels a model may have for this loop; more go to the pure function


def bag_rows(list split, dict rows_of, vectors, Py_ssize_t size):
    cdef double[:, :] v = vectors
    cdef Py_ssize_t width = v.shape[1], k, r
    cdef double total[WIDEST]
    cdef bint found
    cdef list out = []
    cdef list parts
    if width > WIDEST:
        return bag_rows_py(split, rows_of, vectors, size)
    for parts in split:
        for k in range(width):
            total[k] = 0.0
        found = False
        for item in parts:
            r = rows_of[item]
            if r != 0:
                found = True
                for k in range(width):
                    total[k] += v[r, k]
        if found:
            for k in range(width):
                v[size, k] = total[k]
            out.append(size)
            size += 1
        else:
            out.append(0)
    return out, size
