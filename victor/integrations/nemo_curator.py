"""Victor as NeMo Curator's HTML extractor algorithm, in the place of
jusText, Resiliparse or Trafilatura in its Common Crawl stage:

    from nemo_curator.stages.text.download.common_crawl.extract import CommonCrawlHTMLExtractor
    from victor.integrations.nemo_curator import Victor

    extractor = CommonCrawlHTMLExtractor(algorithm=Victor(config="general"))

NeMo Curator accepts only subclasses of its HTMLExtractorAlgorithm, so
Victor is one where NeMo Curator is installed (`pip install '.[nemo]'`);
without it, it is a plain class with the same `extract_text`, which any
pipeline that judges pages paragraph by paragraph may call. NeMo Curator
joins the paragraphs with blank lines, which gives Victor's text format.
Like the datatrove extractor, it pickles as its options and each worker
process builds its own Cleaner on first use (victor/integrations/__init__.py).
"""

from __future__ import annotations

from pathlib import Path

from victor.integrations.process_cleaner import clean, options

try:
    from nemo_curator.stages.text.download.html_extractors import (
        HTMLExtractorAlgorithm as _Algorithm,
    )
except ImportError:
    _Algorithm = object


class Victor(_Algorithm):
    """The page's paragraphs as Victor keeps them (Result.paragraphs), with
    `extract()`'s options of what to keep; `config` None with a `model`
    takes the model's own settings."""

    def __init__(self, config: str | Path | None = None, *, model: str | Path | None = None,
                 favor: str | None = None, threshold: float | None = None):
        self.options = options(config, model, favor, threshold)

    def extract_text(self, html: str, stop_words: frozenset[str],
                     language: str) -> list[str] | None:
        """None for a page Victor keeps nothing of (NeMo Curator then
        leaves the record out). `stop_words` and `language` (NeMo Curator's
        guess, "ENGLISH") are not used: they serve the stop-word density
        that jusText and Resiliparse judge paragraphs by, while Victor's
        CRF and trees judge each block from the page's layout and words in
        any language."""
        result = clean(self.options, html)
        return (result.paragraphs() or None) if result else None
