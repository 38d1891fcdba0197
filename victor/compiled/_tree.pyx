# cython: language_level=3, boundscheck=False, wraparound=False
"""kept_tree (victor/output/tree.py) compiled: the same two walks, the
one over the blocks and the copy of the marked elements, with their
indices, flags and look-ups held as C integers and typed containers
rather than Python objects. What an element gives the copy (its clean
copy, pictures, list numbers, the settling pass) is the pure module's
own functions, called as the pure walk calls them, but for the look
into an element without kept text (pictures.text_free), a loop over up
to LOOK nodes that is compiled here too. The pure function is the
reference; tests/test_compiled.py holds the two to the same trees."""

from victor.labels import OTHER
from victor.output.characters import readable
from victor.output.elements import PLAIN, RETITLED, bare, copied, left_out
from victor.output.pictures import _UNSEEN, LOOK, Found, _away, given
from victor.output.structures import keep_place, settle, unsettled
from victor.output.tree import _CELLS, _LITERAL, _add_ancestors, _apart, _formula, _last_kept
from victor.reading.layout import BLOCK_LEVEL
from victor.reading.parser import FORMULA, Element

cdef frozenset _BLOCK_LEVEL = BLOCK_LEVEL
cdef frozenset _PLAIN = PLAIN
cdef frozenset _RETITLED = RETITLED
cdef frozenset _CELL_TAGS = _CELLS
cdef frozenset _LITERAL_TAGS = _LITERAL
cdef str _OTHER = OTHER
cdef frozenset _UNSEEN_TAGS = _UNSEEN
cdef Py_ssize_t _LOOK = LOOK


def kept_tree(body, blocks, labels, str base=""):
    cdef dict runs = {}
    cdef set marked = set()
    cdef dict labels_in = {}
    cdef set outer = set()
    cdef bint settling = False
    cdef tuple containers
    cdef Py_ssize_t j, m
    cdef dict own
    cdef set seen
    cdef object box, key
    for b, label in zip(blocks, labels):
        containers = tuple(b.containers)
        parent = containers[len(containers) - 1] if containers else body
        key = id(parent)
        own = runs.get(key)
        if own is None:
            own = runs[key] = {}
        own[b.start] = (b.stop, label)
        if label == _OTHER:
            continue
        if _add_ancestors(containers, marked) or unsettled(b.text):
            settling = True
        box = id(body)
        for j in range(len(containers) - 1, -1, -1):
            if containers[j].tag in _BLOCK_LEVEL:
                box = id(containers[j])
                for m in range(j - 1, -1, -1):
                    c = containers[m]
                    if c.tag in _BLOCK_LEVEL:
                        if id(c) in outer:
                            break
                        outer.add(id(c))
                break
        seen = labels_in.get(box)
        if seen is None:
            seen = labels_in[box] = set()
        seen.add(label)
    headers = {box for box, seen in labels_in.items() if seen == {"h"} and box not in outer}
    tree = _copy(body, runs, marked, headers, base)
    return settle(tree, base) if settling else tree


cdef object _copy(body, dict runs, set marked, set headers, str base):
    root = Element("body")
    cdef list stack = [(body, root, False, False, False)]
    cdef dict places = {}
    cdef dict own
    cdef dict empty = {}
    cdef list children, pending, kids
    cdef Py_ssize_t i, n, stop
    cdef bint in_layout, in_code, literal, shown, layout, code
    cdef tuple run
    cdef str tag
    while stack:
        src, dst, in_layout, in_code, literal = stack.pop()
        own = runs.get(id(src), empty)
        children = src.children
        kids = dst.children
        i = 0
        n = len(children)
        pending = []
        shown = False
        while i < n:
            run = own.get(i) if own else None
            if run is not None:
                stop = run[0]
                if run[1] != _OTHER:
                    kids.extend([readable(node) if isinstance(node, str) else _formula(node)
                                 for node in children[i:stop]])
                    shown = True
                i = stop
                continue
            child = children[i]
            i += 1
            if isinstance(child, str):
                kids.append(child)
            elif id(child) in marked:
                if left_out(child, in_code):
                    continue
                tag = child.tag
                if tag in _PLAIN:
                    copy = Element("h2" if tag in _RETITLED and id(child) in headers else tag)
                    layout, code = in_layout, in_code
                else:
                    copy, layout, code = copied(child, in_layout, in_code,
                                                id(child) in headers, base)
                if tag == "li" and src.tag == "ol":
                    keep_place(src, child, copy, dst, marked, places)
                if (not literal and i > 1 and id(children[i - 2]) in marked
                        and _apart(children[i - 2], child)):
                    kids.append(" ")
                kids.append(copy)
                pending.append((child, copy, layout, code, literal or tag in _LITERAL_TAGS))
                shown = True
            elif child.tag in _CELL_TAGS and src.tag == "tr" and not in_layout:
                cell = bare(child, base)
                cell.children.extend(_unkept(child, False, shown, _always,
                                            lambda el: bare(el, base)))
                kids.append(cell)
            else:
                kids.extend(_unkept(child, src.tag == "figure", shown,
                                   _After(src, own, marked, i),
                                   lambda el: bare(el, base)))
        pending.reverse()
        stack.extend(pending)
    return root


def _always():
    return True


cdef class _After:
    """The pure walk's `lambda: i <= _last_kept(src, own, marked)`, with
    `i` as it stood when the lambda was made."""
    cdef object src
    cdef dict own
    cdef set marked
    cdef Py_ssize_t i

    def __cinit__(self, src, dict own, set marked, Py_ssize_t i):
        self.src = src
        self.own = own
        self.marked = marked
        self.i = i

    def __call__(self):
        return self.i <= _last_kept(self.src, self.own, self.marked)


cdef list _unkept(el, bint in_figure, bint shown, after, copy):
    """pictures.unkept, with text_free's look compiled (_text_free)."""
    nodes, found = _text_free(el)
    return given(el, nodes, found, in_figure, shown, after, copy)


cdef tuple _text_free(el):
    """pictures.text_free: the same look, node by node, in the same order."""
    cdef str tag = el.tag
    if tag == FORMULA:
        return [el], None
    cdef list out = []
    cdef list stack = [el]
    cdef list aways = [False]
    cdef Py_ssize_t seen = 0, k
    cdef bint away
    cdef list children
    found = None
    while stack:
        e = stack.pop()
        away = aways.pop()
        seen += 1
        if isinstance(e, str):
            if not (<str> e).isspace():
                return [], None
            out.append(e)
            continue
        if seen > _LOOK:
            return [], None
        tag = e.tag
        if tag == "br" or tag == FORMULA:
            out.append(e if tag == FORMULA else Element("br"))
            continue
        if tag == "img" or tag == "figcaption" or tag == "figure":
            if found is None:
                found = Found()
            if tag == "img":
                if not away:
                    found.images.append(e)
                continue
            if tag == "figcaption":
                found.captions.append(e)
                continue
            found.figure = True
        elif tag in _UNSEEN_TAGS:
            continue
        else:
            away = away or tag == "a" and _away(e.attrs.get("href", ""))
        children = e.children
        for k in range(len(children) - 1, -1, -1):
            stack.append(children[k])
            aways.append(away)
    if found is not None and not found.images:
        return ([], None) if found.captions else (out, None)
    return out, found
