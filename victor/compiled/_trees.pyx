# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""predict (victor/boosters.py) compiled: a binary booster's trees walked
here, from the flat arrays of its Forest, where LightGBM's C is called
through ctypes, walks one row at a time and waits on each of its steps.

The walk does what LightGBM does for a dense row, step by step: a value
this near zero counts as zero, a missing value goes as the split's missing
type says, the raw score is the trees' leaves added in tree order and looked
at for early stopping when LightGBM looks, and the probability is its
logistic; so the probabilities are LightGBM's to the bit
(tests/test_compiled.py). A booster without a Forest, parameters that
`stopping` does not read, or rows of another shape or type go to LightGBM."""

import numpy as np

from libc.math cimport exp, fabs, isnan
from libc.stdint cimport uintptr_t

from victor.boosters import predict_py, stopping

# LightGBM's kZeroThreshold: 1e-35 written as a float, widened to a double.
cdef double ZERO = 1.0000000180025095e-35

# Rows walked together: a block's rows, copied with LightGBM's zeros, stay
# in the cache through all the trees; the rows of a block still walking go
# through a tree LANES at a time, side by side, so that the processor
# fetches one row's next node while it waits for another's.
cdef enum:
    BLOCK = 64
    LANES = 16


def predict(booster, x, parameters):
    forest = booster.forest
    plan = None if forest is None else stopping(parameters)
    x = np.atleast_2d(x)
    if (plan is None or x.dtype not in (np.float32, np.float64) or x.ndim != 2
            or x.shape[0] == 0 or x.shape[1] != forest.columns):
        return predict_py(booster, x, parameters)
    rows = np.ascontiguousarray(x, dtype=np.float64)
    out = np.empty(x.shape[0])
    plain = np.empty((BLOCK, forest.columns))
    # The forest's arrays as LightGBM's types, each one block of memory
    # (as the Forest makes them, so these are the arrays themselves).
    root = np.ascontiguousarray(forest.root, np.intp)
    leaves = np.ascontiguousarray(forest.leaves, np.intp)
    feature = np.ascontiguousarray(forest.feature, np.intc)
    threshold = np.ascontiguousarray(forest.threshold, np.float64)
    decision = np.ascontiguousarray(forest.decision, np.int8)
    child = np.ascontiguousarray(forest.child, np.intc)
    value = np.ascontiguousarray(forest.value, np.float64)
    cdef const double *r = <const double *> _address(rows)
    cdef Py_ssize_t n = rows.shape[0], columns = rows.shape[1], trees = root.shape[0]
    cdef const Py_ssize_t *ro = <const Py_ssize_t *> _address(root)
    cdef const Py_ssize_t *le = <const Py_ssize_t *> _address(leaves)
    cdef const int *fe = <const int *> _address(feature)
    cdef const double *th = <const double *> _address(threshold)
    cdef const signed char *de = <const signed char *> _address(decision)
    cdef const int *ch = <const int *> _address(child)
    cdef const double *va = <const double *> _address(value)
    cdef int every = plan[0]
    cdef double margin = plan[1]
    cdef double *pl = <double *> _address(plain)
    cdef double *o = <double *> _address(out)
    with nogil:
        _walk(r, n, columns, ro, le, trees, fe, th, de, ch, va, every, margin, pl, o)
    return out


cdef inline uintptr_t _address(array):
    return <uintptr_t> array.ctypes.data


cdef void _walk(const double *rows, Py_ssize_t n, Py_ssize_t columns, const Py_ssize_t *root,
                const Py_ssize_t *leaves, Py_ssize_t trees, const int *feature,
                const double *threshold, const signed char *decision, const int *child,
                const double *value, int every, double margin, double *plain,
                double *out) noexcept nogil:
    """The rows (n x columns, row after row) through the trees; `plain`
    has room for BLOCK rows."""
    cdef Py_ssize_t first, size, live, kept, i, j, a, g, t, lanes, k, bound
    cdef Py_ssize_t active[BLOCK]
    cdef double score[BLOCK]
    cdef Py_ssize_t at[LANES]
    cdef const double* row[LANES]
    cdef int counter, moving, missing
    cdef double v
    first = 0
    while first < n:
        size = min(<Py_ssize_t>BLOCK, n - first)
        for i in range(size):
            # The row LightGBM walks: a value this near zero is left out
            # (its buffer holds zero there), and a split of missing type
            # None reads a missing value as zero.
            for j in range(columns):
                v = rows[(first + i) * columns + j]
                plain[i * columns + j] = 0.0 if fabs(v) <= ZERO or isnan(v) else v
            active[i] = i
            score[i] = 0.0
        live = size
        counter = 0
        for t in range(trees):
            bound = leaves[t]
            a = 0
            while a < live:
                lanes = min(<Py_ssize_t>LANES, live - a)
                for g in range(lanes):
                    at[g] = root[t]
                    row[g] = plain + active[a + g] * columns
                moving = bound > root[t]
                while moving:
                    moving = 0
                    for g in range(lanes):
                        k = at[g]
                        missing = (decision[k] >> 2) & 3
                        if missing == 1 or missing == 2:
                            v = rows[(first + active[a + g]) * columns + feature[k]]
                            k = child[2 * k + _side(v, threshold[k], decision[k], missing)]
                        else:
                            k = child[2 * k + (row[g][feature[k]] > threshold[k])]
                        at[g] = k
                        moving |= k < bound
                for g in range(lanes):
                    score[active[a + g]] += value[at[g]]
                a += lanes
            if every:
                counter += 1
                if counter == every:
                    counter = 0
                    kept = 0
                    for a in range(live):
                        if not 2.0 * fabs(score[active[a]]) > margin:
                            active[kept] = active[a]
                            kept += 1
                    live = kept
                    if live == 0:
                        break
        for i in range(size):
            out[first + i] = 1.0 / (1.0 + exp(-score[i]))
        first += size


cdef inline int _side(double v, double threshold, signed char decision,
                      int missing) noexcept nogil:
    """The side (0 left, 1 right) a split of missing type Zero (1) or NaN (2)
    sends a dense row's value `v` to, as LightGBM's NumericalDecision does."""
    if fabs(v) <= ZERO:
        v = 0.0
    if isnan(v) and missing != 2:
        v = 0.0
    if (missing == 1 and -ZERO <= v <= ZERO) or (missing == 2 and isnan(v)):
        return 0 if decision & 2 else 1
    return 0 if v <= threshold else 1
