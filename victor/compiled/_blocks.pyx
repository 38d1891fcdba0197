# cython: language_level=3, boundscheck=False, wraparound=False
"""split_blocks (victor/reading/blocks.py) compiled: the same walk, its
counters and the child positions on the path held as C integers rather than
Python objects and iterators. And by_containers, its loop over each
block's containers by index rather than by slices. The pure functions are
the reference; tests/test_compiled.py holds the two to the same blocks and
answers."""

from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free

from collections import Counter

from victor.reading.blocks import Block, count_tags
from victor.reading.layout import BLOCK_LEVEL
from victor.reading.parser import ASIDE, VOID


cdef frozenset _BLOCK_LEVEL = BLOCK_LEVEL
cdef frozenset _ASIDE = ASIDE
cdef frozenset _VOID = VOID


cdef struct Level:
    # What the walk keeps of each element on the path: where it stands
    # among its children, and its div and td group numbers.
    Py_ssize_t next
    Py_ssize_t div
    Py_ssize_t td


def split_blocks(body):
    cdef list blocks = []
    cdef list met = [body.tag]
    cdef list asides = []
    cdef list splits = []
    cdef list pending = []
    cdef list path = []
    cdef list kids = [body.children]  # each path element's children, <body>'s first
    cdef list lines = [None]
    cdef dict numbers = {}
    cdef Py_ssize_t start = 0, i, n, depth = 0, capacity = 64
    cdef Py_ssize_t div_count = 0, td_count = 0, links = 0, stop, box
    cdef list children
    cdef str tag, text
    cdef object child, line
    cdef Level *levels = <Level *> PyMem_Malloc(capacity * sizeof(Level))
    cdef Level *grown
    if levels == NULL:
        raise MemoryError()
    levels[0].next = 0
    levels[0].div = -1
    levels[0].td = -1
    try:
        while True:
            children = kids[depth]
            i = levels[depth].next
            n = len(children)
            while i < n:
                child = children[i]
                i += 1
                if isinstance(child, str):
                    if pending:
                        pending.append(child)
                    elif not (<str> child).isspace():
                        pending.append(child)
                        start = i - 1
                    continue
                tag = child.tag
                met.append(tag)
                if tag in _ASIDE:
                    asides.append(child)
                    continue
                if pending:
                    text = " ".join("".join(pending).split())
                    pending.clear()
                    if text:
                        line = lines[depth]
                        box = -1 if line is None else numbers.setdefault(line, len(numbers))
                        blocks.append(Block(len(blocks), text, tuple(path), tuple(splits),
                                            levels[depth].div, levels[depth].td, start, i - 1,
                                            box, links > 0))
                        splits.clear()
                splits.append(tag)
                levels[depth].next = i
                if depth + 1 == capacity:
                    capacity *= 2
                    grown = <Level *> PyMem_Realloc(levels, capacity * sizeof(Level))
                    if grown == NULL:
                        raise MemoryError()
                    levels = grown
                levels[depth + 1].next = 0
                levels[depth + 1].div = levels[depth].div
                levels[depth + 1].td = levels[depth].td
                if tag == "div":
                    div_count += 1
                    levels[depth + 1].div = div_count
                elif tag == "td":
                    td_count += 1
                    levels[depth + 1].td = td_count
                elif tag == "a":
                    links += 1
                path.append(child)
                lines.append(child if tag in _BLOCK_LEVEL else lines[depth])
                kids.append(child.children)
                depth += 1
                break
            else:  # the innermost element has ended
                if pending:
                    text = " ".join("".join(pending).split())
                    pending.clear()
                    if text:
                        line = lines[depth]
                        box = -1 if line is None else numbers.setdefault(line, len(numbers))
                        blocks.append(Block(len(blocks), text, tuple(path), tuple(splits),
                                            levels[depth].div, levels[depth].td, start, n,
                                            box, links > 0))
                        splits.clear()
                if depth == 0:  # <body> itself
                    break
                tag = path.pop().tag
                lines.pop()
                kids.pop()
                depth -= 1
                if tag == "a":
                    links -= 1
                if tag not in _VOID:
                    splits.append("/" + tag)
    finally:
        PyMem_Free(levels)
    tags = Counter(met)
    for aside in asides:
        tags.update(count_tags(aside))
        tags[aside.tag] -= 1  # met already
    return blocks, tags


def by_containers(blocks, answer, outside):
    cdef dict within = {}
    cdef list found = []
    cdef tuple path
    cdef Py_ssize_t k, j, n
    for b in blocks:
        path = tuple(b.containers)
        n = len(path)
        k = n
        while k and path[k - 1] not in within:  # the innermost container answered
            k -= 1
        got = within[path[k - 1]] if k else outside
        for j in range(k, n):
            el = path[j]
            got = answer(got, el)
            within[el] = got
        found.append(got)
    return found
