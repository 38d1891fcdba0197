"""Does what a block says (WordLlama's pooled token embeddings) add to the trees'
held-out probability on sites never seen? A stacker over a saved draw's trees'
probability, with and without the embedding, cross-fitted by web site (5 groups),
then decided and scored as research.held_out replays (docs/notes/general.md, Tried,
not kept: WordLlama).

    pip install wordllama   # not a dependency of Victor: this try only
    DIM=64 python3 -m research.wordllama_stack RUNS/seed0.pkl

WordLlama's wheel carries its table and tokenizer; `cache_dir` at its package
folder keeps it from fetching anything."""
import os
import pickle
import sys
import time
from statistics import mean
from urllib.parse import urlparse
import numpy as np
import lightgbm as lgb
from research.held_out import _HEADLINE, _here, figures, replayed
from victor.config import load_config
from victor.annotation.annofile import load_annotation

def main() -> None:
    DIM = int(os.environ.get("DIM", "64"))
    run = pickle.load(open(sys.argv[1], "rb"))
    config = load_config("general")
    from wordllama import WordLlama
    import wordllama
    wl = WordLlama.load(cache_dir=os.path.dirname(wordllama.__file__), disable_download=True, trunc_dim=DIM)

    rows_q, rows_raw, rows_emb, rows_y, rows_g, rows_pos, spans = [], [], [], [], [], [], []
    t = time.time()
    for i, p in enumerate(run["predictions"]):
        blocks, found = run["layout"][p.name]
        ann = load_annotation(_here(p.name))
        assert len(ann.labels) == len(blocks), p.name
        site = urlparse(ann.url).netloc.lower().removeprefix("www.") or p.name.rsplit("/", 2)[-2] + str(i)
        q = np.asarray(run["second"][i], dtype=float)
        texts = [b if b.strip() else " " for b in blocks]
        emb = wl.embed(texts, norm=True).astype(np.float32)
        start = len(rows_y)
        rows_q.extend(q); rows_raw.extend(p.raw_content); rows_emb.append(emb)
        rows_y.extend(int(l != "o") for l in ann.labels)
        rows_g.extend([site] * len(blocks))
        n = len(blocks)
        rows_pos.extend(np.arange(n) / max(n - 1, 1))
        spans.append((start, start + n))
    print("embedded", len(rows_y), "blocks in", round(time.time() - t), "s", flush=True)
    emb = np.vstack(rows_emb)
    def logit(x):
        x = np.clip(np.asarray(x, dtype=float), 1e-4, 1 - 1e-4); return np.log(x / (1 - x))
    # page context: the page's mean embedding, and the block's neighbours' mean
    page_mean = np.zeros_like(emb); nb = np.zeros_like(emb)
    for a, b in spans:
        page_mean[a:b] = emb[a:b].mean(0)
        e = emb[a:b]; pad = np.vstack([e[:1], e, e[-1:]])
        nb[a:b] = (pad[:-2] + pad[2:]) / 2
    base = np.column_stack([logit(rows_q), logit(rows_raw), rows_pos]).astype(np.float32)
    y = np.asarray(rows_y)
    sites = sorted(set(rows_g)); rng = np.random.default_rng(0); rng.shuffle(sites)
    fold_of = {s: i % 5 for i, s in enumerate(sites)}
    fold = np.array([fold_of[g] for g in rows_g])
    def stacked(X):
        out = np.zeros(len(y))
        for f in range(5):
            tr, te = fold != f, fold == f
            m = lgb.train({"objective": "binary", "learning_rate": 0.1, "num_leaves": 31, "min_data_in_leaf": 100,
                           "verbose": -1, "num_threads": 1, "feature_fraction": 0.8, "seed": 0},
                          lgb.Dataset(X[tr], y[tr]), 150)
            out[te] = m.predict(X[te])
        return out
    variants = {"stack q only": base,
                "stack q + block": np.hstack([base, emb]),
                "stack q + block + page + neighbours": np.hstack([base, emb, emb - page_mean, nb])}
    def replay_with(qq):
        row = figures(replayed(run, config, second=[qq[a:b] for a, b in spans]))
        row["mean3"] = mean(row[k] for k in _HEADLINE)
        return row
    keys = ["cleaneval-dev LCS", "dragnet-train LCS", "wcxb-dev bag", "wcxb article", "wcxb collection", "wcxb forum", "wcxb listing", "wcxb product", "wcxb service", "wcxb documentation", "mean3"]
    r = replay_with(np.asarray(rows_q)); print("as saved:", "  ".join(f"{k} {r[k]:.4f}" for k in keys), flush=True)
    for name, X in variants.items():
        t = time.time(); qq = stacked(X)
        from sklearn.metrics import roc_auc_score
        r = replay_with(qq)
        print(f"{name} (AUC {roc_auc_score(y, qq):.4f}, {round(time.time()-t)} s):", "  ".join(f"{k} {r[k]:.4f}" for k in keys), flush=True)


if __name__ == "__main__":
    main()
