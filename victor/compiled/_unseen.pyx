# cython: language_level=3, boundscheck=False, wraparound=False
"""_rules (victor/reading/unseen.py) compiled: the style sheet's braces
found by a loop over its characters, where the pure generator takes a
match object a brace from the pattern. The same rules, in the same order,
as a list; the pure function is the reference, tests/test_compiled.py
holds the two to the same rules."""


def _rules(str sheet):
    cdef Py_ssize_t n = len(sheet), i, start = 0, depth = 0, at_rule = 0
    cdef Py_UCS4 ch
    cdef object selectors = None
    cdef str prelude
    cdef list out = []
    for i in range(n):
        ch = sheet[i]
        if ch == u"{":
            prelude = sheet[start:i].strip()
            depth += 1
            if prelude.startswith("@") and not at_rule:
                at_rule = depth
            selectors = prelude
        elif ch == u"}":
            if depth and selectors is not None:
                out.append((selectors, sheet[start:i], not at_rule))
            if depth == at_rule:
                at_rule = 0
            depth = depth - 1 if depth > 0 else 0
            selectors = None
        else:
            continue
        start = i + 1
    return out
