"""The element classes the container.* and split.* features name (thesis
4.1: similar elements share one feature, so a small training set still
sees each feature often enough). Defined once here and used by every
family that groups tags."""

from __future__ import annotations

CLASSES: dict[str, frozenset[str]] = {
    "header": frozenset("h1 h2 h3 h4 h5 h6".split()),
    "bold": frozenset("b strong".split()),
    "italic": frozenset("i em".split()),
    "list": frozenset("ul ol li dl dt dd".split()),
    "form": frozenset("form input select textarea button label".split()),
    # Text-level elements: passing one rarely starts a new paragraph.
    "inline": frozenset(
        "a abbr acronym b bdi bdo big blink cite code data del dfn em font i ins kbd "
        "label mark nobr q rp rt ruby s samp small span strike strong sub sup time tt "
        "u var img input select button textarea".split()),
    # Elements that break the flow of text. p, br and hr have split features
    # of their own and are not in this class.
    "block": frozenset(
        "address article aside blockquote caption center dd details dialog dir div dl dt "
        "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup legend li "
        "main menu nav ol pre section summary table tbody td tfoot th thead tr ul".split()),
}

# The container.* features after "container.", each with the elements that
# set it.
CONTAINERS: dict[str, frozenset[str]] = {
    "p": frozenset({"p"}),
    "a": frozenset({"a"}),
    "u": frozenset({"u"}),
    "img": frozenset({"img"}),
    **{f"class-{c}": CLASSES[c] for c in ("header", "bold", "italic", "list", "form")},
}

# Where a paragraph of text starts and ends: the nearest such container is
# the unit whose link density the link-density extra measures.
BLOCK_LEVEL = CLASSES["block"] | {"p"}
