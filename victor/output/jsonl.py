"""The jsonl format: one JSON record a page, its text with its blocks and
what is known about the page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from victor.output.characters import readable

if TYPE_CHECKING:
    from victor.reading.page import Page


def jsonl_record(page: Page, labels: list[str], content: list[float], text: str,
                 fallback: bool = False, text_language: str = "",
                 confidence: float | None = None,
                 page_type: dict[str, float] | None = None,
                 comment_blocks: tuple[int, ...] = ()) -> str:
    """One JSON line a page: what a corpus builder stores, with what the
    page declares about itself (victor/reading/metadata.py). `recovered` says what
    was done to find the page's text (an unclosed element read past, text
    taken from noscript or the description: page.read_page), and
    `fallback` says that the CRF kept no block and
    the text is the page's most probable content (decoding.fallback): a corpus
    builder may want to weigh or drop such pages. `text_language` is the
    language of the cleaned text as identified (victor/output/language.py), beside
    the `language` the page declares. `confidence` is the page's expected
    word F1 under the model's own probabilities (Result.confidence).
    `page_type` is the likeliest of the classifier's types with every
    type's probability, where the model has one (victor/page_type/).
    `comment_blocks` are the ids of the blocks in readers' comment
    sections (`comments`); their labels say whether they were kept."""
    import json

    record = {
        "source": page.source,
        "url": page.url,
        "title": readable(page.title),
        "canonical_url": page.meta.url,
        **page.meta.fields(),
        "text_language": text_language,
        "recovered": list(page.recovered),
        "fallback": fallback,
        **({} if confidence is None else {"confidence": round(confidence, 4)}),
        **({} if page_type is None else {
            "page_type": max(page_type, key=page_type.get),
            "page_types": {k: round(p, 4) for k, p in page_type.items()}}),
        "comments": list(comment_blocks),
        "text": text.strip(),
        "blocks": [
            {"id": b.id, "label": lab, "content": round(p, 4), "text": b.text}
            for b, lab, p in zip(page.blocks, labels, content)
        ],
    }
    return json.dumps(record, ensure_ascii=False) + "\n"
