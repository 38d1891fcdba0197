# cython: language_level=3, boundscheck=False, wraparound=False
"""clean_html (victor/output/render.py) compiled: the same walk over the
kept tree, with where a node stands held as a C integer and two stacks
(nodes, and their places; a closing tag's place is -1) where the pure
walk pushes pairs. A text is looked at character by character for what
escaping would change, and only such a text goes through html.escape and
render._escape; the rest (formulas, footnotes, numbered runs, attributes)
is the pure module's own functions. The pure function is the reference;
tests/test_compiled.py holds the two to the same HTML."""

from html import escape

from victor.output.render import (
    _BOLD, _CAPTION, _HEADING, _INSIDE, _ITALIC, _ITEM, _LITERAL, _PRE, _SPACES, _SYNTAX, _TABLE,
    _TAG, _UNWRAPPED, _VOID, FLATTENED_IN_ITEM, TERM, _attributes, _definition_opening, _escape,
    _formula, _note_mark, _note_opening, _notes_only, _numbered_runs, _picture)
from victor.output.tree import Rendering
from victor.reading.layout import BLOCK_LEVEL
from victor.reading.parser import FORMULA

cdef frozenset _BLOCK = BLOCK_LEVEL
cdef frozenset _FLAT = FLATTENED_IN_ITEM
cdef frozenset _UNWRAP = _UNWRAPPED
cdef frozenset _VOIDS = _VOID
cdef frozenset _TABLES = _TABLE
cdef frozenset _ITALICS = _ITALIC
cdef frozenset _BOLDS = _BOLD
cdef dict _PLACES = _INSIDE
cdef str _FORMULA = FORMULA
cdef long PRE = _PRE, ITEM = _ITEM, LITERAL = _LITERAL, CAPTION = _CAPTION, HEADING = _HEADING


# _may_be_syntax looks for the characters at which render._SYNTAX's
# matches start: a text with none of them is one _escape returns as it
# is, and needs no call. Checked against the pattern at import, as a
# change to it must change the look too.
if _SYNTAX.pattern != r"[`\[|*_~]|<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)":
    raise ImportError("render._SYNTAX changed: _render.pyx's _may_be_syntax must follow it")


cdef inline bint _needs_escape(str text):
    """Whether html.escape(text, quote=False) changes the text (it replaces
    these three characters and no other)."""
    cdef Py_UCS4 ch
    for ch in text:
        if ch == u"&" or ch == u"<" or ch == u">":
            return True
    return False


cdef inline bint _may_be_syntax(str text):
    """Whether text holds a character a match of render._SYNTAX starts at."""
    cdef Py_UCS4 ch
    for ch in text:
        if (ch == u"`" or ch == u"[" or ch == u"|" or ch == u"*" or ch == u"_" or ch == u"~"
                or ch == u"<" or ch == u"&"):
            return True
    return False


cdef inline str _escaped(str text):
    return escape(text, quote=False) if _needs_escape(text) else text


def clean_html(tree, options=Rendering(), bint for_markdown=False):
    cdef list out = []
    cdef bint line_start = True
    cdef list nodes = [tree]
    cdef list places = [0]
    cdef dict tag_ok = {}
    cdef bint images = options.images, tables = options.tables, links = options.links
    cdef long where, pre
    cdef str text, tag, attrs
    cdef list children
    cdef bint unwrap
    while nodes:
        item = nodes.pop()
        where = places.pop()
        if where < 0:  # a closing tag, or text the walk writes as it is
            text = <str> item
            if text[:2] == "</" and out and out[len(out) - 1] == "<br>":
                if text[2:-1] in _BLOCK:
                    out.pop()  # a break at the end of a box
                else:  # after the inline element's end, where a box may end too
                    out[len(out) - 1] = text
                    out.append("<br>")
                    continue
            out.append(text)
            line_start = line_start or text[2:-1] in _BLOCK
            continue
        pre = where & PRE
        if isinstance(item, str):
            text = <str> item
            if not pre:
                if not text.isprintable() or "  " in text:
                    text = _SPACES.sub(" ", text)
                if line_start:
                    text = text.lstrip(" ")
                if not text:
                    continue
            if for_markdown and not where & LITERAL and _may_be_syntax(text):
                text = _escape(text, where)
            out.append(_escaped(text))
            line_start = False
            continue
        el = item
        tag = el.tag
        if tag == _FORMULA:
            out.append(_formula(el, for_markdown))
            line_start = bool(el.attrs.get("display"))
            continue
        if tag == "br":
            if pre:
                out.append("\n")
            elif not line_start:
                out.append("<br>")
                line_start = True
            continue
        children = el.children
        if "note" in el.attrs:  # a footnote's mark or note (structures.settle)
            if tag == "sup":
                out.append(_note_mark(el, where, for_markdown))
                line_start = False
                continue
            if for_markdown:  # a list item: `[^1]: ...`, its boxes on its line
                out.append(_note_opening(el))
                nodes.append("</p>")
                places.append(-1)
                line_start = False
                _push(nodes, places, children, where | ITEM)
                continue
        if for_markdown and (tag == "ol" or tag == "ul") and children and _notes_only(children):
            _push(nodes, places, children, where)  # a list of notes
            continue
        if for_markdown and tag == "ol":
            parts = _numbered_runs(el)
            if parts:
                _push(nodes, places, parts, where)
                continue
        if for_markdown and not where & ITEM and (tag == "dl" or tag == "dt" or tag == "dd"):
            if tag != "dl":
                out.append(_definition_opening(tag))
                if tag == "dt":
                    nodes.append("</p>")
                    nodes.append(TERM)
                    places.append(-1)
                    places.append(-1)
                else:
                    nodes.append("</p>")
                    places.append(-1)
                line_start = tag == "dt"
                where |= ITEM
            _push(nodes, places, children, where)
            continue
        if tag == "img":
            picture = _picture(el, images, where, for_markdown)
            if picture:
                out.append(picture)
                line_start = False
            continue
        if not tables and tag in _TABLES:
            if tag == "td" or tag == "th":
                nodes.append(" ")
                places.append(-1)
            tag = "div" if tag == "table" or tag == "tr" or tag == "caption" else "span"
        ok = tag_ok.get(tag)
        if ok is None:
            ok = tag_ok[tag] = _TAG.match(tag) is not None
        unwrap = (tag in _UNWRAP or not ok or tag in _VOIDS
                  or tag == "a" and (not links or "href" not in el.attrs)
                  or for_markdown and (where & CAPTION and tag in _ITALICS
                                       or where & HEADING and tag in _BOLDS))
        if for_markdown and where & ITEM and tag in _FLAT:
            out.append(" ")
            nodes.append(" ")
            places.append(-1)
            unwrap = True
        if not unwrap:
            attrs = _attributes(el.attrs) if el.attrs and tag == el.tag else ""
            if tag in _BLOCK:
                if out and out[len(out) - 1] == "<br>":
                    out.pop()  # a break before a box
                out.append(f"\n<{tag}{attrs}>")
                line_start = True
            else:
                out.append(f"<{tag}{attrs}>")
            nodes.append(f"</{tag}>")
            places.append(-1)
            where |= _PLACES.get(tag, 0)
        if tag == "li":
            where |= ITEM
        elif tag == "ul" or tag == "ol":
            where &= ~ITEM
        _push(nodes, places, children, where)
    return "".join(out)


cdef inline void _push(list nodes, list places, list children, long where):
    """The children on the stacks, the first on top, each at `where`."""
    cdef Py_ssize_t k
    for k in range(len(children) - 1, -1, -1):
        nodes.append(children[k])
        places.append(where)
