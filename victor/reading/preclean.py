"""Stage 2: make the tree say what a reader sees, before it is split into blocks.

Elements that never render text (scripts, styles, objects: a config key
of victor/settings.py lists them) go; each line of `<pre>` becomes a block of its own, because
a block is labelled as a whole and preformatted text mixes content and
noise line by line (thesis 3.2); `<img alt>` text, which a reader sees
where the image fails, becomes the image's text; CleanEval's
`<text id=... title=...>` wrapper gives the page's address and title and
is then removed, so that it never looks like a container.

Formulas are the one thing deleted that the output still wants: a MathML
`<math>` and a MathJax `<script type="math/tex">` become an aside element
(`parser.ASIDE`) holding the formula's TeX, which the blocks stage passes
over as if it were gone, so that the CRF sees what it always saw.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from victor.compiled import twin
from victor.reading.metadata import ITEMTYPE, TAGS as METADATA_TAGS
from victor.reading.parser import FORMULA, Element, Node


@dataclass(slots=True)
class Precleaned:
    body: Element
    url: str
    title: str
    # The elements victor/reading/metadata.py reads, taken from this walk before
    # they are deleted: the head's in document order, then the body's.
    declared: list[Element]
    base: str = ""  # the head's <base href>, which relative links resolve against
    # The text of the page's own <style> elements, head and body, which say
    # what the page hides (victor/reading/unseen.py).
    styles: list[str] = field(default_factory=list)


def preclean(root: Element, tag_delete: frozenset[str]) -> Precleaned:
    """Returns the body of the page with the deletions and rewrites applied.

    The `<head>` is dropped as a whole: its text (the title) is metadata,
    not page content. The tree is changed in place.
    """
    title = base = ""
    declared: list[Element] = []
    styles: list[str] = []
    body = next((c for c in root.children if isinstance(c, Element) and c.tag == "body"), None)
    if body is None:
        body = Element("body", {}, [c for c in root.children
                                    if not (isinstance(c, Element) and c.tag == "head")])
    declared.extend(el for el in (root, body) if ITEMTYPE in el.attrs)
    for c in root.children:
        if isinstance(c, Element) and c.tag == "head":
            title = _text_of(c, "title")
            base = base or _base_of(c)
            styles.extend(_all_text(s) for s in _elements(c, "style"))
            _collect(c, declared)
    url, titled = _walk(body, tag_delete, declared, styles)
    return Precleaned(body, url, titled or title, declared, base, styles)


def _walk(body: Element, tag_delete: frozenset[str], declared: list[Element],
          styles: list[str]) -> tuple[str, str]:
    """The body's deletions and rewrites, in place, with its metadata
    elements and style sheets added to `declared` and `styles`; the address
    and title CleanEval's `<text>` wrapper gives, "" where it gives none."""
    url = title = ""
    stack = [body]
    while stack:
        el = stack.pop()
        pre = el.tag == "pre"
        kept: list[Node] = []
        # The element's children, with those of an unwrapped <text> in its place.
        runs = [iter(el.children)]
        while runs:
            for child in runs[-1]:
                if isinstance(child, str):
                    if pre and "\n" in child:
                        kept.extend(_pre_lines(child))
                    else:
                        kept.append(child)
                    continue
                tag = child.tag
                if tag in METADATA_TAGS or ITEMTYPE in child.attrs:
                    declared.append(child)
                if tag in tag_delete:
                    if tag == "style":
                        styles.append(_all_text(child))
                    formula = _formula(child)
                    if formula is not None:
                        kept.append(formula)
                    continue
                if tag == "text" and "id" in child.attrs:
                    if not url:
                        url = child.attrs["id"].strip()
                        title = child.attrs.get("title", "").strip() or title
                    runs.append(iter(child.children))
                    break
                if tag == "img":
                    alt = " ".join(child.attrs.get("alt", "").split())
                    if alt:
                        child.children.append(alt)
                stack.append(child)
                kept.append(child)
            else:
                runs.pop()
        el.children = kept
    return url, title


def _formula(el: Element) -> Element | None:
    """The aside a deleted formula leaves: its TeX where the page carries
    it (a MathML annotation of TeX, `alttext`, a MathJax script), else its
    text; `display` says whether it stands on a line of its own. None for
    what is no formula."""
    if el.tag == "math":
        tex = el.attrs.get("alttext", "").strip()
        if not tex:
            tex = next((_all_text(a).strip() for a in _elements(el, "annotation")
                        if "tex" in a.attrs.get("encoding", "").lower()), "")
        text = tex or " ".join(_all_text(el).split())
        display = el.attrs.get("display", "") == "block" or el.attrs.get("mode", "") == "display"
    elif el.tag == "script" and el.attrs.get("type", "").lower().startswith("math/tex"):
        text = tex = _all_text(el).strip()
        display = "mode=display" in el.attrs.get("type", "").replace(" ", "").lower()
    else:
        return None
    if not text:
        return None
    return Element(FORMULA, {"tex": tex, "text": text, "display": "block" if display else ""},
                   [el] if el.tag == "math" else [])


def _all_text(el: Element) -> str:
    out: list[str] = []
    stack: list[Node] = [el]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.append(node)
        else:
            stack.extend(reversed(node.children))
    return "".join(out)


def _elements(el: Element, tag: str) -> list[Element]:
    out = []
    stack = [el]
    while stack:
        e = stack.pop()
        if e.tag == tag:
            out.append(e)
        stack.extend(c for c in e.children if isinstance(c, Element))
    return out


def _base_of(head: Element) -> str:
    return next((b.attrs.get("href", "").strip() for b in _elements(head, "base")
                 if b.attrs.get("href", "").strip()), "")


def _pre_lines(text: str) -> list[Node]:
    lines = text.split("\n")
    out: list[Node] = [lines[0]]
    for line in lines[1:]:
        out.append(Element("br"))
        out.append(line)
    return out


def _collect(el: Element, into: list[Element]) -> None:
    """The metadata elements under `el` in document order."""
    stack = [el]
    while stack:
        e = stack.pop()
        if e.tag in METADATA_TAGS or ITEMTYPE in e.attrs:
            into.append(e)
        stack.extend(reversed([c for c in e.children if isinstance(c, Element)]))


def _text_of(el: Element, tag: str) -> str:
    stack = [el]
    while stack:
        e = stack.pop()
        if e.tag == tag:
            return " ".join("".join(c for c in e.children if isinstance(c, str)).split())
        stack.extend(c for c in e.children if isinstance(c, Element))
    return ""


# The walk compiled (victor/compiled/_preclean.pyx) where it was built; the
# function above stays the reference and the fallback.
_walk_py = _walk
_walk = twin(_walk_py, "_preclean")
