"""bullet: the kind of list marker a block starts with (thesis 4.2). Each
numbering style with each delimiter is a value of its own ("num-dot" for
"1.", "alpha-paren" for "a)", "ROMAN-enclosed" for "(IV)"), so the items
of one list show as consecutive blocks with the same value. "0": none.

A number or letter needs a delimiter and a space (or the end of the block)
after it, so that "2 cats" or "I think" are no list items; numbers have at
most three digits, so that "2007." is no item either.
"""

from __future__ import annotations

import re

from victor.features.context import CATEGORY, Context

FEATURES = {"bullet": CATEGORY}

_MARK = re.compile(
    r"""(?:
      (?P<open>[(\[])?
      (?:(?P<num>\d{1,3})
        |(?P<roman>(?=[ivx]{2})x{0,3}(?:ix|iv|v?i{0,3}))
        |(?P<ROMAN>(?=[IVX]{2})X{0,3}(?:IX|IV|V?I{0,3}))
        |(?P<alpha>[a-z])
        |(?P<ALPHA>[A-Z]))
      (?(open)[)\]]|\s?(?P<delim>[.):\]]|[-–—]))
    |(?P<char>[•·◦∙●○▪▫■□►▸▹‣»›→>*+\-–—⁃])
    )(?=\s|$)""",
    re.X,
)
_DELIMS = {".": "dot", ")": "paren", "]": "bracket", ":": "colon", "-": "dash", "–": "dash",
           "—": "dash"}
_CHARS = {**dict.fromkeys("•·◦∙●○", "round"), **dict.fromkeys("▪▫■□", "square"),
          **dict.fromkeys("►▸▹‣»›→>", "arrow"), **dict.fromkeys("-–—⁃", "dash"),
          "*": "star", "+": "plus"}


def marker(text: str) -> str:
    """The value of a block's text."""
    # Most blocks begin with a word; a marker has no second letter unless
    # it is a roman numeral or bracketed.
    if len(text) > 1 and text[1].isalpha() and text[0] not in "([" and text[:2].strip("ivxIVX"):
        return "0"
    m = _MARK.match(text)
    if m is None:
        return "0"
    if m["char"]:
        return "bullet-" + _CHARS[m["char"]]
    style = next(s for s in ("num", "roman", "ROMAN", "alpha", "ALPHA") if m[s])
    return f"{style}-{'enclosed' if m['open'] else _DELIMS[m['delim']]}"


def compute(ctx: Context) -> dict[str, list]:
    values = {t: marker(t) for t in set(ctx.texts)}
    return {"bullet": list(map(values.__getitem__, ctx.texts))}
