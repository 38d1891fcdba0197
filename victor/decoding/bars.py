"""The second pass's bars: the labels decided again on the trees'
probabilities (`decided_again`), with a bar of the page's own where the
config names a lowest one (`page_bar`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from victor.decoding.calibration import content_probabilities
from victor.decoding.widening import content_label
from victor.labels import OTHER

if TYPE_CHECKING:
    from victor.config.second_pass import SecondPassSettings

def decided_again(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
                  q: Sequence[float], texts: Sequence[str], settings: "SecondPassSettings",
                  favor: str | None = None,
                  page_type: Mapping[str, float] | None = None) -> list[str]:
    """The labels decided again on the second pass's probabilities `q` by
    the config's bars (`--favor`'s where the config gives one for
    `favor`; the article bars where the page's probability of being an
    article (`page_type`'s) reaches theirs)."""
    return relabel(labels, marginals, q, *bars(settings, favor, q, texts, page_type),
                   stays=settings.first_pass_stays)


def bars(settings: "SecondPassSettings", favor: str | None, q: Sequence[float],
         texts: Sequence[str],
         page_type: Mapping[str, float] | None = None) -> tuple[float, float]:
    """(keep, add) for a page: `--favor`'s bar where the config gives one,
    else the config's bars, each lowered to the page's own bar (page_bar)
    where the config names a `lowest_page_bar`. A page whose probability
    of being an article (from `page_type`, the page-type classifier's; None
    where the model has none) is at least the article bars' `above` takes those
    bars instead: the article config's on the pages that are articles,
    which one bar for every page could not give both articles and listings
    (docs/notes/second-pass.md, "Page types")."""
    bar = settings.favor.get(favor) if favor is not None else None
    if bar is not None:
        return bar, bar
    keep, add, lowest = settings.keep, settings.add, settings.lowest_page_bar
    chosen = settings.article_bars
    if chosen is not None and page_type is not None and page_type["article"] >= chosen.above:
        keep, add, lowest = chosen.keep, chosen.add, chosen.lowest_page_bar
    if lowest is None:
        return keep, add
    words = np.fromiter(map(len, map(str.split, texts)), dtype=np.float64, count=len(texts))
    own = page_bar(np.asarray(q, dtype=np.float64), words, lowest, keep)
    return min(own, keep), min(own, add)


def page_bar(q: np.ndarray, words: np.ndarray, low: float, high: float) -> float:
    """The bar that keeps the set of blocks of the highest expected word F1
    on this page, taking the trees' probabilities `q` at their word: kept
    the k most likely blocks, F1 is about 2 * sum(q * words over those k)
    over (their words + sum(q * words over the page)). One bar for every
    page is too high where the content is small among many middling
    blocks (a product's few lines, a listing's short entries); WCXB's
    score is a mean over pages, and a page's own bar gained on held-out
    sites (docs/notes/second-pass.md, "A bar for
    each page").

    Held between `low` and `high`: a bar raised above the config's own
    dropped headlines, which word F1 barely sees. Blocks under `low`
    count for nothing in the page's expected content: that is where the
    trees' early stopping leaves boilerplate, at a probability that is a
    margin, not a frequency, and counted it lowered the bar on pages of
    much boilerplate (Dragnet's articles kept their comments). A page the
    trees expect no content on gets `high`."""
    counted = np.where(q >= low, q, 0.0)
    expected = float(np.dot(counted, words))
    if expected <= 0:
        return high
    order = np.argsort(-q, kind="stable")
    f1 = 2 * np.cumsum(counted[order] * words[order]) / (np.cumsum(words[order]) + expected)
    return float(min(max(q[order][int(np.argmax(f1))], low), high))

def relabel(labels: Sequence[str], marginals: Sequence[Mapping[str, float]],
            q: Sequence[float], keep: float, add: float,
            stays: float | None = None) -> list[str]:
    """The labels decided again by two bars on the second pass's probability
    `q`: a block the first pass kept stays (with its label) while q is at
    least `keep`; a block it dropped comes back at `add` or more. Two bars,
    not one, because the research's nested scan chose them apart, the bar
    that brings a block back lower than the one that keeps it. A block
    that comes back takes its most probable content label from the CRF's
    marginals (`content_label`), as the blocks `keep_above` keeps do,
    where the research made it a paragraph: the text is the same, and a
    heading stays a heading.

    Bars that would keep no block of a page leave its labels as they were:
    decoding never empties a page with text (`fallback`), and
    the second pass must not either.

    A kept block whose CRF content probability is `stays` or more stays
    whatever q is. The trees learn from the other sites' first passes, and
    on a few long pages they dropped thousands of words the CRF was sure
    of, in some draws of the site folds and not in others
    (docs/notes/second-pass.md, "What the first pass is sure of")."""
    sure = (np.asarray(content_probabilities(marginals)) >= stays if stays is not None
            else np.zeros(len(labels), dtype=bool))
    out: list[str] = []
    for lab, m, x, kept in zip(labels, marginals, q, sure):
        if lab != OTHER:
            out.append(lab if x >= keep or kept else OTHER)
        elif x >= add:
            out.append(content_label(m, bool(out) and out[-1] != OTHER))
        else:
            out.append(OTHER)
    return out if any(lab != OTHER for lab in out) else list(labels)
