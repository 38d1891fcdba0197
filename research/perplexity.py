"""Research on the perplexity filter, outside the runtime package: the
calibration of the filter's limit, with its own plain HTML-to-blocks
reading of the pages, independent of Victor's pipeline.

    python -m research.perplexity calibrate DATA_DIR...

Training and scoring models is the package's (`victor lm train`, `victor lm
score`: victor/perplexity/); docs/notes/perplexity.md.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from victor.errors import VictorError
from victor.training import evaluate
from victor.training.crossval import FoldResult, fold_language_model, fold_tasks
from victor.training.dataset import Example
from victor.perplexity.ngram import sentence_words, text_paragraphs, train
from victor.perplexity import PerplexityFilter, PerplexityModel
from victor.reading.text import collapse

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


def _run(args: argparse.Namespace) -> None:
    _, report = calibrate(args.data, args.order, args.min_count, args.folds, args.seed)
    print("\n".join(report))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m research.perplexity", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
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


# --- the filter on the CRF's folds ------------------------------------------------

def cross_validate_filter(examples: list[Example], k: int, limit: float,
                          workdir: str, split: str = "site") -> list[FoldResult]:
    """The perplexity filter on its own (no CRF), on the folds of
    cross_validate: every block of a test page is a line of its text, and
    the filter under a language model of the other folds' gold keeps the
    sentences at most `limit` perplexing. Scored by words and shingles as
    the CRF is; the filter keeps sentences, not blocks, so the block
    accuracies are NaN."""
    results = []
    for i, train_set, test_set in fold_tasks(examples, k, split):
        lm = fold_language_model(train_set, Path(workdir) / f"fold{i}.arpa")
        keep = PerplexityFilter(lm, limit)
        words = shingles = evaluate.Overlap(0, 0, 0)
        for e in test_set:
            score = evaluate.score_page(e.name, keep.process("\n".join(e.texts)), e.gold)
            words += score.words
            shingles += score.shingles
        results.append(FoldResult(i, len(test_set), sum(len(e.labels) for e in test_set),
                                  math.nan, math.nan, words, shingles))
    return results
