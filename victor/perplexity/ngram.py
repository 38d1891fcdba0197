"""n-gram language models: a small modified Kneser-Ney estimator of our
own that writes the standard ARPA format, the training text, and a reader
of ARPA files that scores sentences as KenLM does.

No maintained pure-Python ARPA trainer exists, and KenLM's own trainer is
a C++ program outside the pip package. KenLM, where it is installed,
scores faster (victor/perplexity/); the reader here lets the perplexity
feature and filter work, and be tested, with nothing compiled.

Tokens are the lower-cased words of `victor.reading.text.words`: punctuation, case
and spacing are dropped both when training and when scoring. Menus and
link lists differ from prose in which words follow which, not in their
separators, and the gold transcripts that the model learns from punctuate
unlike the pages.
"""

from __future__ import annotations

import gzip
import io
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from victor.errors import VictorError
from victor.files import replace_together
from victor.reading.text import collapse, sentences, words

BOS, EOS, UNK = "<s>", "</s>", "<unk>"

# The shipped model's order and pruning (docs/notes/perplexity.md): bigrams seen
# twice or more cross-validated as well as trigrams, in a model half the size.
ORDER = 2
MIN_COUNT = 2

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

    def log10_sentence(self, tokens: Sequence[str]) -> float:
        """The sentence's log10 probability after <s>, its end included: what
        KenLM's `Model.score` gives, so that the two engines agree."""
        history: tuple[str, ...] = (BOS,)
        keep = self.order - 1
        total = 0.0
        for word in (*tokens, EOS):
            total += self.log10_prob(history, word)
            history = (*history, word)[-keep:]
        return total

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
        if path.suffix == ".gz":
            packed = io.BytesIO()
            with gzip.GzipFile(filename="", fileobj=packed, mode="wb", mtime=0) as out:
                out.write(data)
            data = packed.getvalue()
        try:
            replace_together({path: data})  # whole or not at all
        except OSError as e:
            raise VictorError(f"{path}: cannot write the model ({e.strerror or e})") from None


# KenLM's probability for <unk> when an ARPA file lists none.
_MISSING_UNK = -100.0


def read_arpa(path: Path) -> NgramModel:
    """An ARPA file (gzipped if its name ends in .gz) as a model, with the
    checks that keep a cut-short or foreign file from scoring silently
    wrong: the counts of its header must match its sections and it must
    reach its end marker."""
    def bad(why: str) -> VictorError:
        return VictorError(f"{path}: not a language model Victor can read ({why}; "
                           "an ARPA file, gzipped or not, is expected)")

    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rt", encoding="utf-8") as f:
                text = f.read()
        else:
            text = path.read_text(encoding="utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise bad(str(e).splitlines()[0] if str(e) else type(e).__name__) from None
    lines = iter(text.splitlines())
    if not any(line.strip() == "\\data\\" for line in lines):
        raise bad("no \\data\\ header")
    counts: dict[int, int] = {}
    line = ""
    for line in lines:
        if (m := re.fullmatch(r"ngram (\d+)=(\d+)", line.strip())):
            counts[int(m[1])] = int(m[2])
        elif line.strip():
            break
    if not counts or sorted(counts) != list(range(1, len(counts) + 1)):
        raise bad("no n-gram counts in its header")
    model = NgramModel(len(counts))
    seen = {n: 0 for n in counts}
    n = 0
    for line in (line, *lines):
        line = line.strip()
        if not line:
            continue
        if (m := re.fullmatch(r"\\(\d+)-grams:", line)):
            n = int(m[1])
            if n not in counts:
                raise bad(f"a section of {n}-grams the header does not count")
            continue
        if line == "\\end\\":
            break
        parts = line.split("\t")
        try:
            gram = tuple(parts[1].split())
            model.log10_probs[gram] = float(parts[0])
            if len(parts) > 2:
                model.log10_backoffs[gram] = float(parts[2])
        except (IndexError, ValueError):
            raise bad(f"line {line[:40]!r}") from None
        if len(gram) != n:
            raise bad(f"{len(gram)} words in the {n}-grams")
        seen[n] += 1
    else:
        raise bad("cut short before \\end\\")
    if seen != counts:
        raise bad(f"header counts {counts}, sections hold {seen}")
    model.log10_probs.setdefault((UNK,), _MISSING_UNK)
    return model


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


def train_on_files(paths: Sequence[Path], order: int = ORDER,
                   min_count: int = MIN_COUNT) -> NgramModel:
    """A model of the sentences of text files (text_paragraphs reads each),
    as `victor lm train` makes one; an unreadable file or too little text
    is a one-line error naming the files."""
    if not paths:
        raise VictorError("no text files to train a language model on")
    paragraphs = (p for path in paths for p in text_paragraphs(Path(path)))
    source = str(paths[0]) + (f" and {len(paths) - 1} more files" if len(paths) > 1 else "")
    return train(sentence_words(paragraphs), order, min_count, source)


def sentence_words(paragraphs: Iterable[str]) -> Iterator[list[str]]:
    """The token sequences the model is trained on, split as scoring splits."""
    for paragraph in paragraphs:
        for sentence in sentences(paragraph):
            tokens = words(sentence)
            if tokens:
                yield tokens
