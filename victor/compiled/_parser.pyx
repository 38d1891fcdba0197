# cython: language_level=3, boundscheck=False, wraparound=False
"""_from_lexbor (victor/reading/parser.py) compiled: the same walk over
lexbor's nodes (through selectolax), the loop and the stack in C. The pure
function is the reference; tests/test_compiled.py holds the two to the same
trees."""

from victor.reading.parser import Element, _attributes


def _from_lexbor(str text, max_depth=None):
    from selectolax.lexbor import LexborHTMLParser

    top = LexborHTMLParser(text).root
    root = Element("html", _attributes(top) if top is not None else {})
    if top is None:
        return root
    cdef Py_ssize_t limit = -1 if max_depth is None else max_depth
    cdef dict names = {}
    cdef list stack = [(top.child, root.children)]
    cdef list siblings
    cdef object node, child, number, name, tag, attrs, el
    while stack:
        if limit >= 0 and len(stack) > limit:
            return None
        node, siblings = stack.pop()
        while node is not None:
            number = node.tag_id
            name = names.get(number)
            if name is None:
                tag = node.tag
                name = names[number] = (
                    tag if tag == "-text"
                    else tag.lower() if tag and tag[0] != "-" and tag != "!doctype" else "")
            if name == "-text":
                siblings.append(node.text_content)
            elif name:
                attrs = node.attributes  # a fresh dict, ours to keep
                if attrs and None in (<dict> attrs).values():
                    attrs = {k: v or "" for k, v in (<dict> attrs).items()}
                el = Element(name, attrs, [])
                siblings.append(el)
                child = node.child
                if child is not None:
                    stack.append((node.next, siblings))
                    stack.append((child, el.children))
                    break
            node = node.next
    return root
