"""Sentence perplexity under an n-gram language model, and the filter of
Fernández-Pichel et al. that drops the sentences a model of well-formed text
finds unlikely.

Training is a small modified Kneser-Ney estimator of our own that writes the
standard ARPA format (no maintained pure-Python ARPA trainer exists, and
KenLM's own trainer is a C++ program outside the pip package). Queries go
through KenLM, which reads ARPA and is fast enough to score every sentence of
every page.

Tokens are the lower-cased words of `victor.text.words`: punctuation, case and
spacing are dropped both when training and when scoring. Menus and link lists
differ from prose in which words follow which, not in their separators, and
the gold transcripts that the model learns from punctuate unlike the pages.
"""

from __future__ import annotations

import argparse
import gzip
import math
import os
import random
import re
import sys
import tempfile
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

import numpy as np

from victor.config import MODEL_DIR
from victor.errors import VictorError, import_extra
from victor.text import collapse, sentences, words

if TYPE_CHECKING:  # KenLM is an extra, imported when a model is loaded
    import kenlm

BOS, EOS, UNK = "<s>", "</s>", "<unk>"

DEFAULT_MODEL = MODEL_DIR / "lm-default.arpa.gz"

# Calibrated for DEFAULT_MODEL only (docs/perplexity.md): the paper's 8,000
# belongs to its BNC model, and a perplexity limit means nothing across models.
DEFAULT_LIMIT = 3700.0

# ARPA's stand-in for log10(0): <s> starts sentences but is never predicted.
_NEVER = -99.0


# --- training -------------------------------------------------------------


@dataclass
class NgramModel:
    """A back-off n-gram model as ARPA stores it, so that what we write is
    exactly what we can check KenLM against."""

    order: int
    log10_probs: dict[tuple[str, ...], float] = field(default_factory=dict)
    log10_backoffs: dict[tuple[str, ...], float] = field(default_factory=dict)

    def log10_prob(self, context: Sequence[str], word: str) -> float:
        """ARPA back-off: the longest stored n-gram ending in the word, plus
        the back-off weights of the longer contexts that were not stored."""
        known = [w if (w,) in self.log10_probs else UNK for w in (*context, word)]
        context, word = tuple(known[:-1])[-(self.order - 1):], known[-1]
        backoff = 0.0
        while (*context, word) not in self.log10_probs:  # ends: every word has a unigram
            backoff += self.log10_backoffs.get(context, 0.0)
            context = context[1:]
        return backoff + self.log10_probs[(*context, word)]

    def write_arpa(self, path: Path) -> None:
        """Sorted lines, so that retraining on the same text gives the same
        file; a `.gz` name is gzipped (KenLM reads it) to keep models small."""
        by_order: list[list[tuple[str, ...]]] = [[] for _ in range(self.order)]
        for gram in self.log10_probs:
            by_order[len(gram) - 1].append(gram)
        lines = ["", "\\data\\"]
        lines += [f"ngram {n + 1}={len(grams)}" for n, grams in enumerate(by_order)]
        for n, grams in enumerate(by_order):
            lines += ["", f"\\{n + 1}-grams:"]
            for gram in sorted(grams):
                line = f"{self.log10_probs[gram]:.6f}\t{' '.join(gram)}"
                if gram in self.log10_backoffs:
                    line += f"\t{self.log10_backoffs[gram]:.6f}"
                lines.append(line)
        lines += ["", "\\end\\", ""]
        data = "\n".join(lines).encode("utf-8")
        try:
            if path.suffix == ".gz":
                with open(path, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as out:
                    out.write(data)
            else:
                path.write_bytes(data)
        except OSError as e:
            raise VictorError(f"{path}: cannot write the model ({e.strerror})") from e


def train(
    corpus: Iterable[Sequence[str]], order: int, min_count: int = 1, source: str = "training text"
) -> NgramModel:
    """Interpolated modified Kneser-Ney (Chen & Goodman 1998, with lmplz's
    choices: <s> counts as a left context, n-grams starting with <s> keep raw
    counts, unigrams interpolate with a uniform distribution whose share of
    unseen words becomes <unk>). n-grams above unigrams seen fewer than
    `min_count` times are pruned and their contexts' back-off weights
    recomputed, so that every distribution still sums to one."""
    if order < 2:
        raise VictorError(f"{source}: order {order} is too low; KenLM needs 2 or more")
    raw: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order + 1)]
    for sentence in corpus:
        padded = (BOS, *sentence, EOS)
        for n in range(1, order + 1):
            row = raw[n]
            for i in range(len(padded) - n + 1):
                row[padded[i:i + n]] += 1
    raw[1].pop((BOS,), None)
    if not raw[1]:
        raise VictorError(f"{source}: no words to train on")

    adjusted = _adjusted_counts(raw, order)
    vocab_size = len(adjusted[1]) + 1  # and <unk>
    probs: dict[tuple[str, ...], float] = {}
    for n in range(1, order + 1):
        discounts = _discounts(adjusted[n], n, source)
        by_context: dict[tuple[str, ...], list[tuple[tuple[str, ...], int]]] = defaultdict(list)
        for gram, count in adjusted[n].items():
            by_context[gram[:-1]].append((gram, count))
        for context, grams in by_context.items():
            total = sum(count for _, count in grams)
            gamma = sum(discounts[min(count, 3) - 1] for _, count in grams) / total
            for gram, count in grams:
                lower = probs[gram[1:]] if n > 1 else 1.0 / vocab_size
                probs[gram] = (count - discounts[min(count, 3) - 1]) / total + gamma * lower
            if n == 1:
                probs[(UNK,)] = gamma / vocab_size

    model = NgramModel(order)
    model.log10_probs = {g: math.log10(p) for g, p in probs.items() if len(g) == 1}
    model.log10_probs[(BOS,)] = _NEVER
    for n in range(2, order + 1):
        kept: dict[tuple[str, ...], list[tuple[str, ...]]] = defaultdict(list)
        for gram, count in raw[n].items():
            if count >= min_count:
                kept[gram[:-1]].append(gram)
        for context, grams in kept.items():
            # What the context keeps for itself; the rest of its mass goes to
            # the words it backs off for, in the proportions of the lower order.
            own = sum(probs[g] for g in grams)
            lower = sum(10.0 ** model.log10_prob(context[1:], g[-1]) for g in grams)
            model.log10_backoffs[context] = math.log10((1.0 - own) / (1.0 - lower))
        for grams in kept.values():
            for gram in grams:
                model.log10_probs[gram] = math.log10(probs[gram])
    return model


def _adjusted_counts(raw: list[Counter[tuple[str, ...]]], order: int) -> list[Counter[tuple[str, ...]]]:
    """Below the top order an n-gram counts the distinct words seen before
    it: a word that only ever follows one other word ("Francisco") should be
    unlikely after any other."""
    adjusted = [Counter() for _ in range(order + 1)]
    adjusted[order] = raw[order]
    for n in range(order - 1, 0, -1):
        for gram in raw[n + 1]:
            adjusted[n][gram[1:]] += 1
        for gram, count in raw[n].items():
            if gram[0] == BOS:
                adjusted[n][gram] = count
    return adjusted


def _discounts(counts: Counter[tuple[str, ...]], n: int, source: str) -> tuple[float, float, float]:
    """Chen & Goodman's estimates from how many n-grams were seen once, twice,
    three and four times."""
    seen = Counter(min(c, 5) for c in counts.values())
    n1, n2, n3, n4 = seen[1], seen[2], seen[3], seen[4]
    if min(n1, n2, n3, n4) > 0:
        y = n1 / (n1 + 2 * n2)
        discounts = (1 - 2 * y * n2 / n1, 2 - 3 * y * n3 / n2, 3 - 4 * y * n4 / n3)
        if all(0 < d < k for k, d in enumerate(discounts, start=1)):
            return discounts
    raise VictorError(f"{source}: too little text to estimate Kneser-Ney discounts for {n}-grams")


# --- training text -----------------------------------------------------------

_SEGMENT_MARK = re.compile(r"<[phl]>")


def text_paragraphs(path: Path) -> list[str]:
    """Plain text gives a paragraph a line; CleanEval gold files are taken as
    they are (the `URL:` line dropped, a paragraph a `<p>`/`<h>`/`<l>`
    segment), so the training pages' gold needs no conversion step."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff")
    except OSError as e:
        raise VictorError(f"{path}: cannot read the text ({e.strerror})") from e
    if text.startswith("URL:"):
        body = text.partition("\n")[2]
        return [collapse(segment) for segment in _SEGMENT_MARK.split(body)]
    return text.splitlines()


def sentence_words(paragraphs: Iterable[str]) -> Iterator[list[str]]:
    """The token sequences the model is trained on, split as scoring splits."""
    for paragraph in paragraphs:
        for sentence in sentences(paragraph):
            tokens = words(sentence)
            if tokens:
                yield tokens


# --- querying ------------------------------------------------------------------


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """KenLM writes a progress bar and advice to build a binary straight to
    file descriptor 2; a CLI that prints one number should not show them.
    Its errors still arrive as exceptions."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@dataclass(frozen=True)
class PerplexityModel:
    """A loaded language model; loading reads the whole file, so it happens
    only when someone asks for perplexities."""

    path: Path
    lm: kenlm.Model = field(repr=False)

    @classmethod
    def load(cls, path: Path | str = DEFAULT_MODEL) -> PerplexityModel:
        path = Path(path)
        if not path.is_file():
            raise VictorError(
                f"{path}: no language model there; train one with `python -m victor.perplexity train`"
            )
        kenlm = import_extra("kenlm", "kenlm", "the perplexity feature")
        config = kenlm.Config()
        config.show_progress = False
        try:
            with _quiet_stderr():
                lm = kenlm.Model(str(path), config)
        except (OSError, RuntimeError) as e:
            raise VictorError(
                f"{path}: not a language model KenLM can read (an ARPA file, gzipped or not, is expected)"
            ) from e
        return cls(path, lm)

    def score(self, sentence: str) -> float:
        """Perplexity per token, the end of sentence included, as KenLM and
        the paper count it. A sentence without words is not language at all:
        its perplexity is infinite, so any limit drops it."""
        tokens = words(sentence)
        if not tokens:
            return math.inf
        return 10.0 ** (-self.lm.score(" ".join(tokens)) / (len(tokens) + 1))

    def block_perplexity(self, text: str) -> float:
        """Mean perplexity of the block's sentences, so that one long fluent
        sentence does not hide a run of short junk ones. Sentences without
        words are left out (a trailing "|" says nothing about the rest); a
        block without any word is infinite, like such a sentence."""
        scores = [self.score(s) for s in sentences(text) if words(s)]
        return sum(scores) / len(scores) if scores else math.inf


def for_config(config) -> PerplexityModel | None:
    """The language model a config's perplexity extra needs (its
    perplexity-model, else DEFAULT_MODEL), or None when the extra is off:
    then no model is loaded at all."""
    if not config.extras.get("perplexity"):
        return None
    return PerplexityModel.load(config.perplexity_model or DEFAULT_MODEL)


@dataclass(frozen=True)
class PerplexityFilter:
    """The paper's cleaner: keep a sentence only if the model finds it no
    more perplexing than `limit`."""

    model: PerplexityModel
    limit: float

    def process(self, text: str) -> str:
        """Each line is a paragraph and keeps its kept sentences joined by a
        space; a line that loses every sentence disappears, so the output
        still reads as the page's paragraphs."""
        out = []
        for line in text.splitlines():
            kept = [s for s in sentences(line) if self.model.score(s) <= self.limit]
            if kept:
                out.append(" ".join(kept))
        return "\n".join(out)


# --- calibration ----------------------------------------------------------------

_BLOCK_TAGS = frozenset(
    "address article aside blockquote br center dd div dl dt fieldset figcaption figure footer"
    " form h1 h2 h3 h4 h5 h6 header hr li main nav ol option p pre section select table tbody"
    " td tfoot th thead tr ul".split()
)


def _page_blocks(data: bytes) -> list[str]:
    """The visible text of a page, a string per block-level element, so that
    a menu's items do not run into the article's first sentence."""
    import lxml.etree
    import lxml.html

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    text = re.sub(r"^\s*<\?xml[^>]*>", "", text)
    try:
        root = lxml.html.document_fromstring(text)
    except (lxml.etree.ParserError, ValueError):
        return []
    for element in list(root.iter("head", "script", "style", "noscript")):
        element.drop_tree()
    # Line breaks in the source are only spaces; blocks end at a separator
    # no page types by hand.
    for element in root.iter():
        if element.tag in _BLOCK_TAGS:
            element.text = "\u2029" + (element.text or "")
            element.tail = "\u2029" + (element.tail or "")
    return [block for block in map(collapse, root.text_content().split("\u2029")) if block]


def _is_gold(tokens: list[str], gold: list[set[tuple[str, ...]]]) -> bool:
    """A page sentence is gold when at least half of its word trigrams occur
    in the gold text (short ones: when all their words occur there in order),
    which tolerates the transcribers' typos and changed punctuation."""
    if len(tokens) < 3:
        return tuple(tokens) in gold[len(tokens)]
    trigrams = [tuple(tokens[i:i + 3]) for i in range(len(tokens) - 2)]
    return 2 * sum(t in gold[3] for t in trigrams) >= len(trigrams)


@dataclass(frozen=True)
class _Page:
    collection: str
    gold: list[list[str]]  # training sentences from the page's gold text
    sentences: list[tuple[list[str], bool]]  # page sentences, gold or not


def _load_pages(data_dir: Path) -> list[_Page]:
    gold_dir, html_dir = data_dir / "gold", data_dir / "html"
    if not gold_dir.is_dir() or not html_dir.is_dir():
        raise VictorError(f"{data_dir}: expected html/ and gold/ folders of training pages")
    pages = []
    for gold_path in sorted(gold_dir.glob("*.txt")):
        html_path = html_dir / f"{gold_path.stem}.html"
        if not html_path.is_file():
            continue
        gold = list(sentence_words(text_paragraphs(gold_path)))
        flat = [w for s in gold for w in s]
        grams = [set(), *({tuple(flat[i:i + n]) for i in range(len(flat) - n + 1)} for n in (1, 2, 3))]
        page = [
            (tokens, _is_gold(tokens, grams))
            for block in _page_blocks(html_path.read_bytes())
            for tokens in sentence_words([block])
        ]
        pages.append(_Page(data_dir.name, gold, page))
    if not pages:
        raise VictorError(f"{data_dir}: no page has both html/ID.html and gold/ID.txt")
    return pages


# Candidate limits: two significant digits from 10 to 990,000.
_LIMITS = np.array([m * 10.0**e for e in range(0, 5) for m in range(10, 100)])


def _f1_by_limit(ppl: np.ndarray, n_words: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """F1 of keeping gold words, for every candidate limit at once."""
    order = np.argsort(ppl)
    ppl, n_words, gold = ppl[order], n_words[order], gold[order]
    kept_all = np.concatenate([[0], np.cumsum(n_words)])
    kept_gold = np.concatenate([[0], np.cumsum(n_words * gold)])
    cut = np.searchsorted(ppl, _LIMITS, side="right")
    tp, kept, total_gold = kept_gold[cut], kept_all[cut], kept_gold[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = 2 * tp / (kept + total_gold)
    return np.nan_to_num(f1)


def _keep_all_f1(n_words: np.ndarray, gold: np.ndarray) -> float:
    precision = (n_words * gold).sum() / n_words.sum()
    return float(2 * precision / (precision + 1))


def calibrate(
    data_dirs: Sequence[Path], order: int, min_count: int, folds: int = 5, seed: int = 0
) -> tuple[float, list[str]]:
    """Pick the limit that maximises F1 of keeping gold words, and say how
    well it generalises. Every sentence is scored by a model trained on the
    gold of the *other* folds' pages, as the shipped model will meet new
    pages; then each fold's F1 is measured at the limit chosen on the other
    folds. Returns the limit chosen on all folds, and a report."""
    pages = [page for d in data_dirs for page in _load_pages(d)]
    fold_of = [0] * len(pages)
    shuffled = list(range(len(pages)))
    random.Random(seed).shuffle(shuffled)
    # Each collection is spread over all folds, so no fold lacks one kind of gold.
    for collection in sorted({p.collection for p in pages}):
        members = [i for i in shuffled if pages[i].collection == collection]
        for rank, i in enumerate(members):
            fold_of[i] = rank % folds

    rows: list[tuple[float, int, bool, int, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for fold in range(folds):
            corpus = (s for i, p in enumerate(pages) if fold_of[i] != fold for s in p.gold)
            path = Path(tmp) / f"fold{fold}.arpa"
            train(corpus, order, min_count, source=f"fold {fold}").write_arpa(path)
            model = PerplexityModel.load(path)
            for i, page in enumerate(pages):
                if fold_of[i] == fold:
                    rows += [
                        (model.score(" ".join(t)), len(t), is_gold, fold, page.collection)
                        for t, is_gold in page.sentences
                    ]
    ppl = np.array([r[0] for r in rows])
    n_words = np.array([r[1] for r in rows])
    gold = np.array([r[2] for r in rows], dtype=float)
    fold_ids = np.array([r[3] for r in rows])
    collections = np.array([r[4] for r in rows])

    report = [f"{len(pages)} pages, {len(rows)} sentences, order {order}, min-count {min_count}"]
    report.append("fold  limit(other folds)  F1(this fold)  F1(keep all)")
    fold_f1 = []
    for fold in range(folds):
        train_rows, test_rows = fold_ids != fold, fold_ids == fold
        limit = _LIMITS[np.argmax(_f1_by_limit(ppl[train_rows], n_words[train_rows], gold[train_rows]))]
        f1 = _f1_by_limit(ppl[test_rows], n_words[test_rows], gold[test_rows])[_LIMITS == limit][0]
        fold_f1.append(f1)
        baseline = _keep_all_f1(n_words[test_rows], gold[test_rows])
        report.append(f"{fold:4d}  {limit:18.0f}  {f1:13.4f}  {baseline:12.4f}")
    report.append(f"cross-validated F1: {np.mean(fold_f1):.4f} ± {np.std(fold_f1):.4f}")
    best = float(_LIMITS[np.argmax(_f1_by_limit(ppl, n_words, gold))])
    for collection in sorted(set(collections)):
        rows_c = collections == collection
        f1 = _f1_by_limit(ppl[rows_c], n_words[rows_c], gold[rows_c])[_LIMITS == best][0]
        baseline = _keep_all_f1(n_words[rows_c], gold[rows_c])
        report.append(f"{collection}: F1 {f1:.4f} at limit {best:.0f} (keep all: {baseline:.4f})")
    report.append(f"limit chosen on all folds: {best:.0f}")
    return best, report


# --- command line -------------------------------------------------------------------


def _format(perplexity: float) -> str:
    return f"{perplexity:.1f}"


def _run(args: argparse.Namespace) -> None:
    if args.command == "train":
        paragraphs = (p for path in args.texts for p in text_paragraphs(path))
        source = f"{args.texts[0]}" + (f" and {len(args.texts) - 1} more files" if len(args.texts) > 1 else "")
        train(sentence_words(paragraphs), args.order, args.min_count, source).write_arpa(args.output)
    elif args.command == "score":
        if (args.sentence is None) == (args.file is None):
            raise VictorError("score: give either a sentence or --file FILE, not both or neither")
        model = PerplexityModel.load(args.model)
        if args.sentence is not None:
            print(_format(model.score(args.sentence)))
            return
        try:
            lines = args.file.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as e:
            raise VictorError(f"{args.file}: cannot read the sentences ({e.strerror})") from e
        print("\n".join(_format(model.score(line)) for line in lines))
    else:
        _, report = calibrate(args.data, args.order, args.min_count, args.folds, args.seed)
        print("\n".join(report))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m victor.perplexity", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    trainer = commands.add_parser("train", help="train a Kneser-Ney model from text files into ARPA")
    trainer.add_argument("--order", type=int, choices=(2, 3), default=2)
    trainer.add_argument("--min-count", type=int, default=1, help="prune n-grams above unigrams seen fewer times")
    trainer.add_argument("-o", "--output", type=Path, required=True, help="ARPA file to write (.gz: gzipped)")
    trainer.add_argument("texts", type=Path, nargs="+", help="plain text, a paragraph a line, or CleanEval gold")
    scorer = commands.add_parser("score", help="print the perplexity of a sentence, or of each line of a file")
    scorer.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    scorer.add_argument("--file", type=Path)
    scorer.add_argument("sentence", nargs="?")
    calibrator = commands.add_parser("calibrate", help="choose a limit by cross-validation over training pages")
    calibrator.add_argument("--order", type=int, choices=(2, 3), default=2)
    calibrator.add_argument("--min-count", type=int, default=1)
    calibrator.add_argument("--folds", type=int, default=5)
    calibrator.add_argument("--seed", type=int, default=0)
    calibrator.add_argument("data", type=Path, nargs="+", help="folders with html/ID.html and gold/ID.txt")
    args = parser.parse_args(argv)
    try:
        _run(args)
    except VictorError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
