"""page-type (extra): what kind of page the page declares itself to be, in
its og:type and its JSON-LD @type (victor.metadata). What counts as
content differs by kind: a product page's specifications, a forum's short
replies and a listing's linked titles all look like boilerplate on a news
page. The same vocabulary (schema.org, Open Graph) is used on sites in
every language, so the feature means the same on sites never seen.

- page-type: one of forum, product, listing, docs, article, faq, page
  (a plain web page or site) or none (nothing declared), for every block of
  the page; where a page declares several kinds, the first of that order
  wins (a forum thread often calls itself an article as well, a product
  page a website).
"""

from __future__ import annotations

from victor.features.context import CATEGORY, Context

FEATURES = {"page-type": CATEGORY}
EXTRA = "page-type"

# Declared kind (og: for og:type, else a schema.org type) -> page type.
_KINDS = {
    "forum": ("DiscussionForumPosting", "QAPage", "Question", "SocialMediaPosting",
              "Comment", "og:forum"),
    "product": ("Product", "ProductGroup", "IndividualProduct", "ProductModel", "Offer",
                "AggregateOffer", "og:product", "og:product.item"),
    # A shop's category page: og:product.group on 12 of WCXB's 87 collections.
    "listing": ("CollectionPage", "ItemList", "SearchResultsPage", "OfferCatalog",
                "og:product.group"),
    "docs": ("TechArticle", "APIReference", "SoftwareSourceCode", "HowTo", "og:book"),
    "article": ("Article", "NewsArticle", "BlogPosting", "Blog", "ReportageNewsArticle",
                "AnalysisNewsArticle", "OpinionNewsArticle", "ScholarlyArticle", "Report",
                "LiveBlogPosting", "Recipe", "og:article", "og:blog"),
    # Many articles carry an FAQ block, and service pages one or none.
    "faq": ("FAQPage", "AboutPage", "ContactPage", "Service", "ProfilePage"),
    "page": ("WebPage", "og:website", "og:webpage"),
}
_ORDER = tuple(_KINDS)
# A kind listed under two types goes to the first of them in _ORDER.
_TYPE_OF = {kind: name for name in reversed(_ORDER) for kind in _KINDS[name]}


def page_type(kinds: list[str]) -> str:
    """The page type that the declared `kinds` name first in _ORDER."""
    found = {_TYPE_OF[k] for k in kinds if k in _TYPE_OF}
    return next((t for t in _ORDER if t in found), "none")


def compute(ctx: Context) -> dict[str, list]:
    kind = page_type(ctx.page.meta.kinds) if ctx.page.meta else "none"
    return {"page-type": [kind] * len(ctx.blocks)}
