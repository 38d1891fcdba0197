"""The page's type (issue 49, docs/notes/second-pass.md, "Page types"): how
likely a page is an article rather than a forum, a product, a collection,
a listing, documentation or a service page (WCXB's seven types), from
signals of the whole page, so that the decision may give articles their
own bars (the second pass's article bars, victor.decoding.bars) and drop
what is no part of a page of its type (comments on an article, reviews on
a product: victor.decoding.without_sections).

A page being cleaned carries no type, so it is read from what the page
says it is (its address's words, og:type, the schema.org types it
declares: victor.reading.metadata) and from its shape (counts of its
elements, its words, links, prices, dates, its blocks' repeated paths).
The classifier is a LightGBM multiclass booster, a part of the model
(`page-type.lgbm`, victor/model/) that `victor learn` trains on the
pages whose NAME.json gives a `page_type` (victor/training/page_type.py).

    model = load(text, source)                 # once, with the model
    p = type_probabilities(model, page, paths, url)["article"]

LightGBM's library is loaded by `load` alone (victor/boosters.py).
"""

from victor.page_type.classifier import TYPES, PageTypeModel, load, type_probabilities
from victor.page_type.page_signals import SIGNALS, address, row, signals

__all__ = ["SIGNALS", "TYPES", "PageTypeModel", "address", "load", "row", "signals",
           "type_probabilities"]
