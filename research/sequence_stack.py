"""Does the page as context, read with what each block says, add to the
trees' held-out probability on sites never seen? Issue 65's last bullet: a
small sequence model over a page's blocks, as htmlsift's CPU model runs a
BiGRU over a page's lines. A block's words alone, pooled, added little and
not where products lose (docs/notes/general.md, "Tried, not kept": `says`,
WordLlama); a card's name, a price or an "also viewed" carousel may only
say what it is beside its neighbours.

Each page is a sequence of its blocks. A block enters as the saved draw's
columns (research.stacking's `Rows.base()`: the trees' held-out
probability, the CRF's, the block's place) and its length, and optionally
as what it says: its lower-cased words (digits made 0, so that prices
share their shape) and the character 3-grams of its first characters,
hashed by CRC-32 into a table of trainable vectors pooled by mean (an
EmbeddingBag: no tokenizer, any language, a table lookup at cleaning time).
Only buckets that enough of the training folds' web sites use are read: a
table learns a site's own names and menus first, and they say nothing of
another site. A BiGRU over the page's blocks gives each block its content
probability; its output starts as the trees' logit, so that it learns what
to change in their reading. The loss weighs a block by the square root of
its words: the scores count words, yet the many short blocks (prices,
names, buttons) are what products lose on. It is trained on windows of the
pages and run over whole pages, cross-fitted on research.stacking's groups
of web sites, and scored by the replay beside the LightGBM stacker over
the same columns (the control) and the trees as saved.

    pip install torch==2.13.0   # research only: not a dependency of Victor
    python3 -m research.sequence_stack RUNS/seed0.pkl

It prints the trees as saved, the control, the sequence model without the
words and with them. EPOCHS, HIDDEN, DIM, BUCKETS (a power of two) and
LEAST (the web sites a bucket must be used on) set the model;
WORDLLAMA=64 adds a variant reading WordLlama's fixed vectors of the
blocks (research.wordllama_stack, `pip install wordllama`) in place of the
hashed words; ONLY=TEXT runs only the variants whose name holds TEXT, and
leaves out the trees and the control.
"""
from __future__ import annotations

import os
import pickle
import sys
import time
import zlib

import numpy as np
import torch
from sklearn.metrics import roc_auc_score
from torch import nn

from research.stacking import Rows, cross_fit, rows_of, scored, shown, site_folds
from victor.config import load_config
from victor.reading.text import words

_DIGITS = str.maketrans("123456789", "000000000")
_WINDOW, _STEP, _BATCH = 256, 192, 128


def _tokens(text: str, most: int = 64, prefix: int = 48) -> list[str]:
    """A block's words and the character 3-grams of its start, the first
    `most` words only: a long block's length already says it is prose."""
    ws = [w.translate(_DIGITS) for w in words(text)[:most]]
    head = " ".join(ws)[:prefix]
    return ws + ["#" + head[i:i + 3] for i in range(max(len(head) - 2, 0))]


def hashed(rows: Rows, buckets: int) -> tuple[np.ndarray, np.ndarray]:
    """Every block's tokens as bucket numbers, one flat array, and each
    block's start in it (one more start at the end)."""
    ids, starts = [], [0]
    for blocks in rows.blocks:
        for text in blocks:
            ids.extend(zlib.crc32(t.encode()) % buckets for t in _tokens(text))
            starts.append(len(ids))
    return np.asarray(ids, np.int64), np.asarray(starts, np.int64)


def shared(ids: np.ndarray, starts: np.ndarray, pages, site: np.ndarray, buckets: int,
           least: int) -> np.ndarray:
    """`ids` with each bucket that fewer than `least` of the `pages`' web
    sites use made `buckets` (nothing): a site's own words (its name, its
    menus) are what a table learns first, and they say nothing of another
    site's blocks."""
    pairs = np.unique(np.concatenate([
        site[a] * (buckets + 1) + np.unique(ids[starts[a]:starts[b]]) for a, b in pages]))
    sites_of = np.bincount(pairs % (buckets + 1), minlength=buckets + 1)
    return np.where(sites_of[ids] >= least, ids, buckets)


def columns(rows: Rows) -> tuple[np.ndarray, np.ndarray]:
    """The blocks' dense columns, and each block's word count."""
    n = np.array([len(words(t)) for blocks in rows.blocks for t in blocks], np.float32)
    return np.column_stack([rows.base(), np.log1p(n) / 4]).astype(np.float32), n


class Reader(nn.Module):
    """Dense columns and a pooled table of hashed tokens per block, a GRU
    each way over the page's blocks, and a logit per block."""

    def __init__(self, dense: int, buckets: int, dim: int, hidden: int, dropout: float = 0.3):
        super().__init__()
        # bucket number `buckets`: a token too few sites share, read as nothing
        self.table = (nn.EmbeddingBag(buckets + 1, dim, mode="mean", padding_idx=buckets)
                      if dim else None)
        if self.table is not None:
            # small vectors at first: random ones are noise the GRU would learn to read
            nn.init.normal_(self.table.weight, std=0.02)
        self.drop = nn.Dropout(dropout)
        self.into = nn.Sequential(nn.Linear(dense + dim, hidden), nn.Tanh())
        self.ahead = nn.GRU(hidden, hidden, batch_first=True)
        self.back = nn.GRU(hidden, hidden, batch_first=True)
        # the columns themselves beside the GRU's reading, and at first the
        # trees' logit alone (Rows.base()'s first column): the model learns
        # what to change in the trees' reading, from where they stand
        self.out = nn.Linear(dense + dim + 3 * hidden, 1)
        with torch.no_grad():
            self.out.weight.zero_()
            self.out.bias.zero_()
            self.out.weight[0, 0] = 1.0

    def forward(self, dense, ids, offsets, lengths):
        """dense: (pages, blocks, columns); ids and offsets: the tokens of
        the batch's blocks in the same order, padding left out."""
        x = dense
        if self.table is not None:
            pooled = self.drop(self.table(ids, offsets))
            said = torch.zeros(*dense.shape[:2], pooled.shape[1])
            said[_mask(lengths, dense.shape[1])] = pooled
            x = torch.cat([dense, said], -1)
        h = self.into(x)
        flip = _reversed(lengths, dense.shape[1])[..., None].expand_as(h)
        back = self.back(h.gather(1, flip))[0].gather(1, flip)
        return self.out(torch.cat([x, h, self.ahead(h)[0], back], -1)).squeeze(-1)


def _reversed(lengths: torch.Tensor, width: int) -> torch.Tensor:
    """Indices that reverse each sequence within its length, its padding
    left at the end: a GRU run over the padded batch (far faster on a CPU
    than over packed sequences) then reads no padding before a block."""
    t = torch.arange(width)[None, :]
    return torch.where(t < lengths[:, None], lengths[:, None] - 1 - t, t)


def _mask(lengths: torch.Tensor, width: int) -> torch.Tensor:
    return torch.arange(width)[None, :] < lengths[:, None]


def _batch(pieces, dense, ids, starts):
    """Pieces (first, last block) of pages as padded tensors; the blocks'
    tokens as an EmbeddingBag's flat input."""
    lengths = np.array([b - a for a, b in pieces])
    width = lengths.max()
    x = np.zeros((len(pieces), width, dense.shape[1]), np.float32)
    for i, (a, b) in enumerate(pieces):
        x[i, :b - a] = dense[a:b]
    block = np.concatenate([np.arange(a, b) for a, b in pieces])
    first, count = starts[block], starts[block + 1] - starts[block]
    offsets = np.concatenate([[0], np.cumsum(count)[:-1]])
    flat = np.repeat(first - offsets, count) + np.arange(count.sum())
    return (torch.from_numpy(x), torch.from_numpy(ids[flat]), torch.from_numpy(offsets),
            torch.from_numpy(lengths)), block


def _windows(spans, rng) -> list[tuple[int, int]]:
    """Each page in windows of _WINDOW blocks, _STEP apart after a random
    first step, so that an epoch's cuts differ from the last's."""
    out = []
    for a, b in spans:
        for s in [a, *range(a + int(rng.integers(1, _STEP)), b, _STEP)]:
            out.append((s, min(s + _WINDOW, b)))
            if s + _WINDOW >= b:
                break
    return out


def fit_predict(train, test, dense, ids, starts, y, weight, buckets, dim, hidden, epochs):
    """A Reader trained on the `train` pages' windows, its probability for
    every block of the `test` pages, each run whole."""
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    model = Reader(dense.shape[1], buckets, dim, hidden)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    yt, wt = torch.from_numpy(y.astype(np.float32)), torch.from_numpy(weight)
    for _ in range(epochs):
        pieces = _windows(train, rng)
        rng.shuffle(pieces)
        model.train()
        for i in range(0, len(pieces), _BATCH):
            inputs, block = _batch(pieces[i:i + _BATCH], dense, ids, starts)
            logits = model(*inputs)[_mask(inputs[3], inputs[0].shape[1])]
            loss = nn.functional.binary_cross_entropy_with_logits(
                logits, yt[block], weight=wt[block], reduction="sum") / wt[block].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    out = np.zeros(len(y))
    order = sorted(test, key=lambda s: s[1] - s[0])
    with torch.no_grad():
        for i in range(0, len(order), _BATCH):
            inputs, block = _batch(order[i:i + _BATCH], dense, ids, starts)
            logits = model(*inputs)[_mask(inputs[3], inputs[0].shape[1])]
            out[block] = torch.sigmoid(logits).numpy()
    return out


def sequence_cross_fit(rows: Rows, dim: int, hidden: int, buckets: int, least: int,
                       epochs: int, vectors: np.ndarray | None = None) -> np.ndarray:
    """Each block's probability from a Reader that saw none of its web
    site's pages (research.stacking's groups), reading its words (`dim`
    above 0) by the buckets at least `least` of the training sites use,
    and fixed `vectors` of the blocks if given."""
    dense, n = columns(rows)
    if vectors is not None:
        dense = np.hstack([dense, vectors])
    ids, starts = hashed(rows, buckets)
    weight = np.sqrt(np.maximum(n, 1)).astype(np.float32)
    fold = site_folds(rows)
    number = {s: i for i, s in enumerate(sorted(set(rows.site)))}
    site = np.array([number[s] for s in rows.site])
    page_fold = [fold[a] for a, _ in rows.spans]
    out = np.zeros(len(rows.y))
    for f in sorted(set(page_fold)):
        train = [s for s, g in zip(rows.spans, page_fold) if g != f]
        test = [s for s, g in zip(rows.spans, page_fold) if g == f]
        q = fit_predict(train, test, dense, shared(ids, starts, train, site, buckets, least),
                        starts, rows.y, weight, buckets, dim, hidden, epochs)
        for a, b in test:
            out[a:b] = q[a:b]
    return out


def main() -> None:
    torch.set_num_threads(1)
    env = os.environ.get
    hidden, dim, least = int(env("HIDDEN", "32")), int(env("DIM", "16")), int(env("LEAST", "30"))
    buckets, epochs = int(env("BUCKETS", str(2 ** 17))), int(env("EPOCHS", "2"))
    run = pickle.load(open(sys.argv[1], "rb"))
    config = load_config("general")
    rows = rows_of(run)
    if not env("ONLY"):
        print(shown(f"as saved (AUC {roc_auc_score(rows.y, rows.q):.4f})",
                    scored(run, config, rows, rows.q)), flush=True)
        t = time.time(); qq = cross_fit(rows.base(), rows)
        print(shown(f"stack q only (AUC {roc_auc_score(rows.y, qq):.4f}, "
                    f"{round(time.time() - t)} s)", scored(run, config, rows, qq)), flush=True)
    variants = {f"GRU {hidden} each way": (0, None),
                f"GRU {hidden} each way + words {dim}x{buckets}, {least} sites": (dim, None)}
    if env("WORDLLAMA"):
        from research.wordllama_stack import embedded
        variants[f"GRU {hidden} each way + WordLlama {env('WORDLLAMA')}"] = (
            0, embedded(rows, int(env("WORDLLAMA"))))
    for name, (d, vectors) in variants.items():
        if env("ONLY") and env("ONLY") not in name:
            continue
        t = time.time()
        qq = sequence_cross_fit(rows, d, hidden, buckets, least, epochs, vectors)
        print(shown(f"{name}, {epochs} epochs (AUC {roc_auc_score(rows.y, qq):.4f}, "
                    f"{round(time.time() - t)} s)", scored(run, config, rows, qq)), flush=True)


if __name__ == "__main__":
    main()
