# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""viterbi (victor/crf/chain.py) compiled: the same doubling scan of
max-plus products, the same best scores and the same way back, in C
loops over one buffer where the pure function makes numpy arrays a round.
Each entry is the pure function's: a sum of two numbers, or the larger of
two, taken in the same order (numpy's maximum keeps the first of two
equal ones), and ties of the way back go to the lower label as numpy's
argmax gives them. Scores or transitions that are not finite float64, or
more labels than WIDEST, go to the pure function. The pure function is
the reference; tests/test_compiled.py holds the two to the same labels."""

import numpy as np

from libc.stdint cimport uintptr_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from victor.crf.chain import viterbi_py

cdef enum:
    WIDEST = 64  # labels a model may have for this loop; more go to the pure function
    FIVE = 5


cdef inline double _larger(double kept, double other) noexcept nogil:
    """numpy's maximum(kept, other) of two numbers that are not NaN."""
    return kept if kept >= other else other


cdef inline void _product(const double *a, const double *b, double *out,
                          Py_ssize_t L) noexcept nogil:
    """out = a (x) b in the max-plus algebra, the terms taken first to last.
    Inlined, and called with the constant FIVE for the shipped models'
    labels, so that the compiler unrolls its loops there."""
    cdef Py_ssize_t i, j, k
    cdef double v
    for i in range(L):
        for j in range(L):
            v = a[i * L] + b[j]
            for k in range(1, L):
                v = _larger(v, a[i * L + k] + b[k * L + j])
            out[i * L + j] = v


def viterbi(scores, transition):
    if (not isinstance(scores, np.ndarray) or not isinstance(transition, np.ndarray)
            or scores.dtype != np.float64 or transition.dtype != np.float64
            or scores.ndim != 2 or len(scores) == 0 or scores.shape[1] > WIDEST
            or transition.shape != (scores.shape[1], scores.shape[1])
            or not (np.isfinite(scores).all() and np.isfinite(transition).all())):
        return viterbi_py(scores, transition)
    s_array = np.ascontiguousarray(scores)
    t_array = np.ascontiguousarray(transition)
    cdef const double *s = <const double *> <uintptr_t> s_array.ctypes.data
    cdef const double *tr = <const double *> <uintptr_t> t_array.ctypes.data
    cdef Py_ssize_t n = scores.shape[0], L = scores.shape[1], LL = L * L, m = n - 1
    cdef Py_ssize_t t, i, j, k, reach, arg
    cdef double v, w
    cdef double tmp[WIDEST * WIDEST]
    cdef double *p = <double *> malloc(max(m, 1) * LL * sizeof(double))
    cdef double *best = <double *> malloc(n * L * sizeof(double))
    cdef Py_ssize_t *back = <Py_ssize_t *> malloc(max(m, 1) * L * sizeof(Py_ssize_t))
    cdef const double *a
    cdef double *b
    if p == NULL or best == NULL or back == NULL:
        free(p)
        free(best)
        free(back)
        raise MemoryError()
    try:
        with nogil:
            # p[t][i][j]: label i at block t, then j at block t + 1.
            for t in range(m):
                for i in range(L):
                    for j in range(L):
                        p[t * LL + i * L + j] = tr[i * L + j] + s[(t + 1) * L + j]
            # The running products, doubling the reach each round; block t
            # takes its product with the one `reach` before it, from the
            # last block down, so that each reads its partner unchanged.
            reach = 1
            while reach < m:
                t = m - 1
                while t >= reach:
                    a = p + (t - reach) * LL
                    b = p + t * LL
                    if L == FIVE:
                        _product(a, b, tmp, FIVE)
                    else:
                        _product(a, b, tmp, L)
                    memcpy(b, tmp, LL * sizeof(double))
                    t -= 1
                reach *= 2
            for j in range(L):
                best[j] = s[j]
            for t in range(m):
                for j in range(L):
                    v = s[0] + p[t * LL + j]
                    for i in range(1, L):
                        v = _larger(v, s[i] + p[t * LL + i * L + j])
                    best[(t + 1) * L + j] = v
            for t in range(m):
                for j in range(L):
                    arg = 0
                    v = best[t * L] + tr[j]
                    for i in range(1, L):
                        w = best[t * L + i] + tr[i * L + j]
                        if w > v:
                            v = w
                            arg = i
                    back[t * L + j] = arg
            arg = 0
            v = best[m * L]
            for j in range(1, L):
                if best[m * L + j] > v:
                    v = best[m * L + j]
                    arg = j
        path = [arg]
        for t in range(m - 1, -1, -1):
            arg = back[t * L + arg]
            path.append(arg)
        path.reverse()
        return path
    finally:
        free(p)
        free(best)
        free(back)
