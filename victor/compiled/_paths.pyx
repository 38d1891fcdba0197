# cython: language_level=3, boundscheck=False, wraparound=False
"""paths (victor/features/context.py) compiled: the same walk up each
block's containers, each element's mask, nearest block-level container and
template number kept in C arrays rather than in a tuple an element. The
pure function is the reference; tests/test_compiled.py holds the two to
the same Paths."""

from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free

from victor.features.context import _CONTAINER_BITS, _NO_WORDS, Paths, kind
from victor.features.tags import BLOCK_LEVEL


cdef frozenset _BLOCK_LEVEL = BLOCK_LEVEL
cdef dict _BITS = _CONTAINER_BITS


cdef inline bint _upper(Py_UCS4 c):
    return 65 <= c <= 90


cdef inline bint _lower(Py_UCS4 c):
    return 97 <= c <= 122


cpdef frozenset class_pieces(str names):
    """context.class_pieces: the pattern's scan written as a loop. The
    pattern reads ASCII letters only; a run of capitals before a small
    letter leaves its last capital to the word that letter goes on
    ("HTMLParser": html, parser)."""
    cdef Py_ssize_t n = len(names), i = 0, j, k
    cdef list found = []
    while i < n:
        if _upper(names[i]):
            j = i + 1
            while j < n and _upper(names[j]):
                j += 1
            if j < n and _lower(names[j]):
                if j - i >= 2:  # the capitals but the last, which starts the next word
                    if j - 1 - i > 1:
                        found.append(names[i:j - 1].lower())
                    i = j - 1
                    continue
                k = j + 1  # one capital and its small letters
                while k < n and _lower(names[k]):
                    k += 1
                found.append(names[i:k].lower())
                i = k
            else:
                if j - i > 1:
                    found.append(names[i:j].lower())
                i = j
        elif _lower(names[i]):
            j = i + 1
            while j < n and _lower(names[j]):
                j += 1
            if j - i > 1:
                found.append(names[i:j].lower())
            i = j
        else:
            i += 1
    return frozenset(found)


cdef struct Info:
    # An element's facts, at its number plus one (<body>'s first).
    long mask
    Py_ssize_t nearest
    Py_ssize_t template


def paths(blocks, bint class_words, own_bits=None):
    cdef Py_ssize_t capacity = 256, last, parent, k, n_blocks = len(blocks), i, t, up
    cdef Info *infos = <Info *> PyMem_Malloc(capacity * sizeof(Info))
    cdef Info *grown
    cdef Info info
    if infos == NULL:
        raise MemoryError()
    cdef list words_of = [_NO_WORDS]  # each element's class words, likewise
    cdef list bits_of = [0]  # and semantic bits, where own_bits is given
    cdef dict number = {}
    cdef list elements = []
    cdef list parents = []
    cdef list inner = []
    cdef dict split = {}
    cdef dict below = {}
    cdef dict templates = {}
    cdef tuple path
    cdef str tag, cls, names
    cdef dict attrs
    cdef object words, bits, el, union, own, step, found
    cdef bint semantic = own_bits is not None
    infos[0].mask = 0
    infos[0].nearest = -1
    infos[0].template = -1
    try:
        for b in blocks:
            path = b.containers
            if path:
                found = number.get(path[len(path) - 1])
                last = -2 if found is None else found
            else:
                last = -1
            if last == -2:
                k = len(path) - 1
                while k >= 0 and path[k] not in number:
                    k -= 1
                last = number[path[k]] if k >= 0 else -1
                for j in range(k + 1, len(path)):
                    el = path[j]
                    parent = last
                    info = infos[parent + 1]
                    words = words_of[parent + 1]
                    parents.append(parent)
                    last = len(elements)
                    number[el] = last
                    elements.append(el)
                    tag = el.tag
                    attrs = el.attrs
                    info.mask |= _BITS.get(tag, 0)
                    if tag in _BLOCK_LEVEL:
                        info.nearest = last
                    cls = attrs.get("class", "")
                    if class_words and (cls or "id" in attrs):
                        step = (words, cls, attrs.get("id", ""))
                        union = below.get(step)
                        if union is None:
                            names = f"{cls} {step[2]}"
                            own = split.get(names)
                            if own is None:
                                own = split[names] = class_pieces(names)
                            union = below[step] = words if own <= words else words | own
                        words = union
                    info.template = templates.setdefault((info.template, tag, cls),
                                                         len(templates))
                    if last + 2 > capacity:
                        capacity *= 2
                        grown = <Info *> PyMem_Realloc(infos, capacity * sizeof(Info))
                        if grown == NULL:
                            raise MemoryError()
                        infos = grown
                    infos[last + 1] = info
                    words_of.append(words)
                    if semantic:
                        bits_of.append(bits_of[parent + 1] | own_bits(el))
            inner.append(last)
        masks = [infos[i + 1].mask for i in inner]
        nearest = [infos[i + 1].nearest for i in inner]
        template_of = [infos[i + 1].template for i in inner]
    finally:
        PyMem_Free(infos)
    kind_of_template = []
    kinds = {}
    for parent, tag, classes in templates:
        up = kind_of_template[parent] if parent >= 0 else -1
        kind_of_template.append(kinds.setdefault((up, tag, kind(classes)), len(kinds)))
    return Paths(masks, nearest, [words_of[i + 1] for i in inner], template_of,
                 [kind_of_template[t] if t >= 0 else -1 for t in template_of],
                 [bits_of[i + 1] for i in inner] if semantic else None,
                 elements, parents, inner)
