"""sentence.*: how sentence-like a block is (thesis 4.2). Headers and list
items seldom end with a full stop; a block that neither begins a sentence
nor follows a sentence end is likely a continuation.

Sentences are counted as victor.reading.text.sentences splits them. A block
begins a sentence unless its first letter or digit is a lower-case letter
(scripts without case begin sentences too), or it has none; it ends one
when its last token ends with . ! or ?, then only closing quotes or
brackets.
"""

from __future__ import annotations

from victor.features.context import BINARY, COUNT, Context

FEATURES = {
    "sentence.count": COUNT,
    "sentence.avg-length": COUNT,
    "sentence-begin": BINARY,
    "sentence-end": BINARY,
}


def compute(ctx: Context) -> dict[str, list]:
    text = ctx.text
    return {
        "sentence.count": ctx.sentences,
        "sentence.avg-length": text.words / ctx.sentences,
        "sentence-begin": ~text.begins_lower & (text.words > 0),
        "sentence-end": text.ends_sentence,
    }
