"""Labels from gold text: a person's cleaned copy of a page (read by
gold.py), aligned to the page's blocks, says which blocks are content and
where segments start.

Gold was typed from the rendered page, so it never matches the HTML
character for character: whitespace, entities, case, line breaks and the
odd typo differ. The alignment is therefore over words (`victor.reading.text.words`
on both sides), one global longest common subsequence of the page's words
and the gold's, and a block is content when enough of its words are in that
subsequence.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz.distance import LCSseq, Levenshtein, Opcodes

from victor.annotation.gold import Gold
from victor.errors import VictorError
from victor.reading.text import words


@dataclass(slots=True)
class GoldLabels:
    labels: list[str]
    gold_words: int
    gold_covered: int  # gold words aligned to blocks labelled content
    content_words: int  # words of the blocks labelled content
    content_found: int  # of those, the ones aligned to gold words

    @property
    def recall(self) -> float:
        return self.gold_covered / self.gold_words if self.gold_words else 1.0

    @property
    def precision(self) -> float:
        return self.content_found / self.content_words if self.content_words else 1.0


# A block is content when at least this share of its words is aligned to
# the gold: half, so that a typo or a dropped word does not lose a short
# block and a menu word that happens to occur in the gold does not win one.
CONTENT_SHARE = 0.5
# Gold made from the page shares long runs of words with it; any two
# English texts share many single words, but hardly a run of four.
# Below this share of the gold's words in such runs, the gold was made
# from another page (or the page is not what was crawled).
RUN = 4
MIN_FOUND = 0.5


def label_from_gold(texts: list[str], gold: Gold, page_source: str = "-",
                    kinds: list[str] | None = None,
                    alts: list[bool] | None = None) -> GoldLabels:
    """One label per block text: a block whose words belong to the gold
    takes the kind of the gold segment it starts, or `c` if an earlier
    block started that segment; every other block is `o`. A block without
    words (a lone dash or bullet) is a `c` inside a segment that goes on
    after it, else `o`.

    Plain gold knows paragraphs only, so there a segment's kind is the one
    its first block's markup gives (`kinds`, from `markup_kind`): without
    it every heading and list item of such gold would be taught as `p`.

    `alts` says which blocks are an image's alt text (`is_alt_text`): the
    label an alt text took goes to a dropped block of the same words,
    the nearest, where the page has one (`_seen`)."""
    block_words = [words(t) for t in texts]
    page_words = [w for ws in block_words for w in ws]
    opcodes = LCSseq.opcodes(page_words, gold.words)
    run = min(RUN, len(gold.words))
    in_runs = sum(op.dest_end - op.dest_start for op in opcodes
                  if op.tag == "equal" and op.dest_end - op.dest_start >= run)
    if in_runs < MIN_FOUND * len(gold.words):
        raise VictorError(
            f"{gold.source}: only {in_runs} of the gold's {len(gold.words)} words are found "
            f"on {page_source} in runs of {RUN} or more; is it the gold of another page?")
    match = _align(page_words, gold.words, opcodes)

    labels = ["o"] * len(texts)
    started: set[int] = set()
    covered: set[int] = set()
    pos = content_words = content_found = 0
    for i, ws in enumerate(block_words):
        hits = [g for g in match[pos:pos + len(ws)] if g >= 0]
        pos += len(ws)
        if not ws or len(hits) < CONTENT_SHARE * len(ws):
            continue
        seg = gold.segment[hits[0]]
        kind = gold.kinds[seg] if gold.marked or kinds is None else kinds[i]
        labels[i] = "c" if seg in started else kind
        started.update(gold.segment[g] for g in hits)
        covered.update(hits)
        content_words += len(ws)
        content_found += len(hits)
    for i, ws in enumerate(block_words):
        if not ws and 0 < i < len(texts) - 1 and labels[i - 1] != "o" and labels[i + 1] == "c":
            labels[i] = "c"
    if alts is not None:
        labels = _seen(labels, block_words, alts)
    return GoldLabels(labels, len(gold.words), len(covered), content_words, content_found)


def is_alt_text(tags: tuple[str, ...]) -> bool:
    """Whether a block is an image's alt text (its innermost element is
    the `<img>`)."""
    return bool(tags) and tags[-1] == "img"


def _seen(labels: list[str], block_words: list[list[str]], alts: list[bool]) -> list[str]:
    """The labels with each kept alt text's label moved to the nearest
    dropped block of the same words that is no alt text, where there is
    one. A gold is typed from the page as a reader sees it, where a card's
    title shows and its picture's alt text (often the same words) does
    not; the one alignment of words matched whichever copy came first,
    mostly the picture's, so that a shop's or a listing's cards taught
    "the picture's words are content, the title is not" on some pages and
    the reverse on others (WCXB 0649's graphics cards, 2935's guitars;
    docs/annotation.md counts them)."""
    out = list(labels)
    where: dict[tuple[str, ...], list[int]] = {}
    for i, ws in enumerate(block_words):
        if ws and not alts[i]:
            where.setdefault(tuple(ws), []).append(i)
    for i, ws in enumerate(block_words):
        if not (alts[i] and ws and out[i] != "o"):
            continue
        same = where.get(tuple(ws), [])
        if same and all(out[j] == "o" for j in same):
            j = min(same, key=lambda j: abs(j - i))
            out[j], out[i] = out[i], "o"
    return out


_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_ITEMS = frozenset({"li", "dt", "dd"})


def markup_kind(tags: tuple[str, ...]) -> str:
    """The segment kind a block's enclosing elements suggest."""
    if _HEADINGS.intersection(tags):
        return "h"
    if _ITEMS.intersection(tags):
        return "l"
    return "p"


def _align(page: list[str], gold: list[str], opcodes: Opcodes) -> list[int]:
    """For each page word, the index of the gold word it is aligned to, or
    -1: the exact matches of the longest common subsequence (`opcodes`),
    each stretch moved next to the stretch that continues it in the gold
    where the page has its words there too, and typing errors repaired in
    the gaps between stretches."""
    # [page start, gold start, length] of each stretch of exact matches.
    runs = [[op.src_start, op.dest_start, op.src_end - op.src_start]
            for op in opcodes if op.tag == "equal"]
    for k, run in enumerate(runs):
        _attach(page, gold, runs, k)
    match = [-1] * len(page)
    a = c = 0  # where the gap since the previous stretch starts
    for s, g, n in runs:
        _repair(page, gold, a, s, c, g, match)
        match[s:s + n] = range(g, g + n)
        a, c = s + n, g + n
    _repair(page, gold, a, len(page), c, len(gold), match)
    return match


def _attach(page: list[str], gold: list[str], runs: list[list[int]], k: int) -> None:
    """Several alignments are equally long where the page repeats words: a
    headline in the page's title bar and again over the article, a word
    of a menu that is also the first word of a paragraph. The longest
    common subsequence takes the first occurrence; the one that continues
    the neighbouring stretch is the text the person copied."""
    s, g, n = runs[k]
    if k + 1 < len(runs):
        ns, ng, _ = runs[k + 1]
        if ng == g + n and ns > s + n and page[ns - n:ns] == gold[g:g + n]:
            runs[k][0] = ns - n
            return
    if k > 0:
        ps, pg, pn = runs[k - 1]
        if pg + pn == g and s > ps + pn and page[ps + pn:ps + pn + n] == gold[g:g + n]:
            runs[k][0] = ps + pn


# Gaps larger than this (page words times gold words) are not repaired: they
# are menus or sections the person left out, not typos.
_REPAIR_CELLS = 10_000
_SIMILAR = 0.8


def _repair(page: list[str], gold: list[str], a: int, b: int, c: int, d: int,
            match: list[int]) -> None:
    """Typing errors between two stretches of exact matches: a misspelt
    word, two words run together (`theincremental`) or one word split in
    two. Aligned by a small dynamic programme over the gap, page[a:b]
    against gold[c:d], maximising the page words paired."""
    n, m = b - a, d - c
    if n * m > _REPAIR_CELLS:
        return
    p, g = page[a:b], gold[c:d]
    score = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            best = max(score[i - 1][j], score[i][j - 1])
            if _similar(p[i - 1], g[j - 1]):
                best = max(best, score[i - 1][j - 1] + 1)
            if i > 1 and p[i - 2] + p[i - 1] == g[j - 1]:
                best = max(best, score[i - 2][j - 1] + 2)
            if j > 1 and g[j - 2] + g[j - 1] == p[i - 1]:
                best = max(best, score[i - 1][j - 2] + 1)
            score[i][j] = best
    i, j = n, m
    while i and j:
        s = score[i][j]
        if s == score[i - 1][j]:
            i -= 1
        elif s == score[i][j - 1]:
            j -= 1
        elif _similar(p[i - 1], g[j - 1]) and s == score[i - 1][j - 1] + 1:
            match[a + i - 1] = c + j - 1
            i, j = i - 1, j - 1
        elif i > 1 and p[i - 2] + p[i - 1] == g[j - 1] and s == score[i - 2][j - 1] + 2:
            match[a + i - 1] = match[a + i - 2] = c + j - 1
            i, j = i - 2, j - 1
        else:  # the page word is two gold words run apart
            match[a + i - 1] = c + j - 2
            i, j = i - 1, j - 2


def _similar(x: str, y: str) -> bool:
    """One typo in a word long enough that a typo cannot make another word."""
    return min(len(x), len(y)) >= 4 and Levenshtein.normalized_similarity(x, y) >= _SIMILAR
