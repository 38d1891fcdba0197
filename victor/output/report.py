"""`--format report`: the labelled blocks as a page for people who would
rather look than read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from victor.labels import LABELS, NAMES

if TYPE_CHECKING:
    from victor.reading.page import Page

_COLOURS = {"p": "#d8f5d0", "h": "#c9e2ff", "l": "#fff1b8", "c": "#e9f9e4", "o": "#eeeeee"}


def report(page: Page, labels: list[str], marginals: list[dict[str, float]]) -> str:
    """A self-contained page for people who would rather look than read:
    blocks coloured by label, the CRF's probabilities on hover."""
    from html import escape

    legend = " ".join(
        f'<span class="b {k}">{escape(v)}</span>' for k, v in NAMES.items())
    rows = []
    for b, lab, m in zip(page.blocks, labels, marginals):
        tip = ", ".join(f"{k} {m.get(k, 0.0):.2f}" for k in LABELS)
        rows.append(f'<div class="b {lab}" title="#{b.id} {escape(NAMES.get(lab, lab))}: '
                    f'{escape(tip)}"><i>{lab}</i> {escape(b.text)}</div>')
    style = "".join(f".{k}{{background:{c}}}" for k, c in _COLOURS.items())
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>Victor: {escape(page.url or page.source)}</title><style>"
        "body{font:14px/1.4 sans-serif;max-width:60em;margin:1em auto}"
        ".b{padding:2px 6px;margin:1px 0;border-radius:3px}.o{color:#888}"
        "i{font-style:normal;font-weight:bold;margin-right:.5em}"
        f"{style}</style></head><body><h1>{escape(page.title or page.url or page.source)}</h1>"
        f"<p>{escape(page.url)}</p><p>{legend}</p>\n" + "\n".join(rows) + "\n</body></html>\n"
    )
