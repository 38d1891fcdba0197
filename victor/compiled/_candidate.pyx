# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""compute (victor/features/families/candidate.py) compiled: the same
scores, each element's sums held in C arrays by its number in the page's
paths rather than in dicts, and the same order of adding, so the shares
are the pure function's to the bit. Its ties go to the element scored
first, as the pure function's dict order has it. The element's own prior
is the pure module's. tests/test_compiled.py holds the two alike."""

from cpython.mem cimport PyMem_Calloc, PyMem_Free

from victor.features.families.candidate import COMMAS, _MIN_CHARS, _prior


# COMMAS as C code points, looked at for each character of a page's text:
# the ASCII ones in a table, the others in a short list.
cdef char _ASCII_MARK[128]
cdef Py_UCS4 _MARKS[8]
cdef Py_ssize_t _MARK_COUNT = 0
for _ch in COMMAS:
    if ord(_ch) < 128:
        _ASCII_MARK[ord(_ch)] = 1
    elif _MARK_COUNT < 8:
        _MARKS[_MARK_COUNT] = _ch
        _MARK_COUNT += 1
    else:
        raise ImportError("candidate.COMMAS holds more marks than the compiled count reads")


cdef Py_ssize_t _commas(str text):
    cdef Py_ssize_t n = 0, k
    cdef Py_UCS4 ch
    for ch in text:
        if ch < 128:
            n += _ASCII_MARK[ch]
        else:
            for k in range(_MARK_COUNT):
                if ch == _MARKS[k]:
                    n += 1
                    break
    return n


def compute(ctx):
    blocks = ctx.blocks
    cdef Py_ssize_t n = len(blocks), count, i, el, up, anc, w, last, k
    paths = ctx.paths
    cdef list elements = paths.elements, parents = paths.parents, inner = paths.inner
    cdef list nearest = paths.nearest
    count = len(elements)
    words_below = ctx.words_below
    cdef list words_in = words_below[0], linked_in = words_below[1]
    # Per element: its paragraph's characters and commas, its score, and
    # whether it has one; the paragraphs and the scored in the order met.
    cdef Py_ssize_t *chars = <Py_ssize_t *> PyMem_Calloc(count + 1, sizeof(Py_ssize_t))
    cdef Py_ssize_t *comma = <Py_ssize_t *> PyMem_Calloc(count + 1, sizeof(Py_ssize_t))
    cdef double *score = <double *> PyMem_Calloc(count + 1, sizeof(double))
    cdef double *top = <double *> PyMem_Calloc(count + 1, sizeof(double))
    cdef char *scored = <char *> PyMem_Calloc(count + 1, 1)
    cdef char *inside = <char *> PyMem_Calloc(count + 1, 1)
    cdef Py_ssize_t *order = <Py_ssize_t *> PyMem_Calloc(count + 1, sizeof(Py_ssize_t))
    cdef Py_ssize_t *met = <Py_ssize_t *> PyMem_Calloc(count + 1, sizeof(Py_ssize_t))
    cdef char *seen = <char *> PyMem_Calloc(count + 1, 1)
    cdef Py_ssize_t scored_count = 0, met_count = 0, best_el = -1, size, points, words
    cdef double best = 0.0, weight, s, v, f, x
    cdef list in_best, share
    cdef str text
    try:
        if (chars == NULL or comma == NULL or score == NULL or top == NULL or scored == NULL
                or inside == NULL or order == NULL or met == NULL or seen == NULL):
            raise MemoryError()
        for i in range(n):
            el = nearest[i]
            if el >= 0:
                text = blocks[i].text
                if not seen[el]:
                    seen[el] = 1
                    met[met_count] = el
                    met_count += 1
                chars[el] += len(text)
                comma[el] += _commas(text)
        for k in range(met_count):
            el = met[k]
            size = chars[el]
            if size < _MIN_CHARS:
                continue
            points = 1 + comma[el] + min(size // 100, 3)
            anc = el
            for w in range(2):
                weight = 1.0 if w == 0 else 0.5
                anc = parents[anc]
                if anc < 0:
                    break
                if not scored[anc]:
                    scored[anc] = 1
                    score[anc] = _prior(elements[anc])
                    order[scored_count] = anc
                    scored_count += 1
                score[anc] += points * weight
        # Each scored element's final score, over its share of words not
        # in links; the best is the first of the highest, in scoring order.
        for k in range(scored_count):
            el = order[k]
            s = score[el]
            words = words_in[el]
            if words:
                s = s * (1 - (<Py_ssize_t> linked_in[el]) / <double> words)
            score[el] = s
            if best_el < 0 or s > best:
                best_el, best = el, s
        for el in range(count):
            up = parents[el]
            f = score[el] if scored[el] else 0.0
            v = top[up] if up >= 0 else 0.0
            top[el] = v if v > f else f
            inside[el] = el == best_el or (up >= 0 and inside[up])
        in_best = [0] * n
        share = [0.0] * n
        for i in range(n):
            last = inner[i]
            if last >= 0:
                if best > 0:
                    x = top[last] / best
                    x = 0.0 if 0.0 > x else x
                    share[i] = 1.0 if 1.0 < x else x
                in_best[i] = int(inside[last])
        return {"candidate.in-best": in_best, "candidate.share": share}
    finally:
        PyMem_Free(chars)
        PyMem_Free(comma)
        PyMem_Free(score)
        PyMem_Free(top)
        PyMem_Free(scored)
        PyMem_Free(inside)
        PyMem_Free(order)
        PyMem_Free(met)
        PyMem_Free(seen)

