"""The filter of Fernández-Pichel et al.: drop the sentences a model of
well-formed text finds unlikely (research/perplexity.py calibrates its
limit)."""

from __future__ import annotations

from dataclasses import dataclass

from victor.perplexity.model import PerplexityModel
from victor.reading.text import sentences

# Calibrated for DEFAULT_MODEL only (docs/notes/perplexity.md): the paper's 8,000
# belongs to its BNC model, and a perplexity limit means nothing across models.
DEFAULT_LIMIT = 3700.0


@dataclass(frozen=True)
class PerplexityFilter:
    """The paper's cleaner: keep a sentence only if the model finds it no
    more perplexing than `limit`."""

    model: PerplexityModel
    limit: float

    def process(self, text: str) -> str:
        """Each line is a paragraph and keeps its kept sentences joined by a
        space; a line that loses every sentence disappears, so the output
        still reads as the page's paragraphs."""
        out = []
        for line in text.splitlines():
            kept = [s for s in sentences(line) if self.model.score(s) <= self.limit]
            if kept:
                out.append(" ".join(kept))
        return "\n".join(out)
