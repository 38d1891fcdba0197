"""Issue 49's levers measured on a saved held-out first pass: the page's
type (and page-level signals of the page's shape) for the second pass's
trees, and bars by page type (docs/notes/second-pass.md, "Page types").

    python3 -m research.page_types prepare RUN.pkl LAYOUT.pkl CACHE.pkl   # every page read once
    python3 -m research.page_types classify CACHE.pkl [--seed 1 --out T1.pkl]
    python3 -m research.page_types trees CACHE.pkl --seed 0 --columns types
    python3 -m research.page_types bars CACHE.pkl 'article:0.9=0.5,0.4,-' [--q Q.pkl] [--types T1.pkl]
    python3 -m research.page_types decide CACHE.pkl --config article --unset comment-sections
    python3 -m research.page_types mix CACHE.pkl QTYPES.pkl 'many:0.5' [--q Q.pkl]

RUN.pkl is a held-out first pass of the default config pickled as
/work/runs/general.pkl is (`preds`: each page's crossval Prediction,
`fold`: its site fold, `q`: the trees' cross-fitted probabilities, seeds 0
and 1), LAYOUT.pkl each page's block texts and Layout. `prepare` reads
every page again as `victor learn` does and keeps the trees' matrix
(PAGE_FEATURES and the first pass's columns, as
victor.training.second_pass builds it) and the page-level signals of
`page_signals`. `classify` cross-fits a LightGBM classifier of WCXB's
seven page types on the same site folds (trained on the other folds'
WCXB pages, whose type their meta gives; every page of the fold,
Dragnet's and CleanEval's too, gets its probabilities), since a page being
cleaned has no meta. `trees` cross-fits the second pass's trees with
page-level columns added (`--check`: none, fold 1 only, against the saved
probabilities) and scores every page decided by victor.decoding.decide
as benchmarks.quality scores it. `bars` decides the saved (or `--q`'s)
probabilities again with other bars for the pages of a type: SPEC is
TYPE:P=KEEP,ADD,FLOOR, `;` between rules, FLOOR `-` for no page bar.
`decide` decides every page by a shipped config as it is now, with each
page's layout found again from the page (a layout of the cache may be
older than a key), against the same config with a second-pass key unset.
`mix` takes a `trees --save` file's probabilities for the pages a rule
names (`many:P`: a collection or a listing together at P or more;
`notart:P`: not an article at P or more) and the saved ones elsewhere,
or (`avg:W`) on every page the two averaged, the file's weighed W;
decided as shipped (an article at 0.9 its bars).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from benchmarks.quality.running import COLLECTIONS, pages_of
from benchmarks.quality.scoring import score
from victor import decoding, features, output, page_type
from victor.annotation import load_training_page
from victor.page_type import TYPES
from victor.config import DEFAULT_CONFIG, load_config
from victor.second_pass import mean_probability, page_paths, predict_options
from victor.second_pass.features import fast_features, feature_names, first_columns

ROOT = Path(__file__).resolve().parent.parent

# --- page-level signals: what the page says it is, and its shape ----------
# Since issue 49's landing they are victor.page_type's (the same values as
# this file's regular expressions over the raw page gave, on the pages
# compared); a cache made before reads as it was.


def page_signals(page, url: str, paths: np.ndarray) -> dict[str, float]:
    return page_type.signals(page, paths, url)


# --- the saved run --------------------------------------------------------


def _here(name: str) -> str:
    """The clone's copy of a page the run named by another clone's path."""
    i = name.find("/data/")
    return str(ROOT) + name[i:] if i >= 0 else name


def prepare(run_path: str, layout_path: str, cache: str) -> None:
    config = load_config(DEFAULT_CONFIG)
    settings = config.second_pass
    with open(run_path, "rb") as f:
        run = pickle.load(f)
    with open(layout_path, "rb") as f:
        layout = pickle.load(f)
    selected = features.select_features(config, ())
    shipped = ROOT / "victor" / "models" / "general" / "second-pass.lgbm"
    import lightgbm
    from victor.second_pass import split_models
    names = [n[len("crf."):] for n in
             lightgbm.Booster(model_str=split_models(shipped.read_text())[0]).feature_name()[32:]]
    pages = []
    seen: set[str] = set()
    started = time.time()
    for i, (name, p) in enumerate(run["preds"].items()):
        texts, found = layout[name]
        widened, _ = decoding.widened(p.path, p.marginals, texts, found, config)
        anno = _here(name)
        page, truth = load_training_page(anno, config)
        assert [b.text for b in page.blocks] == list(texts), anno
        cols = features.columns(page, config, None, selected)
        seen.update(cols.names)
        words = np.fromiter(map(len, map(str.split, texts)), dtype=np.float64, count=len(texts))
        paths = page_paths(cols, page.blocks)
        own = fast_features(paths, list(texts), np.asarray(p.content, dtype=np.float64),
                            widened, words)
        X = np.hstack([own, first_columns(cols, names)]).astype(np.float32)
        meta = Path(anno).with_suffix(".json")
        kind = json.loads(meta.read_text()).get("page_type", "") if meta.exists() else ""
        url = page.url or page.meta.url
        if meta.exists():
            url = json.loads(meta.read_text()).get("url") or url
        pages.append({
            "name": anno, "collection": Path(anno).parent.name, "fold": run["fold"][name],
            "type": kind, "X": X,
            "y": np.array([lab != "o" for lab in truth], dtype=np.float32),
            "w": np.maximum(words, 1).astype(np.float32),
            "q0": np.asarray(run["q"][name], dtype=np.float64),
            "path": p.path, "marginals": p.marginals, "texts": list(texts), "found": found,
            "signals": page_signals(page, url, paths)})
        if i % 200 == 0:
            print(i, round(time.time() - started), flush=True)
    left = sorted(seen - set(settings.left_out) - set(names))
    if left:
        print("columns the shipped trees do not read:", left)
    with open(cache, "wb") as f:
        pickle.dump({"names": names, "pages": pages}, f, protocol=5)
    print("done", len(pages), round(time.time() - started))


# --- the page-type classifier ---------------------------------------------


def signal_matrix(pages) -> tuple[np.ndarray, list[str]]:
    keys = sorted({k for pg in pages for k in pg["signals"]})
    return np.array([[pg["signals"].get(k, np.nan) for k in keys] for pg in pages],
                    dtype=np.float64), keys


def classify(cache: str, seed: int = 0, out: str | None = None, threads: int = 1) -> None:
    """WCXB's page type from the signals, cross-fitted on the run's site
    folds: each page's probabilities from a classifier of the other folds'
    WCXB pages; stored in the cache, or in `out`."""
    import lightgbm
    data = _load(cache)
    pages = data["pages"]
    X, keys = signal_matrix(pages)
    fold = np.array([pg["fold"] for pg in pages])
    kind = np.array([TYPES.index(pg["type"]) if pg["type"] else -1 for pg in pages])
    prob = np.zeros((len(pages), len(TYPES)))
    params = {"objective": "multiclass", "num_class": len(TYPES), "learning_rate": 0.05,
              "num_leaves": 15, "min_data_in_leaf": 10, "feature_fraction": 0.7,
              "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0, "verbose": -1,
              "num_threads": threads, "seed": seed}
    gain = np.zeros(len(keys))
    for k in sorted(set(fold)):
        train = (fold != k) & (kind >= 0)
        b = lightgbm.train(params, lightgbm.Dataset(X[train], kind[train]), 300)
        prob[fold == k] = b.predict(X[fold == k])
        gain += b.feature_importance("gain")
    wcxb = kind >= 0
    guess = prob.argmax(1)
    print(f"held-out accuracy on WCXB: {np.mean(guess[wcxb] == kind[wcxb]):.3f} "
          f"({wcxb.sum()} pages)")
    for t, name in enumerate(TYPES):
        of = wcxb & (kind == t)
        said = wcxb & (guess == t)
        print(f"  {name:13s} {of.sum():4d} pages, recall {np.mean(guess[of] == t):.3f}, "
              f"precision {np.mean(kind[said] == t) if said.any() else float('nan'):.3f}")
    for c in ("dragnet", "cleaneval"):
        at = np.array([pg["collection"] == c for pg in pages])
        print(f"  {c}: mean probabilities", dict(zip(TYPES, prob[at].mean(0).round(3))))
    top = np.argsort(-gain)[:25]
    print("most gain:", ", ".join(f"{keys[i]} {gain[i] / gain.sum():.3f}" for i in top))
    if out:  # a second draw beside the first
        with open(out, "wb") as f:
            pickle.dump(prob, f)
    else:
        data["types"] = prob
        with open(cache, "wb") as f:
            pickle.dump(data, f, protocol=5)


# --- the trees, cross-fitted with extra page-level columns ----------------


def page_columns(data, which: list[str]) -> tuple[list[np.ndarray], list[str]]:
    """Each page's extra columns (the same value on every block of a page)."""
    pages = data["pages"]
    rows: list[list[float]] = [[] for _ in pages]
    names: list[str] = []
    for what in which:
        if what == "types":
            names += [f"type.{t}" for t in TYPES]
            for i in range(len(pages)):
                rows[i] += list(data["types"][i])
        elif what == "types3":  # the three the issue names: article, and many items
            p = data["types"]
            names += ["type.article", "type.items", "type.product"]
            for i in range(len(pages)):
                rows[i] += [p[i, 0], p[i, 1] + p[i, 4], p[i, 5]]
        elif what.startswith("sig:"):
            for k in what[4:].split(","):
                names.append("sig." + k)
                for i, pg in enumerate(pages):
                    rows[i].append(pg["signals"].get(k, np.nan))
        else:
            raise SystemExit(f"unknown columns {what}")
    return [np.array(r, dtype=np.float32) for r in rows], names


def cross_fit(data, extra: list[np.ndarray], extra_names: list[str], seed0: int,
              only_fold: int | None = None, threads: int = 1,
              weigh: dict[str, float] | None = None) -> list[np.ndarray | None]:
    import lightgbm
    config = load_config(DEFAULT_CONFIG)
    settings = config.second_pass
    pages = data["pages"]
    names = feature_names(data["names"]) + extra_names

    def X(i):
        if not extra_names:
            return pages[i]["X"]
        return np.hstack([pages[i]["X"], np.broadcast_to(extra[i], (len(pages[i]["X"]),
                                                                   len(extra_names)))])

    folds = sorted({pg["fold"] for pg in pages})
    out: list[np.ndarray | None] = [None] * len(pages)
    for k in folds if only_fold is None else [only_fold]:
        train = [i for i, pg in enumerate(pages) if pg["fold"] != k]
        M = np.vstack([X(i) for i in train])
        y = np.concatenate([pages[i]["y"] for i in train])
        w = np.concatenate([pages[i]["w"] * (weigh or {}).get(pages[i]["collection"], 1.0)
                            for i in train])
        boosters = [lightgbm.train({**settings.trees, "verbose": -1, "seed": seed,
                                    "num_threads": threads},
                                   lightgbm.Dataset(M, y, weight=w, feature_name=names,
                                                    free_raw_data=True), settings.rounds)
                    for seed in range(seed0, seed0 + settings.seeds)]
        del M
        for i, pg in enumerate(pages):
            if pg["fold"] == k:
                out[i] = mean_probability(boosters, X(i), predict_options(settings))
        print(f"fold {k} done", flush=True)
    return out


# --- deciding and scoring -------------------------------------------------


def scores(data, qs, bars_of=None) -> dict:
    """Every page decided on its trees' probabilities `qs` (bars_of(i): the
    page's second-pass settings, or None for the config's), scored as
    benchmarks.quality scores it; WCXB by page type too."""
    config = load_config(DEFAULT_CONFIG)
    texts = {}
    for i, pg in enumerate(data["pages"]):
        c = config if bars_of is None else replace(config, second_pass=bars_of(i))
        labels = decoding.decide(pg["path"], pg["marginals"], pg["texts"], pg["found"], c,
                                 trees=lambda _, q=qs[i]: q).labels
        texts[pg["name"]] = output.plain_text(pg["texts"], labels)
    return _scored(texts)


def show(tag: str, s: dict) -> str:
    ce, dr, wc = s["cleaneval-dev"], s["dragnet-train"], s["wcxb-dev"]
    line = (f"{tag}: CleanEval {ce[0]:.4f} (P {ce[1]:.3f} R {ce[2]:.3f}) | Dragnet {dr[0]:.4f} "
            f"(P {dr[1]:.3f} R {dr[2]:.3f}) | WCXB bag {wc[3]:.4f} (LCS {wc[0]:.4f}) | mean "
            f"{s['mean']:.5f} | " + " ".join(f"{t[:4]} {s[t]:.3f}" for t in TYPES))
    print(line, flush=True)
    return line


def _load(cache: str, types: str | None = None):
    """The prepared pages, with the type probabilities of `types` (a
    classify --out file) in place of those classify first stored."""
    with open(cache, "rb") as f:
        data = pickle.load(f)
    for pg in data["pages"]:  # a cache made in another clone names its pages
        pg["name"] = _here(pg["name"])
    if types:
        with open(types, "rb") as f:
            data["types"] = pickle.load(f)
    return data


def trees(cache: str, seed0: int, which: list[str], save: str | None, check: bool,
          types: str | None = None, weigh: dict[str, float] | None = None) -> None:
    data = _load(cache, types)
    if check:  # the baseline's fold 1 against the saved probabilities
        q = cross_fit(data, [], [], 0, only_fold=1)
        diffs = [np.abs(a - pg["q0"]).max() for a, pg in zip(q, data["pages"]) if a is not None]
        print("fold 1 against the saved run: largest difference", max(diffs))
        return
    extra, names = page_columns(data, which)
    q = cross_fit(data, extra, names, seed0, weigh=weigh)
    if save:
        with open(save, "wb") as f:
            pickle.dump(q, f)
    tag = f"seed {seed0} columns {'+'.join(which) or 'none'} weigh {weigh or {}}"
    show(tag, scores(data, q))
    base = load_config(DEFAULT_CONFIG).second_pass  # and as shipped: an article at 0.9 its bars
    show(tag + ", article bars", scores(data, q, lambda i: replace(
        base, keep=0.5, add=0.4, lowest_page_bar=None) if data["types"][i, 0] >= 0.9 else base))


def bars(cache: str, q_path: str | None, specs: list[str], types: str | None = None) -> None:
    """Bars by predicted type: SPEC is TYPE:P=keep,add,floor (a page whose
    probability of TYPE is P or more gets those bars; floor `-` for none)."""
    data = _load(cache, types)
    config = load_config(DEFAULT_CONFIG)
    base = config.second_pass
    if q_path:
        with open(q_path, "rb") as f:
            qs = pickle.load(f)
    else:
        qs = [pg["q0"] for pg in data["pages"]]
    show("shipped bars", scores(data, qs))
    prob = data["types"]
    for spec in specs:
        rules = []
        for part in spec.split(";"):
            head, _, values = part.partition("=")
            name, _, at = head.partition(":")
            keep, add, floor = values.split(",")
            rules.append((name, float(at), float(keep), float(add),
                          None if floor == "-" else float(floor)))

        def of(i, rules=rules):
            for name, at, keep, add, floor in rules:
                if _likely(data["pages"][i]["signals"], prob[i], name) >= at:
                    return replace(base, keep=keep, add=add, lowest_page_bar=floor)
            return base
        show(spec, scores(data, qs, of))


def decide(cache: str, config_name: str, unset: str, q_path: str | None = None,
           types: str | None = None, shipped: bool = False) -> None:
    """The config as it is against the same config without `unset` (a key
    of its second pass), each page decided by victor.decoding.decide on the
    saved probabilities, its type probabilities the cross-fitted
    classifier's (or, `shipped`, the shipped general model's, which learnt
    from WCXB's typed pages alone: held out for CleanEval and Dragnet)."""
    from victor.batch.inputs import read_input
    from victor.cleaner import Cleaner

    data = _load(cache, types)
    config = load_config(config_name)
    field_name = unset.replace("-", "_")
    without = replace(config, second_pass=replace(config.second_pass, **{field_name: None}))
    reader = Cleaner(config_name)
    typer = Cleaner() if shipped else None
    found = []
    for i, pg in enumerate(data["pages"]):
        anno = Path(pg["name"])
        html = next(anno.parent.glob(anno.stem + ".html*"))
        found.append(decoding.layout(reader.read(read_input(str(html))).blocks))
        if typer is not None:
            page = typer.read(read_input(str(html)))
            columns = features.columns(page, typer.config, typer.lm, typer.selected)
            kinds = page_type.type_probabilities(typer.trained.page_type, page,
                                                 page_paths(columns, page.blocks))
            data["types"][i] = [kinds[t] for t in TYPES]
    if q_path:
        with open(q_path, "rb") as f:
            qs = pickle.load(f)
    else:
        qs = [pg["q0"] for pg in data["pages"]]
    for tag, c in ((f"without {unset}", without), (f"{config_name} as it is", config)):
        texts = {}
        for i, pg in enumerate(data["pages"]):
            labels = decoding.decide(pg["path"], pg["marginals"], pg["texts"], found[i], c,
                                     trees=lambda _, q=qs[i]: q,
                                     page_type=dict(zip(TYPES, map(float, data["types"][i])))
                                     ).labels
            texts[pg["name"]] = output.plain_text(pg["texts"], labels)
        show(tag, _scored(texts))


def mix(cache: str, q_types: str, rules: list[str], q_path: str | None = None) -> None:
    data = _load(cache)
    base = load_config(DEFAULT_CONFIG).second_pass
    prob = data["types"]
    with open(q_types, "rb") as f:
        other = pickle.load(f)
    if q_path:
        with open(q_path, "rb") as f:
            qs = pickle.load(f)
    else:
        qs = [pg["q0"] for pg in data["pages"]]

    def article(i):
        return (replace(base, keep=0.5, add=0.4, lowest_page_bar=None) if prob[i, 0] >= 0.9
                else base)

    show("shipped", scores(data, qs, article))
    for rule in rules:
        kind, _, at = rule.partition(":")
        if kind == "avg":  # every page: the two sets of trees averaged, the second weighed AT
            w = float(at)
            show(rule, scores(data, [(1 - w) * q + w * o for q, o in zip(qs, other)], article))
            continue
        share = {"many": lambda p: p[TYPES.index("collection")] + p[TYPES.index("listing")],
                 "notart": lambda p: 1 - p[TYPES.index("article")]}[kind]
        chosen = [share(prob[i]) >= float(at) for i in range(len(qs))]
        mixed = [other[i] if c else q for i, (q, c) in enumerate(zip(qs, chosen))]
        show(f"{rule} ({sum(chosen)} pages)", scores(data, mixed, article))


def _scored(texts: dict[str, str]) -> dict:
    """Each collection's scores of `texts` (by .anno path), WCXB by page type too."""
    out = {}
    for collection in COLLECTIONS:
        ps = pages_of(collection, None)
        s = score(ps, texts)
        out[collection] = (s.lcs.f1, s.lcs.precision, s.lcs.recall, s.bag_f1)
        if collection.startswith("wcxb"):
            for t in TYPES:
                out[t] = score([p for p in ps if p.page_type == t], texts).bag_f1
    out["mean"] = (out["cleaneval-dev"][0] + out["dragnet-train"][0] + out["wcxb-dev"][3]) / 3
    return out


def _likely(signals: dict[str, float], prob: np.ndarray, name: str) -> float:
    """A page's probability of type `name` by the classifier, or 1/0 by a
    rule on what the page declares: `declared` (og:type article or a
    JSON-LD article type), `declared-only` (the same, and no JSON-LD
    product, forum or collection type)."""
    if name in TYPES:
        return float(prob[TYPES.index(name)])
    declared = signals["og.article"] > 0 or signals["ld.article"] > 0
    if name == "declared":
        return float(declared)
    if name == "declared-only":
        return float(declared and not (signals["ld.product"] or signals["ld.forum"]
                                       or signals["ld.collection"]))
    raise SystemExit(f"unknown type {name}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("prepare")
    s.add_argument("run")
    s.add_argument("layout")
    s.add_argument("cache")
    c = sub.add_parser("classify")
    c.add_argument("cache")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--out", help="where to pickle the held-out type probabilities")
    c.add_argument("--threads", type=int, default=1,
                   help="LightGBM's threads (the first draw of docs/notes/second-pass.md: 2)")
    t = sub.add_parser("trees")
    t.add_argument("cache")
    t.add_argument("--seed", type=int, default=0, help="the first booster's seed (0, or 10)")
    t.add_argument("--columns", default="", help="types, types3, sig:KEY,KEY; joined by +")
    t.add_argument("--save")
    t.add_argument("--check", action="store_true")
    t.add_argument("--types", help="a classify --out file")
    t.add_argument("--weigh", default="", metavar="COLLECTION=F,...",
                   help="the training blocks of a collection's pages weighed F times")
    b = sub.add_parser("bars")
    b.add_argument("cache")
    b.add_argument("--q")
    b.add_argument("--types", help="a classify --out file")
    b.add_argument("specs", nargs="*")
    d = sub.add_parser("decide")
    d.add_argument("cache")
    d.add_argument("--config", default=DEFAULT_CONFIG)
    d.add_argument("--unset", required=True, help="a key of the config's second pass")
    d.add_argument("--q")
    d.add_argument("--types", help="a classify --out file")
    d.add_argument("--shipped-types", action="store_true",
                   help="the shipped general model's classifier's types")
    m = sub.add_parser("mix")
    m.add_argument("cache")
    m.add_argument("q_types", help="a trees --save file")
    m.add_argument("rules", nargs="+")
    m.add_argument("--q")
    args = ap.parse_args(argv)
    if args.command == "prepare":
        prepare(args.run, args.layout, args.cache)
    elif args.command == "classify":
        classify(args.cache, args.seed, args.out, args.threads)
    elif args.command == "trees":
        trees(args.cache, args.seed, [w for w in args.columns.split("+") if w], args.save,
              args.check, args.types,
              {k: float(v) for k, _, v in (w.partition("=") for w in args.weigh.split(",") if w)})
    elif args.command == "mix":
        mix(args.cache, args.q_types, args.rules, args.q)
    elif args.command == "decide":
        decide(args.cache, args.config, args.unset, args.q, args.types, args.shipped_types)
    else:
        bars(args.cache, args.q, args.specs, args.types)
    return 0


if __name__ == "__main__":
    sys.exit(main())
