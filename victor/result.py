"""What cleaning gives for a page (`Result`): its blocks and their labels,
and the page in every output format, rendered from the kept tree when
asked for (victor.cleaner makes it)."""

from __future__ import annotations

import reprlib
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from victor import crf, decoding, features, output
from victor.collector import paused
from victor.columns import Columns
from victor.decoding.calibration import content_probabilities
from victor.labels import CONTENT, LABELS
from victor.output import Rendering
from victor.output.language import identify
from victor.reading.page import Page
from victor.reading.parser import Element


_KNOWN = frozenset(LABELS)


@dataclass
class Result:
    """A cleaned page: its blocks and their labels, and the page in every
    output format (`render`)."""

    page: Page
    labels: list[str]
    columns: Columns = field(repr=False)
    scores: np.ndarray = field(repr=False)  # the CRF's score of each label, per block
    model: crf.Model = field(repr=False)
    fallback: bool = False  # the labels are the fallback's: the best path kept no block
    # The second pass's probability of each block being content, where the
    # config has one (victor.second_pass); None without.
    second: np.ndarray | None = field(default=None, repr=False)
    # The page-type classifier's probability of each type (victor.page_type.TYPES),
    # where the model has one and its bars read it; None without.
    page_type: dict[str, float] | None = field(default=None, repr=False)
    # The share of the text the decision would have kept that the page
    # does not show as text (page.unseen), which the labels then dropped.
    unseen_share: float = field(default=0.0, repr=False)
    # The blocks that stand in a readers' comment section (decoding.Layout's
    # sections), kept or dropped as the decision and `comments` said.
    comment_blocks: tuple[int, ...] = field(default=(), repr=False)

    @cached_property
    def features(self) -> list[dict[str, str]]:
        """One dict a block of the features the CRF saw."""
        return self.columns.dicts()

    @cached_property
    def marginals(self) -> list[dict[str, float]]:
        """Decoding reads them (victor.decoding), and so do the jsonl and
        html formats."""
        return self.model.marginals(self.scores)

    @cached_property
    def content(self) -> list[float]:
        """Probability that each block is content (any label but o), as
        the model's calibration has it (victor/decoding/calibration.py)."""
        return content_probabilities(self.marginals, self.model.temperature)

    @cached_property
    def confidence(self) -> float:
        """The page's expected word F1 under the model's own probabilities
        (victor.decoding.expected_f1): the second pass's where the config
        has one, else the calibrated CRF's. It ranks pages by how well they
        were cleaned (docs/output.md, "Confidence"), so that a pipeline can
        send the unsure ones elsewhere. A page whose decision kept text the
        page does not show (a widget's hidden state) was read badly, by as
        much as that text's share of the kept text."""
        return (1.0 - self.unseen_share) * decoding.expected_f1(
            self.labels, self.content if self.second is None else self.second, self.texts)

    def __setattr__(self, name: str, value: object) -> None:
        """Labels given anew (a caller's own decision) make the kept tree
        again, so that every output renders the labels the result holds."""
        if name == "labels":
            page = self.__dict__.get("page")
            if page is not None and len(value) != len(page.blocks):
                raise ValueError(f"{len(value)} labels for the page's {len(page.blocks)} blocks")
            if not _KNOWN.issuperset(value):
                raise ValueError(f"labels are {', '.join(LABELS)}, not "
                                 f"{', '.join(sorted(map(repr, set(value) - _KNOWN)))}")
            self.__dict__.pop("tree", None)
            self.__dict__.pop("confidence", None)
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        """One line of counts: the generated repr showed every block's
        part of the page's tree, hundreds of millions of characters for a big page,
        which hung a REPL or a notebook."""
        counts = Counter(self.labels)
        kept = " ".join(f"{label}={counts[label]}" for label in LABELS if counts[label])
        return (f"Result(source={reprlib.repr(self.page.source)}, {len(self.labels)} blocks, "
                f"{sum(counts[label] for label in CONTENT)} content, labels {kept}, "
                f"fallback={self.fallback})")

    def __getstate__(self) -> dict:
        """A result pickles, so that it can come back from a worker
        process; the model (megabytes, shared by every page) stays behind,
        and what the outputs read of it, each block's marginals and content
        probability, travels instead. An unpickled result's `model` is None."""
        self.marginals, self.content, self.confidence  # computed now, while the model is here
        state = {**self.__dict__, "model": None}
        state.pop("tree", None)  # made again from the page, whose tree pickles flat
        return state

    @property
    def texts(self) -> list[str]:
        return [b.text for b in self.page.blocks]

    @cached_property
    @paused
    def tree(self) -> Element:
        """The kept part of the page's tree (victor/output/tree.py), which
        the text, markdown, html and cleaneval formats are rendered from."""
        page = self.page
        return output.kept_tree(page.body or Element("body"), page.blocks, self.labels,
                                page.base_url)

    def cleaneval(self) -> str:
        return output.cleaneval(self.page.url, output.cleaneval_segments(self.tree))

    def text(self) -> str:
        return output.text(self.tree)

    def paragraphs(self) -> list[str]:
        """The text's paragraphs, each a string (`text()` has them a blank
        line apart), for pipelines that keep or drop paragraph by paragraph."""
        return output.paragraphs(self.tree)

    def markdown(self, options: Rendering | None = None, *, links: bool | None = None,
                 images: bool | None = None, tables: bool | None = None) -> str:
        """`links`, `images`, `tables` False leave them out, as in `extract`."""
        return output.markdown(self.tree, Rendering.of(options, links, images, tables))

    def html(self, options: Rendering | None = None, *, links: bool | None = None,
             images: bool | None = None, tables: bool | None = None) -> str:
        page = self.page
        return output.html_document(self.tree, page.title, page.meta.language,
                                    Rendering.of(options, links, images, tables))

    def blocks(self) -> str:
        """Every block on a line with its label (`--format blocks`)."""
        return output.listing(self.texts, self.labels)

    @cached_property
    def language(self) -> str:
        """The language of the cleaned text as identified (victor/output/language.py),
        beside the one the page declares (`page.meta.language`); "" where
        there is too little text to tell."""
        return identify(self.text())

    def jsonl(self) -> str:
        return output.jsonl_record(self.page, self.labels, self.content, self.text(),
                                   self.fallback, self.language, self.confidence, self.page_type,
                                   self.comment_blocks)

    def report(self) -> str:
        return output.report(self.page, self.labels, self.marginals)

    def table(self) -> str:
        return features.table(self.page, self.features)

    @paused
    def render(self, fmt: str, options: Rendering | None = None, *, links: bool | None = None,
               images: bool | None = None, tables: bool | None = None) -> str:
        """The output named by `victor clean --format` (output.FORMATS);
        `links`, `images`, `tables` False (or `options`) leave them out of
        markdown and html."""
        output.check_format(fmt)
        rendering = Rendering.of(options, links, images, tables)
        if fmt in ("markdown", "html"):
            return getattr(self, fmt)(rendering)
        return getattr(self, fmt)()
