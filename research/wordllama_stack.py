"""Does what a block says (WordLlama's pooled token embeddings) add to the trees'
held-out probability on sites never seen? A stacker (research.stacking) over a
saved draw with and without the embedding (docs/notes/general.md, Tried, not
kept: WordLlama).

    pip install wordllama   # not a dependency of Victor: this try only
    DIM=64 python3 -m research.wordllama_stack RUNS/seed0.pkl

WordLlama's wheel carries its table and tokenizer; `cache_dir` at its package
folder keeps it from fetching anything."""
import os
import pickle
import sys
import time

import numpy as np
from sklearn.metrics import roc_auc_score

from research.stacking import Rows, cross_fit, rows_of, scored, shown
from victor.config import load_config


def embedded(rows: Rows, dim: int) -> np.ndarray:
    """Every block's WordLlama vector, its first `dim` dimensions, of length 1."""
    from wordllama import WordLlama
    import wordllama
    wl = WordLlama.load(cache_dir=os.path.dirname(wordllama.__file__), disable_download=True,
                        trunc_dim=dim)
    t = time.time()
    emb = np.vstack([wl.embed([b if b.strip() else " " for b in blocks], norm=True)
                     for blocks in rows.blocks]).astype(np.float32)
    print("embedded", len(rows.y), "blocks in", round(time.time() - t), "s", flush=True)
    return emb


def main() -> None:
    dim = int(os.environ.get("DIM", "64"))
    run = pickle.load(open(sys.argv[1], "rb"))
    config = load_config("general")
    rows = rows_of(run)
    emb = embedded(rows, dim)
    # page context: the page's mean embedding, and the block's neighbours' mean
    page_mean = np.zeros_like(emb); nb = np.zeros_like(emb)
    for a, b in rows.spans:
        page_mean[a:b] = emb[a:b].mean(0)
        e = emb[a:b]; pad = np.vstack([e[:1], e, e[-1:]])
        nb[a:b] = (pad[:-2] + pad[2:]) / 2
    base = rows.base()
    variants = {"stack q only": base,
                "stack q + block": np.hstack([base, emb]),
                "stack q + block + page + neighbours": np.hstack([base, emb, emb - page_mean, nb])}
    print(shown("as saved", scored(run, config, rows, rows.q)), flush=True)
    for name, X in variants.items():
        t = time.time(); qq = cross_fit(X, rows)
        print(shown(f"{name} (AUC {roc_auc_score(rows.y, qq):.4f}, {round(time.time() - t)} s)",
                    scored(run, config, rows, qq)), flush=True)


if __name__ == "__main__":
    main()
