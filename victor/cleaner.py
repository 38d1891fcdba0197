"""The Python API: one object that holds a loaded config, template and model
and turns page bytes into labelled blocks, so a batch pays for loading once.

    from victor import Cleaner
    result = Cleaner("cleaneval").clean(html_bytes)
    print(result.text())
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from victor import crf, features, output, perplexity
from victor.config import Config, load_config
from victor.page import Page, read_page


# The floor under decoding (see `floor`): when the CRF labels no block of a
# page as content, the blocks whose content probability reaches FLOOR_SHARE
# of the page's highest are kept, and any block at FLOOR_CAP or above. On
# the 1,296 WCXB pages, which neither shipped model saw, every share from
# 1 down to 0 did better than no floor and 0 did best: keeping every
# block of such a page (mean bag-of-words F1 of all pages 0.663 against
# 0.587 at a share of 0.3, article config; 0.802 against 0.798,
# cleaneval). Site-grouped cross-validation may settle it otherwise.
FLOOR_SHARE = 0.0
FLOOR_CAP = 0.5


def floor(labels: list[str], marginals: list[dict[str, float]], share: float = FLOOR_SHARE,
          cap: float = FLOOR_CAP) -> list[str] | None:
    """Labels that keep the page's most probable content when the CRF keeps
    none of it; None when it keeps some, or the page has no block.

    On a page unlike its training pages a model hesitates: every block's
    content probability (1 - P(o)) stays under one half, so Viterbi labels
    them all o, though the page has text a reader came for (a Korean news
    page: 0.006 at most, on the article's own text). Measured against
    people's gold on held-out pages, keeping blocks beats keeping nothing,
    and keeping all of them beat keeping the most probable ones
    (docs/robustness.md, `python3 -m benchmarks.floor`). A kept block gets
    its most probable content label."""
    if not marginals or any(lab != "o" for lab in labels):
        return None
    content = [1.0 - m.get("o", 0.0) for m in marginals]
    bar = min(share * max(content), cap)
    return [max((k for k in m if k != "o"), key=m.__getitem__) if p >= bar else "o"
            for m, p in zip(marginals, content)]


@dataclass
class Result:
    page: Page
    labels: list[str]
    features: list[dict[str, str]]
    scores: np.ndarray = field(repr=False)  # the CRF's score of each label, per block
    model: crf.Model = field(repr=False)
    fallback: bool = False  # the labels are floor's: the CRF kept no block

    @cached_property
    def marginals(self) -> list[dict[str, float]]:
        """Worked out only when asked for: the text formats do without."""
        return self.model.marginals(self.scores)

    @property
    def content(self) -> list[float]:
        """Probability that each block is content (any label but o)."""
        return [1.0 - m.get("o", 0.0) for m in self.marginals]

    @property
    def texts(self) -> list[str]:
        return [b.text for b in self.page.blocks]

    def cleaneval(self) -> str:
        return output.cleaneval(self.page.url, self.texts, self.labels)

    def text(self) -> str:
        return output.plain_text(self.texts, self.labels)

    def victor(self) -> str:
        return output.listing(self.texts, self.labels)

    def jsonl(self) -> str:
        return output.jsonl_record(self.page, self.labels, self.content, self.fallback)

    def html(self) -> str:
        return output.html_report(self.page, self.labels, self.marginals)

    def table(self) -> str:
        return features.table(self.page, self.features)

    def render(self, fmt: str) -> str:
        """The output named by clean.py's --format."""
        return getattr(self, fmt)()


class Cleaner:
    """Loads what cleaning needs once; `clean` may then be called for many pages."""

    def __init__(self, config: str | Path | Config = "cleaneval", model: str | Path | None = None,
                 threshold: float | None = None):
        self.config = config if isinstance(config, Config) else load_config(config)
        self.selected = features.select_features(self.config)
        self.model = crf.load_model(model or self.config.model, expected_config=self.config.name)
        self.threshold = threshold
        self.lm = perplexity.for_config(self.config)

    def read(self, data: bytes, source: str = "-", url: str = "",
             encoding: str | None = None) -> Page:
        return read_page(data, self.config, source, encoding, url)

    def clean(self, data: bytes, source: str = "-", url: str = "",
              encoding: str | None = None) -> Result:
        """`url` and `encoding` come from outside the page (a crawl record);
        the page's own CleanEval wrapper, if any, wins for the URL."""
        return self.label(self.read(data, source, url, encoding))

    def label(self, page: Page) -> Result:
        dicts = features.compute(page, self.config, self.lm)
        scores = self.model.scores(dicts)
        result = Result(page, self.model.best_labels(scores), dicts, scores, self.model)
        floored = floor(result.labels, result.marginals) if "o" in result.labels else None
        if floored is not None:
            result.labels, result.fallback = floored, True
        # The user's own threshold comes last: it may empty a page on purpose.
        if self.threshold is not None:
            result.labels = [lab if lab == "o" or p >= self.threshold else "o"
                             for lab, p in zip(result.labels, result.content)]
        return result
