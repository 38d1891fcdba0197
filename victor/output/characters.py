"""The page's characters as a reader reads them: what the kept tree
(victor/output/tree.py) holds, and so every format rendered from it.

A browser shows no soft hyphen where it does not break the line, and no
zero-width character at all; left in, they split words for a search index
and a language model ("Ho\\u00adme"). Text a server encoded twice ("â€“"
for "–") is repaired by ftfy where ftfy can tell: it looks for sequences
that are likely only as mojibake, so that text that merely uses accents is
left alone. The CRF still sees the page as it was decoded (its features
and the annotations were made from it); only the output is repaired.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Never shown: soft hyphen, zero-width space, word joiner, zero-width
# no-break space (a byte-order mark inside a page), and the noncharacters
# (render.MARK is one: a page's own must not turn into backslashes).
_INVISIBLE = re.compile("[\u00ad\u200b\u2060\ufeff\ufdd0-\ufdef\ufffe\uffff]")
# The zero-width non-joiner and joiner are kept between two characters of
# scripts that need them (a Persian word's parts, an emoji family's
# members) and taken out beside ASCII, a space or an edge, where they only
# break a word.
_LOOSE_JOINER = re.compile(r"(?<![^\x00-\x7f\s])[\u200c\u200d]|[\u200c\u200d](?![^\x00-\x7f\s])")


def readable(text: str) -> str:
    """`text` without invisible characters inside its words, and with text
    encoded twice decoded once."""
    if text.isascii():
        return text
    if _mojibake().search(text):  # first: a joiner encoded twice is three letters
        from ftfy import fix_encoding

        text = fix_encoding(text)
    text = _INVISIBLE.sub("", text)
    if "\u200c" in text or "\u200d" in text:
        text = _LOOSE_JOINER.sub("", text)
    return text


@lru_cache(maxsize=1)
def _mojibake():
    """What any text encoded twice holds, and most text does not: a UTF-8
    lead byte read as a letter in one of the single-byte encodings ftfy
    undoes ("Ã", "â", "Ð"), then a continuation byte read so ("©", "€"), or
    a C1 control. Only text with such a pair is given to ftfy, whose own
    look is far slower. Leads that are
    punctuation or spaces (MacRoman's dashes and quotes, its no-break
    space) are left out: beside a no-break space they are everyday text."""
    from ftfy.chardata import CHARMAP_ENCODINGS

    leads, follows = set(), set()
    for encoding in CHARMAP_ENCODINGS:
        leads.update(bytes([b]).decode(encoding, "ignore") for b in range(0xC2, 0xF5))
        follows.update(bytes([b]).decode(encoding, "ignore") for b in range(0x80, 0xC0))
    leads = {c for c in leads if c.isalpha()}
    follows.discard("")
    lead, follow = ("".join(sorted(chars)) for chars in (leads, follows))
    return re.compile(f"[{re.escape(lead)}][{re.escape(follow)}]|[\u0080-\u009f]")
