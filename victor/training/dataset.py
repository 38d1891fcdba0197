"""Annotated pages as training examples: each page's blocks, labels,
features, the person's text, and the web site it belongs to (for the
folds)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

from victor import decoding, features, output
from victor.annotation import load_annotation, load_training_page
from victor.annotation.gold import read_gold
from victor.config import Config
from victor.errors import VictorError
from victor.training.folds import PageGroup, page_group

if TYPE_CHECKING:
    from victor.perplexity import PerplexityModel


@dataclass
class Example:
    name: str  # the .anno file
    url: str
    texts: list[str]
    labels: list[str]
    features: list[dict[str, str]]
    gold: str  # the person's text the labels were made from (words only matter)
    group: PageGroup  # its web site and stratum, for the folds
    # Its code blocks, tables, lists, line boxes, sections and unseen blocks
    # (victor.decoding.Layout):
    # the folds decide its labels as the cleaner does.
    layout: decoding.Layout = field(default_factory=lambda: decoding.Layout([], [], [], ()))


def gold_text(anno_path: Path, texts: list[str], labels: list[str]) -> str:
    """The text a person kept: the words of `NAME.txt` beside `NAME.anno`
    read as the gold alignment read them when the labels were made (so
    Dragnet's appended comments, labelled o, are not counted as missed),
    else the annotation's own content."""
    beside = anno_path.with_suffix(".txt")
    if not beside.exists():
        return output.plain_text(texts, labels)
    return " ".join(read_gold(beside).words)


def load_example(anno_path: str, config: Config, lm: PerplexityModel | None = None,
                 names: Sequence[str] | None = None) -> Example:
    """One annotated page with the `names` features (by default the
    config's selection)."""
    annotation = load_annotation(anno_path)
    page, labels = load_training_page(anno_path, config, annotation)
    texts = [b.text for b in page.blocks]
    url = annotation.url or page.url
    group = page_group(anno_path, url, page.meta.url)
    return Example(anno_path, url, texts, labels, features.compute(page, config, lm, names),
                   gold_text(Path(anno_path), texts, labels), group,
                   decoding.layout(page.blocks, page.unseen))


def load_examples(anno_paths: Sequence[str], config: Config, lm: PerplexityModel | None = None,
                  disabled: Sequence[str] = ()) -> list[Example]:
    """All pages with the config's features less the `disabled` ones
    (features.select_features), or a one-line error for the first page that
    cannot be used: training on a silently shortened set would mislead."""
    if not anno_paths:
        raise VictorError("no annotation files given")
    names = features.select_features(config, disabled)
    return [load_example(p, config, lm, names) for p in anno_paths]


def annotation_files(inputs: Iterable[str]) -> Iterator[str]:
    """Files as given; folders walked for .anno files in sorted order."""
    for item in inputs:
        if os.path.isdir(item):
            for root, dirs, names in os.walk(item):
                dirs.sort()
                yield from (os.path.join(root, n) for n in sorted(names) if n.endswith(".anno"))
        else:
            yield item
