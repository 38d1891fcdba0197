"""perplexity (extra): how surprising the block's text is to a language
model of running text; menus and boilerplate phrases score differently
from prose. The model object is passed in by the caller (anything with
`.block_perplexity(text) -> float`); this module never loads one, so a
config with the extra off never pays for a model."""

from __future__ import annotations

from victor.errors import VictorError
from victor.features.context import COUNT, Context

FEATURES = {"perplexity": COUNT}
EXTRA = "perplexity"


def compute(ctx: Context) -> dict[str, list]:
    if ctx.lm is None:
        raise VictorError(f"{ctx.config.path}: key 'extras.perplexity' is on, but no language "
                          "model was given: set perplexity-model or turn the extra off")
    score = ctx.lm.block_perplexity
    return {"perplexity": [score(t) for t in ctx.texts]}
