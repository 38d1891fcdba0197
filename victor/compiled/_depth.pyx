# cython: language_level=3, boundscheck=False, wraparound=False
"""cuts (victor/reading/depth.py) compiled: the same count of nesting,
with the tags found by a scan in C rather than by TOKEN.findall, which
makes a string of every tag's attributes and a tuple of every token.

The scan reads at each "<" what TOKEN would match there. Where that
takes more than ASCII (a name with other letters, which the regex's
case-blind classes may take for ASCII ones) or a raw-text element (whose
end the regex finds by a back-reference), TOKEN itself is asked at that
place, so the tokens are TOKEN's. The pure function is the reference;
tests/test_compiled.py holds the two to the same edits.

_maybe_swallowing (victor/reading/swallowed.py) compiled too: the same
quick look for a raw-text element left open, with each "<" found by
PyUnicode_FindChar (memchr on most pages) and the names compared in C,
where the pure function tries its case-blind pattern at every "<"."""

from cpython.unicode cimport (PyUnicode_DATA, PyUnicode_FindChar, PyUnicode_KIND, PyUnicode_READ,
                              Py_UNICODE_ISSPACE)

from victor.reading.depth import _FLAT, MAX_DEPTH, NAME_ENDS, RAW_TEXT, TOKEN

ctypedef unsigned long long code_t

# A name of at most 8 ASCII characters, lower-cased, as one number (a byte a
# character): the names _FLAT and RAW_TEXT hold are all that short, so a
# tag's name is looked up without making its string.
cdef enum:
    LONGEST = 8
cdef code_t FLAT_CODES[64]
cdef code_t RAW_CODES[16]


cdef code_t _code_of(str name):
    cdef code_t v = 0
    for c in name:
        v = (v << 8) | <code_t> ord(c)
    return v


cdef Py_ssize_t _fill(code_t *codes, Py_ssize_t room, names) except -1:
    """`names`' codes into `codes`; a name that does not fit is an error
    here, at import, not a wrong answer later."""
    cdef Py_ssize_t count = 0
    for name in names:
        if count == room or len(name) > LONGEST or not name.isascii():
            raise ValueError(f"victor.compiled._depth holds {room} names of {LONGEST} ASCII "
                             f"letters at most, not {name!r}")
        codes[count] = _code_of(name)
        count += 1
    return count


cdef Py_ssize_t FLATS = _fill(FLAT_CODES, 64, sorted(_FLAT))
cdef Py_ssize_t RAWS = _fill(RAW_CODES, 16, RAW_TEXT.split("|"))


cdef inline bint _among(code_t v, code_t *codes, Py_ssize_t count):
    cdef Py_ssize_t k
    for k in range(count):
        if codes[k] == v:
            return True
    return False


cdef inline bint _ends_name(Py_UCS4 c):
    return c == u"/" or c == u">" or Py_UNICODE_ISSPACE(c)


def cuts(str text, Py_ssize_t max_depth=MAX_DEPTH):
    cdef Py_ssize_t n = len(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef list stack = []  # open elements: name, cut off
    cdef dict open_count = {}
    cdef dict edits = {}
    cdef Py_ssize_t i = -1  # the number of the last token
    cdef Py_ssize_t p = 0, q, r, end
    # No ">" at or after this place: a tag cannot end there, and looking
    # again from each later "<" would make the scan quadratic.
    cdef Py_ssize_t no_close_from = n
    cdef Py_UCS4 c
    cdef code_t code
    cdef bint close, ascii, self_closing, cut, short
    cdef dict names = {}  # each short name's string by its code
    cdef object name, top, m
    while p < n:
        if PyUnicode_READ(kind, data, p) != u"<":
            p += 1
            continue
        # A comment: to the first "-->" after its opening, or the page's end.
        if (p + 3 < n and PyUnicode_READ(kind, data, p + 1) == u"!"
                and PyUnicode_READ(kind, data, p + 2) == u"-"
                and PyUnicode_READ(kind, data, p + 3) == u"-"):
            i += 1
            end = text.find("-->", p + 4)
            p = n if end < 0 else end + 3
            continue
        close = p + 1 < n and PyUnicode_READ(kind, data, p + 1) == u"/"
        q = p + 2 if close else p + 1
        if q >= n:
            break
        c = PyUnicode_READ(kind, data, q)
        ascii = c < 128
        if ascii and not (u"a" <= c <= u"z" or u"A" <= c <= u"Z"):
            p += 1  # no tag: "<" then a digit, a space, "!" or "?"
            continue
        r = q
        code = 0
        while r < n:
            c = PyUnicode_READ(kind, data, r)
            if _ends_name(c):
                break
            if c >= 128:
                ascii = False
            elif r - q < LONGEST:
                code = (code << 8) | (<code_t> c + 32 if u"A" <= c <= u"Z" else <code_t> c)
            r += 1
        short = r - q <= LONGEST
        if ascii and not (not close and r < n and short and _among(code, RAW_CODES, RAWS)):
            if r >= no_close_from:
                p += 1
                continue
            end = text.find(">", r)
            if end < 0:
                no_close_from = r
                p += 1
                continue
            i += 1
            self_closing = end > r and PyUnicode_READ(kind, data, end - 1) == u"/"
            p = end + 1
            if short:
                if _among(code, FLAT_CODES, FLATS):
                    continue
                name = names.get(code)
                if name is None:
                    name = names[code] = text[q:r].lower()
            else:
                name = text[q:r].lower()
        else:  # TOKEN's own answer here
            m = TOKEN.match(text, p)
            if m is None:
                p += 1
                continue
            i += 1
            p = m.end()
            name = m.group("name")
            if not name:  # raw text
                continue
            close = bool(m.group("close"))
            self_closing = m.group("attrs").endswith("/")
            name = name.lower()
            if name in _FLAT:
                continue
        if close:  # a closing tag closes everything opened since its element
            if open_count.get(name):
                while True:
                    top, cut = stack.pop()
                    open_count[top] -= 1
                    if top == name:
                        break
                if cut:
                    edits[i] = ""
            continue
        if self_closing:  # foreign content: svg, math
            continue
        cut = len(stack) >= max_depth
        stack.append((name, cut))
        open_count[name] = open_count.get(name, 0) + 1
        if cut:
            edits[i] = f"</{name}>"
    return edits


cdef list RAW_NAMES = [name.encode("ascii") for name in RAW_TEXT.split("|")]
if len(RAW_NAMES) > 16:  # at import, not a wrong answer later
    raise ValueError("victor.compiled._depth holds 16 raw-text names at most")
cdef str ENDS = "".join(sorted(NAME_ENDS))


cdef inline bint _named(int kind, void *data, Py_ssize_t q, Py_ssize_t n, bytes name):
    """Whether the text at q starts with `name`, ASCII letters case-blind.
    A letter outside ASCII that the pure pattern's case-blind match takes
    for an ASCII one (the long s for "s") makes a name the pure function
    lower-cases to no raw-text name, so it counts for none there too."""
    cdef Py_ssize_t k, size = len(name)
    cdef const unsigned char *want = name
    cdef unsigned int c
    if q + size > n:
        return False
    for k in range(size):
        c = <unsigned int> PyUnicode_READ(kind, data, q + k)
        if 65 <= c <= 90:  # A to Z
            c += 32
        if c != want[k]:
            return False
    return True


def _maybe_swallowing(str text):
    if text.rfind("<!--") > text.rfind("-->"):
        return True
    cdef Py_ssize_t n = len(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef Py_ssize_t count = len(RAW_NAMES), k, p = 0, q, end
    cdef Py_ssize_t opened[16]
    cdef Py_ssize_t closed[16]
    cdef bint closing
    for k in range(count):
        opened[k] = -1
        closed[k] = -1
    while True:
        p = PyUnicode_FindChar(text, u"<", p, n, 1)
        if p < 0:
            break
        closing = p + 1 < n and PyUnicode_READ(kind, data, p + 1) == u"/"
        q = p + 2 if closing else p + 1
        for k in range(count):
            if _named(kind, data, q, n, RAW_NAMES[k]):
                if closing:
                    end = q + len(RAW_NAMES[k])
                    if end < n and PyUnicode_READ(kind, data, end) in ENDS:
                        closed[k] = p
                else:
                    opened[k] = p
                break
        p += 1
    for k in range(count):
        if opened[k] > closed[k]:
            return True
    return False
