"""perplexity: how surprising the block's text is to a language
model of running text; menus and boilerplate phrases score differently
from prose. The model object is passed in by the caller (anything with
`.block_perplexity(text) -> float`); this module never loads one, so a
config that does not select it never pays for a model."""

from __future__ import annotations

from victor.errors import VictorError
from victor.features.context import COUNT, Context
from victor.settings import key_of

FEATURES = {"perplexity": COUNT}


def compute(ctx: Context) -> dict[str, list]:
    if ctx.lm is None:
        raise VictorError(f"{ctx.config.path}: the perplexity feature is selected, but no "
                          f"language model was given: set {key_of('perplexity_model')} or leave "
                          "the feature out")
    score = ctx.lm.block_perplexity
    return {"perplexity": [score(t) for t in ctx.texts]}
