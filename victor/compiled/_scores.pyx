# cython: language_level=3, boundscheck=False, wraparound=False
"""summed, static_rows and combined_rows (victor/crf/tagger.py) compiled.
summed: each label's weights added up in C, column after column, where
the pure function gathers an n x columns array a label; the columns are
added in the order numpy adds them, first to last where a page has two
blocks or more, so the scores are the pure function's to the bit.
static_rows and combined_rows: the rows of a page's numeric columns and
of their combinations copied in one loop, where the pure functions make a
few numpy calls a column. tests/test_compiled.py holds each twin to its
pure function."""

import numpy as np

from cpython.buffer cimport PyBUF_ANY_CONTIGUOUS, PyBUF_FORMAT, PyBuffer_Release, PyObject_GetBuffer
from libc.stdint cimport uintptr_t

from victor.crf.tagger import combined_rows_py, static_rows_py, summed_py

cdef enum:
    TERMS = 8  # features a combination may join for this loop; more go to the pure function


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
    # Label by label and column by column, as the pure function goes: one
    # label's weights are one run of memory, and a column's rows another.
    cdef const char *w = <const char *> <uintptr_t> weights.ctypes.data
    cdef const char *r = <const char *> <uintptr_t> rows.ctypes.data
    cdef double *o = <double *> <uintptr_t> out.ctypes.data
    cdef Py_ssize_t w0 = weights.strides[0], w1 = weights.strides[1]
    cdef Py_ssize_t r0 = rows.strides[0], r1 = rows.strides[1]
    cdef const char *weight
    cdef const char *column
    for label in range(labels):
        weight = w + label * w1
        column = r
        for i in range(n):
            k = (<const Py_ssize_t *> (column + i * r0))[0]
            o[i * labels + label] = (<const double *> (weight + k * w0))[0]
        for j in range(1, columns):
            column = r + j * r1
            for i in range(n):
                k = (<const Py_ssize_t *> (column + i * r0))[0]
                o[i * labels + label] += (<const double *> (weight + k * w0))[0]
    return out


cdef bint _index_arrays(rows, padded):
    """Whether `rows` and `padded` are as the tagger makes them: column-major
    arrays of numpy's index type, `rows` writeable. Others go to the pure
    functions."""
    return (rows.dtype == np.intp and padded.dtype == np.intp and rows.ndim == 2
            and padded.ndim == 2 and rows.flags.f_contiguous and padded.flags.f_contiguous
            and rows.flags.writeable)


cdef const Py_ssize_t *_column(const Py_ssize_t *padded, Py_ssize_t height, Py_ssize_t width,
                               Py_ssize_t i, Py_ssize_t start, Py_ssize_t n) except NULL:
    """Column i of the padded numbers (height x width, column-major), from
    row `start` on, for n blocks."""
    if not 0 <= i < width or not 0 <= start <= height - n:
        raise IndexError(f"column {i} from row {start}: outside the padded numbers")
    return padded + i * height + start


cdef bint _index_table(Py_buffer *view):
    """Whether a table's buffer is one run of numpy's index type. A table's
    memory is read through the buffer protocol: there is a table a column,
    and numpy's ctypes attribute costs many times more a call."""
    return (view.ndim == 1 and view.itemsize == sizeof(Py_ssize_t) and view.format != NULL
            and view.format[0] in b"lqn" and view.format[1] == 0)


def static_rows(rows, list js, list ids, list features, list starts, padded):
    if not _index_arrays(rows, padded):
        return static_rows_py(rows, js, ids, features, starts, padded)
    cdef Py_ssize_t n = rows.shape[0], height = padded.shape[0], width = padded.shape[1]
    cdef Py_ssize_t k, b, code, size
    cdef Py_ssize_t *r = <Py_ssize_t *> <uintptr_t> rows.ctypes.data
    cdef const Py_ssize_t *p = <const Py_ssize_t *> <uintptr_t> padded.ctypes.data
    cdef Py_ssize_t *out
    cdef const Py_ssize_t *src
    cdef const Py_ssize_t *table
    cdef Py_buffer view
    for k in range(len(js)):
        src = _column(p, height, width, features[k], starts[k], n)
        PyObject_GetBuffer(ids[k], &view, PyBUF_ANY_CONTIGUOUS | PyBUF_FORMAT)
        try:
            if not _index_table(&view):
                static_rows_py(rows, [js[k]], [ids[k]], [features[k]], [starts[k]], padded)
                continue
            table = <const Py_ssize_t *> view.buf
            size = view.shape[0]
            out = r + <Py_ssize_t> js[k] * n
            for b in range(n):
                code = src[b]
                if code < 0 or code >= size:
                    raise IndexError(f"number {code} of a table of {size} rows")
                out[b] = table[code]
        finally:
            PyBuffer_Release(&view)


def combined_rows(rows, list known, dict static, padded, Py_ssize_t reach):
    if not _index_arrays(rows, padded):
        return combined_rows_py(rows, known, static, padded, reach)
    cdef Py_ssize_t n = rows.shape[0], height = padded.shape[0], width = padded.shape[1]
    cdef Py_ssize_t b, t, count, at, size, found, i
    cdef Py_ssize_t *r = <Py_ssize_t *> <uintptr_t> rows.ctypes.data
    cdef const Py_ssize_t *p = <const Py_ssize_t *> <uintptr_t> padded.ctypes.data
    cdef const Py_ssize_t *column[TERMS]
    cdef Py_ssize_t sizes[TERMS]
    cdef Py_ssize_t *out
    cdef const Py_ssize_t *table
    cdef Py_buffer view
    cdef bint whole
    cdef list unmet = []
    cdef tuple terms
    for j, terms, ids in known:
        count = len(terms)
        if count > TERMS:
            unmet.extend(combined_rows_py(rows, [(j, terms, ids)], static, padded, reach))
            continue
        for t in range(count):
            name, offset = terms[t]
            i, sizes[t] = static[name]
            column[t] = _column(p, height, width, i, reach + offset, n)
        PyObject_GetBuffer(ids, &view, PyBUF_ANY_CONTIGUOUS | PyBUF_FORMAT)
        try:
            if not _index_table(&view):
                unmet.extend(combined_rows_py(rows, [(j, terms, ids)], static, padded, reach))
                continue
            table = <const Py_ssize_t *> view.buf
            size = view.shape[0]
            out = r + <Py_ssize_t> j * n
            whole = True
            for b in range(n):
                at = 0
                for t in range(count):  # np.ravel_multi_index's number, the last term fastest
                    if not 0 <= column[t][b] < sizes[t]:
                        raise ValueError(f"number {column[t][b]} of {sizes[t]} values")
                    at = at * sizes[t] + column[t][b]
                if at >= size:
                    raise IndexError(f"combination {at} of a table of {size}")
                found = table[at]
                if found < 0:
                    whole = False
                    break
                out[b] = found
            if not whole:
                unmet.append(j)
        finally:
            PyBuffer_Release(&view)
    return unmet
