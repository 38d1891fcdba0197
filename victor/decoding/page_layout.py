"""What the decision reads of a page's blocks besides their text (`Layout`):
its code blocks and data tables, its lists, its line boxes and its
readers' sections, found in one walk of the blocks' containers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

from victor.labels import OTHER
from victor.reading.blocks import by_containers
from victor.reading.layout import is_data_table

if TYPE_CHECKING:
    from victor.reading.blocks import Block
    from victor.reading.parser import Element
    from victor.config.second_pass import SecondPassSettings

_LISTS = frozenset({"ul", "ol", "dl"})


@dataclass(frozen=True)
class Layout:
    """What the decision reads of a page's blocks besides their text, found
    once from the blocks: cross-validation keeps no tree, so an annotated
    page carries its layout (victor.training.dataset.Example), and the
    cleaner finds it from the page it has just read."""

    # The blocks of each code block (<pre>) and data table, by the outermost
    # such element they sit in.
    units: list[list[int]]
    # The blocks of each list (ul, ol, dl) of more than one block, by the
    # innermost list they sit in: a nested list is judged apart from the
    # list around it, as a menu's sub-menu may be.
    lists: list[list[int]]
    # Each block's line box (victor.reading.layout.line_box: the paragraph,
    # item or cell its text flows in) as a number blocks of one box share;
    # -1 for text straight in <body>.
    boxes: list[int]
    # The readers' section each block stands in, "comments", "reviews" or
    # "": the one of the outermost box that names one (`SECTIONS`).
    sections: tuple[str, ...]
    # The blocks a reader does not see (victor.reading.unseen: hidden by the
    # page's own style, screen-reader copies, data in a text element).
    unseen: tuple[int, ...] = ()


def layout(blocks: Sequence[Block], unseen: Sequence[int] = ()) -> Layout:
    """`unseen` is the page's (victor.reading.page.Page.unseen)."""
    boxes = [b.box for b in blocks]
    found_units, found_lists, found_sections = _in_containers(blocks)
    return Layout(found_units, found_lists, boxes, found_sections, tuple(unseen))


def _in_containers(blocks) -> tuple[list[list[int]], list[list[int]], tuple[str, ...]]:
    """A Layout's units, lists and sections from one walk of the blocks'
    containers (victor.reading.blocks.by_containers): each element's
    answers (the outermost code block or data table, the innermost list,
    the readers' section it stands in) are its parent's or its own, and
    the three share the look-ups."""
    unit_blocks: dict[Element, list[int]] = {}
    list_blocks: dict[Element, list[int]] = {}
    found = by_containers(blocks, _within, (None, None, ""))
    for b, (unit, inner_list, _) in zip(blocks, found):
        if unit is not None:
            unit_blocks.setdefault(unit, []).append(b.id)
        if inner_list is not None:
            list_blocks.setdefault(inner_list, []).append(b.id)
    return (list(unit_blocks.values()),
            [unit for unit in list_blocks.values() if len(unit) > 1],
            tuple(section for _, _, section in found))


def _within(above: tuple[Element | None, Element | None, str],
            el: Element) -> tuple[Element | None, Element | None, str]:
    """An element's answers from its parent's (`above`)."""
    unit, inner_list, section = above
    tag = el.tag
    opens_unit = unit is None and (tag == "pre" or tag == "table" and is_data_table(el))
    opens_list = tag in _LISTS
    names = not section and tag in _SECTION_BOXES and el.attrs and _section(el.attrs)
    if not (opens_unit or opens_list or names):
        return above  # most elements change nothing: no new tuple
    return el if opens_unit else unit, el if opens_list else inner_list, names or section


# Readers' sections: a box of these tags whose id or one of whose classes
# names one. Comments: a name that begins with comment, respond, disqus,
# repl or discussion (WordPress's `comments-area`, `commentlist` and
# `#respond`, Disqus's `#disqus_thread`, `replies`), so that a post that
# `has-comments` or code's `hljs-comment` is none. Reviews: a name with
# `review` anywhere in it (`product-reviews`, `yotpo-reviews`,
# `customerReviews`) but `preview`.
_SECTION_BOXES = frozenset("div section ol ul li article aside footer dl table form".split())
_COMMENTS = re.compile(r"^(?:comment|respond|disqus|repl|discussion)")
_REVIEWS = re.compile(r"(?<!p)review")
# The page type on which each section is no part of the main content,
# and the second pass's key that gives the type's probability from which
# it goes (victor.config.second_pass).
SECTIONS = {"comments": ("article", "comment_sections"), "reviews": ("product", "review_sections")}


def _section(attrs: Mapping[str, str]) -> str:
    """Most boxes name no section: the class and id together hold none of
    the patterns' words, which `in` tells word by word (a search of each
    name cost twice as much, and one pattern of the words or any() over
    them more than these six tests)."""
    classes, ident = attrs.get("class", ""), attrs.get("id", "")
    both = f"{classes} {ident}".lower()
    if not ("comment" in both or "respond" in both or "disqus" in both or "repl" in both
            or "discussion" in both or "review" in both):
        return ""
    names = classes.lower().split()
    names.append(ident.lower())
    if any(_COMMENTS.match(name) for name in names):
        return "comments"
    if any(_REVIEWS.search(name) for name in names):
        return "reviews"
    return ""


def without_sections(labels: Sequence[str], found: Sequence[str],
                     settings: "SecondPassSettings | None", page_type: Mapping[str, float] | None,
                     forum_below: float | None = None) -> list[str]:
    """The labels with every block of a readers' section dropped where the
    page is of the type it does not belong to: comments on an article,
    reviews on a product, at the type's probability (the page-type
    classifier's, `page_type`) from the config's bar on, or on every page
    where the bar is 0. Comments are the body of a forum and reviews a
    page of their own, and the trees keep both (they read like
    paragraphs): most of what the default config kept beyond Dragnet's
    article gold, and of WCXB's products (docs/notes/second-pass.md, "Readers'
    sections"). With `forum_below` (the user's `--comments drop`, at the
    config's `comments_drop`), comments go from every page that is a forum
    at less than that probability, or from every page where no classifier
    tells: a forum's posts stay its content."""
    gone = set()
    for name, (kind, key) in SECTIONS.items():
        at = None if settings is None else getattr(settings, key)
        if at is not None and (at == 0 or page_type is not None and page_type[kind] >= at):
            gone.add(name)
    if forum_below is not None and (page_type is None or page_type["forum"] < forum_below):
        gone.add("comments")
    if not gone or not found:
        return list(labels)
    return [OTHER if section in gone else label for label, section in zip(labels, found)]
