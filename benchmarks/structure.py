r"""How faithfully each cleaner's output keeps the structure of what the
gold keeps: code lines, table rows, links in running text, list items, and
no space before punctuation where the page has none. Word-bag scores cannot
see any of it. Victor is scored on pages of web sites its model has not
seen (the default config's 5 site folds over every annotated page, as
`benchmarks.quality` runs them), its held-out labels rendered as Markdown
and text; the peers on the same pages in the same run: trafilatura's
Markdown (tables, links, images, formatting), resiliparse's text (list
bullets and formatting on) and rs-trafilatura's Markdown (links and images
on; in a venv of its own, skipped where there is none: benchmarks.peers).
Counted, over the elements of the page whose text (whitespace folded) the
gold keeps:
- code: the non-empty lines of each `<pre>`; intact when a line of the
  output is that line (whitespace folded);
- table rows: the rows of tables of two columns or more; kept when every
  cell's text is in the output (a Markdown output as its text, below), as
  a row when one line of the output holds the cells in order, each a cell
  of its own (a text split on `|` or tabs; a Markdown output's rows as a
  CommonMark parser reads its tables, or a line of it as written split on
  `|`);
- links: `<a href>` inside a paragraph or list item with other text; kept
  as a link when the output has `[text](` (the text may be set in code or
  emphasis whole: `` [`fetch()`]( ``, `[*text*](`);
- list items: `<li>` of three words or more without a list inside, held by
  the gold as a line of its own and not a heading of the page (a table of
  contents' entries: the gold keeps the heading); as an item when an
  output line starts with a list marker and holds the item's text;
- spaces before `, . ; : ! ? )` per 1,000 words, beside the gold's own rate
  (a Markdown picture's `![` after a line break is no mark);
- words run together per 1,000 words: an output word that is two words of
  the gold side by side and no word of the gold's ("beds2");
- images' alt text: `<img alt>` of two words or more whose alt text the
  gold keeps; kept when the output has it, as an image when a Markdown
  output has `![alt](`. On WCXB nearly every such alt text is the page's
  own text too (a product's name, a caption: all but 4 of 805 on 400
  pages), so "kept" says whether the words are there, from the image or
  beside it; "as an image" says whether the image is.
Then WCXB's bag-of-words F1 of Victor's text against the block-joined text.

And the integrity of running text, over the gold's prose lines: a line of
the gold that starts with a letter, ends with `.`, `!` or `?` and has 8
words or more (split on whitespace). Text is read as tokens: words (`\w+`)
and single marks of punctuation, lowercased, with typographic quotes,
dashes and the ellipsis read as the plain ones; a Markdown output is read
as its text: rendered by a CommonMark parser with GFM's tables
(markdown-it-py), a link as its text, a picture as its alt text, an escape
as its mark. A Markdown output's kept images' alt text and table rows are
read the same way. A line counts for an output when one stretch of the output's
tokens, at most twice the line's length, holds half of the line's tokens or
more in the line's order (their longest common subsequence). Each counted
line is, first that applies:
- kept whole: all its tokens stand in the output, in order and contiguous;
- final mark cut: all but its final `.`/`!`/`?` stand so, followed by a
  word or by the output's end (a mark after them, such as a footnote's
  `[1]` before the full stop, makes the line broken or holed, below);
- a hole: a token of it is missing from the best stretch, the rest kept in
  order (a word, link or code cut out of it, its start cut off, or a word
  split in two by a soft hyphen left in it);
- broken: every token kept in order, with tokens the gold does not have
  between them (a footnote's `[1]`).
Shares are of the lines each output counts, which the table shows as a
share of the gold's prose lines.

    python3 -m benchmarks.structure                        # WCXB dev: folds then scores
    python3 -m benchmarks.structure --labels run.json      # reuse (or save) the folds' labels
    python3 -m benchmarks.structure --sample 100           # scores on 100 pages (folds on all)
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from statistics import mean
from typing import Callable, Sequence

import numpy as np

from benchmarks.common import bag_f1, table
from benchmarks.peers import STRUCTURED_PEERS, Extract, Unavailable
from victor import decoding, output
from victor.training import crossval, dataset
from victor.config import DEFAULT_CONFIG, Config, load_config
from victor.batch.inputs import read_input
from victor.reading.parser import Element, parse

ROOT = Path(__file__).resolve().parent.parent
WCXB = ROOT / "data" / "wcxb"
_SPACE = re.compile(r"\s+")
# A space before a mark: not a Markdown picture's `![` that opens a line of
# its own, which is no punctuation of the text.
_BEFORE_PUNCT = re.compile(r"\w\s+(?:[,.;:?)]|!(?!\[))")
_MARKER = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
_WORD = re.compile(r"\w+")
_LINK = re.compile(r"\]\([^)]*\)")
_MARKUP = re.compile(r"!\[|\[|`|</?su[pb]>|^(?:\s*> ?)+")
_STRONG = re.compile(r"\*\*(\S(?:.*?\S)?)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(\S(?:.*?\S)?)\*(?![\w*])")
# A link whose whole text is set in code or emphasis: [`fetch()`](, [*x*](.
_MARKED_LINK = re.compile(r"\[(\*\*|\*|_|`)([^\]]*?)\1\]\(")
# Markdown's backslash escapes of punctuation.
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_TOKEN = re.compile(r"\w+|[^\w\s]")
# Typographic quotes, dashes and the ellipsis read as the plain ones: which
# of them a cleaner prints is no part of the text's integrity.
_PLAIN = str.maketrans({**dict.fromkeys("‘’‚‛′", "'"), **dict.fromkeys("“”„‟″", '"'),
                        **dict.fromkeys("‐‑‒–—―−", "-"), "…": "..."})
_FINAL_MARKS = frozenset(".!?")


def fold(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


@dataclass
class Structure:
    code_lines: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)  # the cells' folded texts
    links: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    alts: list[str] = field(default_factory=list)  # images' folded alt texts
    prose: list[list[str]] = field(default_factory=list)  # the gold's prose lines, as tokens


def _text(el: Element, skip: frozenset[str] = frozenset()) -> str:
    out, stack = [], [el]
    while stack:
        e = stack.pop()
        if isinstance(e, str):
            out.append(e)
        elif e.tag not in skip and e.tag not in ("script", "style", "template"):
            stack.extend(reversed(e.children))
    return "".join(out)


def structure(html: bytes, gold: str) -> Structure:
    """The page's code lines, table rows, links, list items and images'
    alt texts whose text the gold keeps, and the gold's prose lines."""
    lines = {fold(_MARKER.sub("", line)) for line in gold.split("\n")}
    s, headings = Structure(prose=prose_lines(gold)), []
    gold = fold(gold)
    root = parse(html).root
    stack: list[tuple[Element, Element | None]] = [(root, None)]  # (element, its parent)
    while stack:
        el, parent = stack.pop()
        tag = el.tag
        if tag == "pre":
            for line in _text(el).split("\n"):
                f = fold(line)
                if len(f) > 1 and f in gold:
                    s.code_lines.append(f)
            continue
        if tag == "tr":
            cells = [fold(_text(c)) for c in el.children
                     if isinstance(c, Element) and c.tag in ("td", "th")]
            cells = [c for c in cells if c]
            if len(cells) >= 2 and all(c in gold for c in cells):
                s.rows.append(cells)
        elif tag == "a" and el.attrs.get("href") and parent is not None:
            text = fold(_text(el))
            around = fold(_text(parent))
            if (parent.tag in ("p", "li", "dd") and len(text) > 1 and text in gold
                    and len(around) > len(text) + 20 and around in gold):
                s.links.append(text)
        elif tag == "li" and not _has_list(el):
            # Three words at least: a menu's "About" is in most golds too.
            text = fold(_text(el))
            if len(text.split()) >= 3 and text in lines:
                s.items.append(text)
        elif tag == "img":
            alt = fold(el.attrs.get("alt") or "")
            if len(alt.split()) >= 2 and alt in gold:
                s.alts.append(alt)
        elif tag in _HEADINGS:
            headings.append(fold(_text(el)))
        stack.extend((c, el) for c in el.children if isinstance(c, Element))
    s.items = [t for t in s.items if not any(t in h for h in headings)]
    return s


def _has_list(el: Element) -> bool:
    stack = [c for c in el.children if isinstance(c, Element)]
    while stack:
        e = stack.pop()
        if e.tag in ("ul", "ol"):
            return True
        stack.extend(c for c in e.children if isinstance(c, Element))
    return False


@dataclass
class Counts:
    """Found / total for each structure, summed over pages."""

    code: list[int] = field(default_factory=lambda: [0, 0])
    rows_kept: list[int] = field(default_factory=lambda: [0, 0])
    rows: list[int] = field(default_factory=lambda: [0, 0])
    links: list[int] = field(default_factory=lambda: [0, 0])
    items: list[int] = field(default_factory=lambda: [0, 0])
    alts: list[int] = field(default_factory=lambda: [0, 0])
    alt_images: list[int] = field(default_factory=lambda: [0, 0])
    prose: int = 0  # the gold's prose lines
    fates: Counter = field(default_factory=Counter)  # line_fate -> lines
    spaced: int = 0  # spaces before punctuation
    glued: int = 0  # words the gold has apart, run together
    words: int = 0
    bag: list[float] = field(default_factory=list)

    def add(self, s: Structure, out: str, gold: str, markdown: bool) -> None:
        as_written = fold(out)
        raw = out.split("\n")
        if markdown:  # links, images and emphasis read as their text
            raw = _unmarked(raw)
        lines = [fold(line) for line in raw]
        line_set = set(lines)
        text = markdown_text(out) if markdown else out
        read = fold(text)
        self.code[0] += sum(line in line_set for line in s.code_lines)
        self.code[1] += len(s.code_lines)
        for cells in s.rows:
            self.rows_kept[0] += all(c in read for c in cells)
            self.rows[0] += (any(_as_row(line, cells, markdown) for line in text.split("\n"))
                             or markdown and any(_piped_row(line, cells) for line in raw))
        self.rows_kept[1] += len(s.rows)
        self.rows[1] += len(s.rows)
        linked = fold(_MARKED_LINK.sub(r"[\2](", out)) if markdown else as_written
        self.links[0] += sum(f"[{link}](" in linked for link in s.links)
        self.links[1] += len(s.links)
        items = [_MARKER.sub("", line) for line in lines if _MARKER.match(line)]
        if markdown:  # an item's escaped marks read as the marks
            items = [_ESCAPED.sub(r"\1", item) for item in items]
        self.items[0] += sum(any(t in item for item in items) for t in s.items)
        self.items[1] += len(s.items)
        self.alts[0] += sum(alt in read for alt in s.alts)
        self.alt_images[0] += sum(f"![{alt}](" in as_written for alt in s.alts)
        self.alts[1] += len(s.alts)
        self.alt_images[1] += len(s.alts)
        self.prose += len(s.prose)
        self.fates.update(fates(s.prose, text))
        self.spaced += len(_BEFORE_PUNCT.findall(out))
        self.glued += run_together("\n".join(raw), gold)
        self.words += len(_WORD.findall(out))
        if not markdown:  # a Markdown link's address is no word of the page
            self.bag.append(bag_f1(out, gold))

    def row(self, name: str) -> list[object]:
        return [name, _share(self.code), _share(self.rows), _share(self.rows_kept),
                _share(self.links), _share(self.items), _share(self.alts),
                _share(self.alt_images), 1000 * self.spaced / max(self.words, 1),
                1000 * self.glued / max(self.words, 1),
                f"{mean(self.bag):.4f}" if self.bag else "-"]

    def integrity_row(self, name: str) -> list[object]:
        counted = sum(self.fates.values())
        return [name, _share([counted, self.prose])] + [
            _share([self.fates[fate], counted]) for fate in (WHOLE, FINAL_CUT, HOLE, BROKEN)]


def _share(c: list[int]) -> float:
    return c[0] / c[1] if c[1] else 1.0


def run_together(out: str, gold: str) -> int:
    """The output's words that are two words of the gold side by side, run
    together ("beds2" for "3 beds 2.5 baths"), and no word of the gold's."""
    said = _WORD.findall(gold.lower())
    pairs = {a + b for a, b in zip(said, said[1:])} - set(said)
    return sum(w in pairs for w in _WORD.findall(out.lower()))


def _unmarked(lines: list[str]) -> list[str]:
    """Markdown lines with links, images and emphasis read as their text;
    fenced code as it is. Escapes stay, so that a list marker the renderer
    escaped (`1\\.`) is no marker, and `\\|` no table cell's edge."""
    return _outside_fences(lines, lambda line: _EMPHASIS.sub(
        r"\1", _STRONG.sub(r"\1", _MARKUP.sub("", _LINK.sub("", line)))))


def _outside_fences(lines: list[str], read: Callable[[str], str]) -> list[str]:
    out, fenced = [], False
    for line in lines:
        if line.lstrip().startswith("```"):
            fenced = not fenced
        out.append(line if fenced else read(line))
    return out


def _as_row(line: str, cells: list[str], markdown: bool) -> bool:
    """The cells of one line of text, split on tabs or a plain text's
    pipes; a Markdown output's as a CommonMark parser reads its tables
    (`markdown_text`: a cell's escaped pipe is the cell's text)."""
    parts = [fold(p) for p in (line.split("\t") if markdown else re.split(r"(?<!\\)\||\t", line))]
    return [p for p in parts if p] == cells


def _piped_row(line: str, cells: list[str]) -> bool:
    """The cells of one Markdown line as written, split on its unescaped
    pipes, each read with its escapes undone (`\\~47M` is the cell "~47M"):
    a row a reader sees in the Markdown itself, where a renderer would
    see no table (trafilatura writes none of the delimiter rows that make
    one)."""
    parts = [fold(_ESCAPED.sub(r"\1", p)) for p in re.split(r"(?<!\\)\|", line)]
    return [p for p in parts if p] == cells


# --- the integrity of running text ---------------------------------------------

def tokens(text: str) -> list[str]:
    """Words and marks of punctuation, lowercased, typographic quotes and
    dashes read as plain ones."""
    return _TOKEN.findall(text.translate(_PLAIN).lower())


def prose_lines(gold: str) -> list[list[str]]:
    """The gold's lines a reader reads as sentences: from a letter to a
    final `.`, `!` or `?`, 8 words or more; each as its tokens."""
    out = []
    for line in gold.split("\n"):
        line = line.strip()
        if line and line[0].isalpha() and line[-1] in _FINAL_MARKS and len(line.split()) >= 8:
            out.append(tokens(line))
    return out


@dataclass(frozen=True)
class Stream:
    """An output's tokens, indexed to find a line in them."""

    tokens: list[str]
    joined: str  # " a b c ": a line stands contiguous when " x y " is in it
    at: dict[str, np.ndarray]  # token -> where it stands, in order


def stream(text: str) -> Stream:
    toks = tokens(text)
    at: dict[str, list[int]] = {}
    for i, t in enumerate(toks):
        at.setdefault(t, []).append(i)
    return Stream(toks, f" {' '.join(toks)} ", {t: np.array(p) for t, p in at.items()})


def common_length(line: list[str], stretch: list[str]) -> int:
    """The length of the longest common subsequence of the two."""
    return _common_length(_masks(line), len(line), stretch)


def _masks(line: list[str]) -> dict[str, int]:
    masks: dict[str, int] = {}
    for i, t in enumerate(line):
        masks[t] = masks.get(t, 0) | 1 << i
    return masks


def _common_length(masks: dict[str, int], n: int, stretch: list[str]) -> int:
    # Bit-parallel, after Hyyrö: an integer of n bits stands for a row of
    # the table, its zero bits for the line's tokens matched so far.
    full = (1 << n) - 1
    row = full
    for t in stretch:
        matched = row & masks.get(t, 0)
        row = ((row + matched) | (row - matched)) & full
    return n - row.bit_count()


def kept_in_order(line: list[str], out: Stream, at_least: int = 0) -> int:
    """The most tokens of `line` that one stretch of the output, at most
    twice the line's length, holds in the line's order; any figure below
    `at_least` stands for "fewer than that" (stretches that cannot reach it
    are not searched)."""
    width = 2 * len(line)
    found = [(out.at[t], k) for t, k in Counter(line).items() if t in out.at]
    if not found:
        return 0
    # A bound for the stretch that starts at each of the line's tokens in the
    # output: the line's tokens in it, each counted at most as often as the
    # line has it. The stretches are searched from the highest bound down.
    starts = np.unique(np.concatenate([at for at, _ in found]))
    bounds = np.zeros(len(starts), dtype=np.int64)
    for at, k in found:
        bounds += np.minimum(np.searchsorted(at, starts + width) - np.searchsorted(at, starts), k)
    masks, best = _masks(line), 0
    for i in np.argsort(-bounds, kind="stable"):
        if bounds[i] <= best or bounds[i] < at_least:
            break
        best = max(best, _common_length(masks, len(line),
                                        out.tokens[starts[i]:starts[i] + width]))
    return best


def _cut_before_word(rest: list[str], out: Stream) -> bool:
    """Whether `rest` stands contiguous in the output with a word or the
    output's end after it: the sentence stops there, its mark cut off."""
    pattern = f" {' '.join(rest)} "
    at = out.joined.find(pattern)
    while at >= 0:
        after = out.joined[at + len(pattern):at + len(pattern) + 1]
        if not after or after.isalnum() or after == "_":
            return True
        at = out.joined.find(pattern, at + 1)
    return False


WHOLE, FINAL_CUT, HOLE, BROKEN = "kept whole", "final mark cut", "a hole", "broken"


def line_fate(line: list[str], out: Stream) -> str | None:
    """What became of a prose line of the gold in an output (the module's
    docstring defines each), or None when the output does not mostly keep
    it."""
    if f" {' '.join(line)} " in out.joined:
        return WHOLE
    if line[-1] in _FINAL_MARKS and _cut_before_word(line[:-1], out):
        return FINAL_CUT
    kept = kept_in_order(line, out, at_least=(len(line) + 1) // 2)
    if 2 * kept < len(line):
        return None
    return BROKEN if kept == len(line) else HOLE


def fates(prose: list[list[str]], text: str) -> Counter:
    """How many of the prose lines an output's text keeps whole, with the
    final mark cut, with a hole, or broken."""
    out = stream(text)
    return Counter(fate for line in prose if (fate := line_fate(line, out)) is not None)


def markdown_text(markdown: str) -> str:
    """A Markdown output read as the text a reader sees: rendered by a
    CommonMark parser (markdown-it-py, with GFM's tables), each block of
    the HTML on lines of its own, a picture as its alt text, a table's
    cells apart. Patterns cannot read Markdown: a link's text may hold
    brackets (`[[Kearns '98]](…)`), an escape stands for its mark, and
    what a renderer would not read as markup is text."""
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("table").render(markdown)
    out: list[str] = []
    stack: list[Element | str] = [parse(html.encode()).root]
    while stack:
        e = stack.pop()
        if isinstance(e, str):
            out.append(e)
        elif e.tag == "img":
            out.append(e.attrs.get("alt") or "")
        elif e.tag == "br":
            out.append("\n")
        elif e.tag in _CELLS:  # a row's cells on its line, a tab apart, as in the text
            stack.append("\t")
            stack.extend(reversed(e.children))
            out.append("\t")
        else:
            apart = e.tag in _READ_APART
            if apart:
                stack.append("\n")
            # A row's cells only: the renderer's line breaks between them
            # would put each on a line of its own.
            stack.extend(reversed([c for c in e.children if not isinstance(c, str)]
                                  if e.tag == "tr" else e.children))
            if apart:
                out.append("\n")
    return "".join(out)


# The rendered Markdown's elements whose text stands apart from its neighbours'.
_READ_APART = frozenset("p h1 h2 h3 h4 h5 h6 li pre blockquote tr table hr dd dt".split())
_CELLS = frozenset(("td", "th"))


# --- the runs -----------------------------------------------------------------

def held_out_labels(folds: int, jobs: int, config: Config) -> dict[str, dict]:
    """The default config's best path, marginals and second-pass
    probabilities of every annotated page, each from the fold that did not
    train on its site, as benchmarks.quality's cross-validation has them:
    its trees cross-fitted on the same folds. What is kept is then decided
    from them (victor.decoding.decide)."""
    from benchmarks.quality.running import COLLECTIONS, pages_of, submit_fold

    examples = [e for c in COLLECTIONS
                for e in dataset.load_examples([p.anno for p in pages_of(c, None)], config)]
    work = tempfile.mkdtemp(prefix="victor-structure-")
    with ProcessPoolExecutor(jobs) as pool:
        futures = [submit_fold(pool, i, train, test, config, dict(config.crf), work)
                   for i, train, test in crossval.fold_tasks(examples, folds, "site")]
        results = [f.result() for f in futures]
    if config.second_pass is not None:
        results = crossval.with_second_pass(results, examples, config, jobs)
    return {Path(p.name).name: held_page(p, p.second, p.page_type)
            for r in results for p in r.predictions}


def held_page(p: crossval.Prediction, second: Sequence[float] | None,
              page_type: dict[str, float] | None) -> dict:
    """A page's entry in a --labels file: what deciding it again reads (its
    best path, marginals, trees' probabilities and page type)."""
    return {"path": p.path, "marginals": p.marginals,
            "second": None if second is None else [float(x) for x in second],
            "page_type": page_type}


def peer_output(name: str, extract: Extract, html: bytes, page: str) -> str:
    """A peer's output; a crash loses the page, as an empty answer does."""
    try:
        return extract(html)
    except Exception as e:
        print(f"{page}: {name}: {type(e).__name__}: {e}", file=sys.stderr)
        return ""


def peers_set_up() -> dict[str, Extract]:
    """The structured peers this machine has, each set up; one line for
    each that it has not."""
    out = {}
    for name, setup in STRUCTURED_PEERS.items():
        try:
            out[name] = setup()
        except Unavailable as e:
            print(f"{name}: skipped: {e}", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", metavar="FILE",
                    help="the folds' labels: read if it exists, else written after the folds")
    ap.add_argument("--sample", type=int, metavar="N", help="score a seeded random N pages")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--no-peers", action="store_true")
    for key, what in (("unit", "code blocks and data tables whole"), ("list", "lists' items")):
        ap.add_argument(f"--{key}-bar", metavar="P",
                        help=f"decode {what} at P, or 'off' (default: the config's)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    config = load_config(DEFAULT_CONFIG)
    if args.labels and Path(args.labels).exists():
        held = {Path(k).name: v for k, v in
                json.loads(Path(args.labels).read_text(encoding="utf-8")).items()}
    else:
        held = held_out_labels(args.folds, args.jobs, config)
        if args.labels:
            Path(args.labels).write_text(json.dumps(held), encoding="utf-8")
    if (config.second_pass is not None and config.second_pass.reads_page_type
            and any(page.get("page_type") is None for page in held.values())):
        print(f"{args.labels}: labels without the page's type: those pages are decided "
              "without what reads it (the article bars, readers' sections)", file=sys.stderr)
    annos = sorted(WCXB.glob("*.anno"))
    if args.sample and args.sample < len(annos):
        annos = sorted(random.Random(0).sample(annos, args.sample))
    from victor.cleaner import Cleaner

    cleaner = Cleaner(config)
    share, list_bar = (configured if given is None else None if given == "off" else float(given)
                         for given, configured in ((args.unit_bar, config.unit_bar),
                                                   (args.list_bar, config.list_bar)))
    config = replace(config, unit_bar=share, list_bar=list_bar)
    systems: dict[str, Counts] = {"victor markdown": Counts(), "victor text": Counts(),
                                  "victor text, blocks joined (before)": Counts()}
    others = {} if args.no_peers else peers_set_up()
    systems.update({name: Counts() for name in others})
    gold_counts = Counts()
    for anno in annos:
        held_page = held.get(anno.name)
        if held_page is None:
            continue
        html = read_input(str(next(anno.parent.glob(anno.stem + ".html*"))))
        gold = anno.with_suffix(".txt").read_text(encoding="utf-8")
        s = structure(html, gold)
        gold_counts.spaced += len(_BEFORE_PUNCT.findall(gold))
        gold_counts.words += len(_WORD.findall(gold))
        result = cleaner.clean(html, source=str(anno))
        if len(result.page.blocks) != len(held_page["path"]):
            print(f"{anno.name}: blocks differ from the annotation's, skipped", file=sys.stderr)
            continue
        q = held_page["second"]
        found = decoding.layout(result.page.blocks)

        def decided(bridged: bool) -> list[str]:
            return decoding.decide(held_page["path"], held_page["marginals"], result.texts,
                                   found, config, trees=None if q is None else (lambda _: q),
                                   bridged=bridged, page_type=held_page.get("page_type")).labels

        result.labels = decided(True)
        systems["victor markdown"].add(s, result.markdown(), gold, True)
        systems["victor text"].add(s, result.text(), gold, False)
        systems["victor text, blocks joined (before)"].add(
            s, output.plain_text(result.texts, decided(False)), gold, False)
        for name, extract in others.items():
            systems[name].add(s, peer_output(name, extract, html, anno.name), gold,
                              name.endswith("(markdown)"))
    print(f"WCXB dev, {len(systems['victor text'].bag)} pages of web sites Victor's model has not "
          f"seen ({args.folds} site folds, the {DEFAULT_CONFIG} config); over the elements "
          "whose text the gold keeps:\n")
    print(table(["system", "code lines intact", "table rows as rows", "table rows kept",
                 "links as links", "list items as items", "images' alt text kept",
                 "alt text as images", "spaces before punct. /1000 words",
                 "words run together /1000 words",
                 "bag-of-words F1"],
                [c.row(name) for name, c in systems.items()]))
    print(f"\nThe gold's {systems['victor text'].prose} prose lines (each output's share "
          "of them it mostly keeps, and what became of those):\n")
    print(table(["system", "lines counted", "kept whole", "final mark cut", "a hole", "broken"],
                [c.integrity_row(name) for name, c in systems.items()]))
    print(f"\nThe gold's own spaces before punctuation: "
          f"{1000 * gold_counts.spaced / max(gold_counts.words, 1):.2f} per 1,000 words. "
          f"Elements counted: {systems['victor text'].code[1]} code lines, "
          f"{systems['victor text'].rows[1]} table rows, {systems['victor text'].links[1]} links, "
          f"{systems['victor text'].items[1]} list items, "
          f"{systems['victor text'].alts[1]} images' alt texts.")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
