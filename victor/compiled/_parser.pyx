# cython: language_level=3, boundscheck=False, wraparound=False
"""_from_lexbor (victor/reading/parser.py) compiled: the same tree, read
from lexbor's nodes in C rather than through a Python object a node.

The lexbor it calls is selectolax's own: the functions lexbor exports for
use without its headers (the `_noi` ones, "no inline"), found by name in
selectolax's extension with ctypes, which spares building lexbor at
install. Each is called as selectolax calls it, so the page is parsed the
same and every name and text decoded the same. Where the library does not
export them (a Windows build exports nothing), the pure function runs. The
pure function is the reference; tests/test_compiled.py holds the two to
the same trees."""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport uintptr_t

from victor.reading.parser import Element, _from_lexbor_py, _node_name

ctypedef unsigned char lxb_char_t
ctypedef void *(*create_f)() noexcept nogil
ctypedef unsigned int (*parse_f)(void *, const lxb_char_t *, size_t) noexcept nogil
ctypedef void *(*node_f)(void *) noexcept nogil
ctypedef void (*option_f)(void *, unsigned int) noexcept nogil
ctypedef void (*flag_f)(void *, bint) noexcept nogil
ctypedef uintptr_t (*number_f)(void *) noexcept nogil
ctypedef int (*type_f)(void *) noexcept nogil
ctypedef const lxb_char_t *(*name_f)(void *, size_t *) noexcept nogil

# lexbor's node types (lxb_dom_node_type_t, the DOM's own numbers).
cdef enum:
    ELEMENT = 1
    TEXT = 3
# The most selectolax parses (its MAX_HTML_INPUT_SIZE): a longer page goes
# to the pure function, which raises selectolax's error.
cdef Py_ssize_t MOST_BYTES = 2500000000

cdef create_f document_create
cdef parse_f document_parse
cdef node_f document_destroy, document_root, first_child, next_sibling
cdef node_f first_attribute, next_attribute
cdef option_f dom_options
cdef flag_f scripting
cdef number_f tag_id
cdef type_f node_type
cdef name_f element_name, attribute_name, attribute_value, text_content

_NAMES = ("lxb_html_document_create", "lxb_html_document_parse", "lxb_html_document_destroy",
          "lxb_dom_document_root", "lxb_dom_node_first_child_noi", "lxb_dom_node_next_noi",
          "lxb_dom_element_first_attribute_noi", "lxb_dom_element_next_attribute_noi",
          "lxb_html_document_dom_opt_set_noi", "lxb_dom_document_scripting_set_noi",
          "lxb_dom_node_tag_id_noi", "lxb_dom_node_type_noi", "lxb_dom_element_qualified_name",
          "lxb_dom_attr_qualified_name", "lxb_dom_attr_value_noi", "lxb_dom_node_text_content")


def _addresses():
    """Each of _NAMES's functions' address in selectolax's lexbor, or
    None where the library is missing or does not export one."""
    import ctypes
    from importlib.util import find_spec

    try:
        spec = find_spec("selectolax.lexbor")
        library = ctypes.CDLL(spec.origin)
        return [ctypes.cast(getattr(library, name), ctypes.c_void_p).value for name in _NAMES]
    except (ImportError, AttributeError, OSError, TypeError):
        return None


cdef bint _bind():
    global document_create, document_parse, document_destroy, document_root, first_child
    global next_sibling, first_attribute, next_attribute, dom_options, scripting, tag_id
    global node_type, element_name, attribute_name, attribute_value, text_content
    found = _addresses()
    if found is None:
        return False
    cdef uintptr_t a[16]
    cdef Py_ssize_t i
    for i in range(16):
        a[i] = found[i]
    document_create = <create_f> a[0]
    document_parse = <parse_f> a[1]
    document_destroy = <node_f> a[2]
    document_root = <node_f> a[3]
    first_child = <node_f> a[4]
    next_sibling = <node_f> a[5]
    first_attribute = <node_f> a[6]
    next_attribute = <node_f> a[7]
    dom_options = <option_f> a[8]
    scripting = <flag_f> a[9]
    tag_id = <number_f> a[10]
    node_type = <type_f> a[11]
    element_name = <name_f> a[12]
    attribute_name = <name_f> a[13]
    attribute_value = <name_f> a[14]
    text_content = <name_f> a[15]
    return True


cdef bint BOUND = _bind()
# Whether the walk reads lexbor itself, for the tests to know.
READS_LEXBOR = BOUND


cdef object _new = Element.__new__


cdef inline object _element(str tag, dict attrs):
    """Element(tag, attrs, []) without running the dataclass's __init__, a
    Python frame an element: its three slots set from C."""
    el = _new(Element)
    el.tag = tag
    el.attrs = attrs
    el.children = []
    return el


cdef inline str _text(const lxb_char_t *data, size_t length):
    """As selectolax decodes: bytes lexbor let through undecoded become U+FFFD."""
    return PyUnicode_DecodeUTF8(<const char *> data, length, "replace")


cdef dict _attributes(void *element):
    """An element's attributes by their names as written, an attribute
    without a value given "" (the pure path's `_attributes`)."""
    cdef dict attrs = {}
    cdef size_t length = 0
    cdef const lxb_char_t *data
    cdef void *attr = first_attribute(element)
    while attr != NULL:
        data = attribute_name(attr, &length)
        key = _text(data, length)
        data = attribute_value(attr, &length)
        attrs[key] = _text(data, length) if data != NULL else ""
        attr = next_attribute(attr)
    return attrs


cdef str _name(void *node):
    """parser._node_name of what selectolax's `tag` gives the node: it
    names text, comments, the doctype and the document by their tag
    numbers, which only such nodes bear, an element by its qualified name,
    anything else None."""
    cdef size_t length = 0
    cdef const lxb_char_t *data
    cdef int kind = node_type(node)
    if kind == TEXT:
        return "-text"
    if kind != ELEMENT:
        return ""
    data = element_name(node, &length)
    return _node_name(_text(data, length) if data != NULL else None)


def _from_lexbor(str text, max_depth=None):
    if not BOUND:
        return _from_lexbor_py(text, max_depth)
    cdef bytes markup = text.encode("utf-8", "ignore")  # as selectolax encodes a str
    if len(markup) > MOST_BYTES:
        return _from_lexbor_py(text, max_depth)
    cdef void *document = document_create()
    if document == NULL:
        return _from_lexbor_py(text, max_depth)
    try:
        dom_options(document, 0)
        scripting(document, False)
        if document_parse(document, <const lxb_char_t *> markup, len(markup)) != 0:
            return _from_lexbor_py(text, max_depth)  # which raises selectolax's error
        return _walk(document, max_depth)
    finally:
        document_destroy(document)


cdef object _walk(void *document, object max_depth):
    cdef void *top = document_root(document)
    root = Element("html", _attributes(top) if top != NULL else {})
    if top == NULL:
        return root
    cdef Py_ssize_t limit = -1 if max_depth is None else max_depth
    if limit == 0:
        return None
    cdef dict names = {}
    # Each level below the current node: its sibling run to finish (the
    # node to go on from, and the list its siblings join).
    cdef list resume = []
    cdef list lists = []
    cdef list siblings = root.children
    cdef void *node = first_child(top)
    cdef void *child
    cdef uintptr_t number
    cdef size_t length = 0
    cdef const lxb_char_t *data
    while True:
        while node != NULL:
            number = tag_id(node)
            name = names.get(number)
            if name is None:
                name = names[number] = _name(node)
            if name == "-text":
                data = text_content(node, &length)
                siblings.append(_text(data, length) if data != NULL else None)
            elif name:
                el = _element(name, _attributes(node))
                siblings.append(el)
                child = first_child(node)
                if child != NULL:
                    resume.append(<uintptr_t> next_sibling(node))
                    lists.append(siblings)
                    if limit >= 0 and len(resume) + 1 > limit:
                        return None
                    siblings = el.children
                    node = child
                    continue
            node = next_sibling(node)
        if not resume:
            return root
        node = <void *> <uintptr_t> resume.pop()
        siblings = lists.pop()
