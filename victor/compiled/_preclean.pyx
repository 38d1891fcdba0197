# cython: language_level=3, boundscheck=False, wraparound=False
"""_walk (victor/reading/preclean.py) compiled: the same walk, each
element's children read by index (an unwrapped <text>'s in their place)
rather than by a stack of iterators. What a deleted element or a <pre>
line gives is the pure module's own functions. The pure function is the
reference; tests/test_compiled.py holds the two to the same trees."""

from victor.reading.metadata import ITEMTYPE, TAGS as METADATA_TAGS
from victor.reading.preclean import _all_text, _formula, _pre_lines

cdef frozenset _METADATA = METADATA_TAGS
cdef str _ITEMTYPE = ITEMTYPE


def _walk(body, frozenset tag_delete, list declared, list styles):
    cdef str url = "", title = "", tag, alt
    cdef list stack = [body]
    cdef list kept, children, outer
    cdef Py_ssize_t i, n
    cdef bint pre
    cdef dict attrs
    while stack:
        el = stack.pop()
        pre = el.tag == "pre"
        kept = []
        children = el.children
        i = 0
        n = len(children)
        outer = []  # (children, next index) of the runs an unwrapped <text> interrupts
        while True:
            if i >= n:
                if not outer:
                    break
                children, i = outer.pop()
                n = len(children)
                continue
            child = children[i]
            i += 1
            if isinstance(child, str):
                if pre and "\n" in <str>child:
                    kept.extend(_pre_lines(child))
                else:
                    kept.append(child)
                continue
            tag = child.tag
            attrs = child.attrs
            if tag in _METADATA or _ITEMTYPE in attrs:
                declared.append(child)
            if tag in tag_delete:
                if tag == "style":
                    styles.append(_all_text(child))
                formula = _formula(child)
                if formula is not None:
                    kept.append(formula)
                continue
            if tag == "text" and "id" in attrs:
                if not url:
                    url = attrs["id"].strip()
                    title = attrs.get("title", "").strip() or title
                outer.append((children, i))
                children = child.children
                i = 0
                n = len(children)
                continue
            if tag == "img":
                alt = " ".join(attrs.get("alt", "").split())
                if alt:
                    child.children.append(alt)
            stack.append(child)
            kept.append(child)
        el.children = kept
    return url, title
