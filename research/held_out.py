"""The default config's held-out first pass saved once per draw of the site
folds, then decisions after the CRF replayed on them in seconds
(docs/notes/output.md, "Whole sentences"; docs/notes/results.md, "How far a draw of
the site folds moves the figures").

    python3 -m research.held_out save RUNS --fold-seeds 0 1 2   # RUNS/seed0.pkl, ... (about 20 min a draw on 2 cores)
    python3 -m research.held_out replay RUNS/seed*.pkl          # the config as shipped, each draw and their mean
    python3 -m research.held_out replay RUNS/seed*.pkl line-share=0.7 article-above=0.8
    python3 -m research.held_out replay RUNS/seed*.pkl --config article
    python3 -m research.held_out replay RUNS/seed*.pkl --comments drop   # as victor clean --comments drop
    python3 -m research.held_out labels RUNS/seed0.pkl FILE.json        # for benchmarks.structure --labels

`save` runs victor.training.crossval over every annotated page with the
site folds dealt by each seed, cross-fits the second pass's trees and the
page-type classifier on the same folds, and pickles each page's best path,
marginals, trees' probabilities and page-type probabilities. `replay`
decides every page again by victor.decoding.decide with the config's
decoding keys changed as given, and prints LCS word F1 and bag-of-words
F1 per collection (WCXB's by page type too), as benchmarks.quality scores
them, and mean3 (the mean of CleanEval's and Dragnet's LCS and WCXB's bag
of words, what the keep rule reads), for each draw and the mean over the draws: one draw of folds moves
CleanEval's and Dragnet's figures by up to 0.018, so the keep rule reads
the mean.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from statistics import mean

from benchmarks.quality.running import COLLECTIONS, ROOT, pages_of
from benchmarks.quality.scoring import score
from benchmarks.structure import held_page
from victor import decoding, output
from victor.config import DEFAULT_CONFIG, Config, load_config
from victor.files import write_atomic
from victor.settings import BY_KEY, DECODING, field_name, level
from victor.training import crossval, dataset, second_pass

# config key -> Config field, for replay's KEY=VALUE: the table's decoding
# keys that take one number.
_KEYS = {key: field_name(key) for key in DECODING if BY_KEY[key].kind != "bars"}
# The second pass's keys of one number, and article-bars' as article-KEY.
_SECOND = {s.name: field_name(s.key) for s in level("second-pass")
           if s.kind in ("probability", "share")}
_ARTICLE = {f"article-{s.name}": field_name(s.key) for s in level("second-pass.article-bars")}


def save(folder: str, seeds: list[int]) -> None:
    config = load_config(DEFAULT_CONFIG)
    examples = [e for c in COLLECTIONS
                for e in dataset.load_examples([p.anno for p in pages_of(c, None)], config)]
    by_name = {e.name: e for e in examples}
    Path(folder).mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        results = crossval.cross_validate(examples, config, 5, dict(config.crf),
                                          tempfile.mkdtemp(), jobs=2, seed=seed)
        predictions = [p for r in results for p in r.predictions]
        fold = {p.name: r.fold for r in results for p in r.predictions}
        q, types = second_pass.held_out(predictions, by_name, fold, config, 2)
        target = Path(folder) / f"seed{seed}.pkl"
        part = target.with_suffix(".part")
        part.write_bytes(pickle.dumps(
            {"seed": seed, "predictions": predictions, "second": q, "page_type": types,
             "layout": {e.name: (e.texts, e.layout) for e in examples}}))
        os.replace(part, target)
        print(f"seed {seed} saved", file=sys.stderr, flush=True)


def changed(config: Config, changes: list[str]) -> Config:
    """`config` with each KEY=VALUE of `changes` set (null for None)."""
    second = config.second_pass
    for change in changes:
        key, _, text = change.partition("=")
        value = None if text == "null" else float(text) if "." in text else int(text)
        if key in _KEYS:
            config = replace(config, **{_KEYS[key]: value})
        elif key in _SECOND:
            second = replace(second, **{_SECOND[key]: value})
        elif key in _ARTICLE:
            second = replace(second, article_bars=replace(second.article_bars,
                                                          **{_ARTICLE[key]: value}))
        else:
            raise SystemExit(f"replay: no key {key!r}")
    return replace(config, second_pass=second)


def decided(run: dict, config: Config, comments: str | None = None,
            second: list | None = None):
    """Each page of the run decided again by `config`, as (its annotation's
    path in this checkout, blocks, labels, trees' probabilities, page type),
    with the user's `comments` (keep, drop or None) as `--comments` gives
    it, and with `second` (each page's) in place of the run's trees'
    probabilities where given."""
    for i, p in enumerate(run["predictions"]):
        q = run["second"][i] if second is None else second[i]
        kind = run["page_type"][i]
        blocks, found = run["layout"][p.name]
        labels = decoding.decide(p.path, p.marginals, blocks, found, config,
                                 trees=lambda _, q=q: q, page_type=kind,
                                 comments=comments).labels
        yield _here(p.name), blocks, labels, q, kind


def replayed(run: dict, config: Config, comments: str | None = None,
             second: list | None = None) -> dict[str, str]:
    """Each page's text as `config` decides it on the run's held-out scores
    (`decided`), by the page's annotation in this checkout (a run saved in
    another checkout of the same data replays here)."""
    return {name: output.plain_text(blocks, labels)
            for name, blocks, labels, _, _ in decided(run, config, comments, second)}


def _here(name: str) -> str:
    """An annotation's path in this checkout: its path from `data/` on."""
    at = name.rfind("/data/")
    return name if at < 0 else str(ROOT / name[at + 1:])


def figures(texts: dict[str, str]) -> dict[str, float]:
    pages = {c: pages_of(c, None) for c in COLLECTIONS}
    out = {}
    for collection, ps in pages.items():
        s = score(ps, texts)
        out[f"{collection} LCS"] = s.lcs.f1
        out[f"{collection} P"] = s.lcs.precision
        out[f"{collection} bag"] = s.bag_f1
    for kind in sorted({p.page_type for p in pages["wcxb-dev"]}):
        out[f"wcxb {kind}"] = score([p for p in pages["wcxb-dev"] if p.page_type == kind],
                                    texts).bag_f1
    return out


# CleanEval's and Dragnet's LCS word F1, WCXB's bag-of-words F1.
_HEADLINE = ("cleaneval-dev LCS", "dragnet-train LCS", "wcxb-dev bag")


def replay(paths: list[str], config_name: str, changes: list[str],
           comments: str | None = None) -> None:
    config = changed(load_config(config_name), changes)
    rows = []
    for path in paths:
        with open(path, "rb") as f:
            run = pickle.load(f)
        row = figures(replayed(run, config, comments))
        # The keep rule's figure: the mean of each collection's headline measure.
        row["mean3"] = mean(row[k] for k in _HEADLINE)
        rows.append(row)
        print(f"{path}: " + ", ".join(f"{k} {_shown(k, v)}" for k, v in row.items()), flush=True)
    print("mean: " + ", ".join(f"{k} {_shown(k, mean(r[k] for r in rows))}" for k in rows[0]))


def labels(path: str, target: str) -> None:
    """A saved draw as benchmarks.structure's --labels file: its pages'
    held-out first pass, trees' probabilities and page types, so that the
    structure of what they keep is measured without training the folds
    again."""
    with open(path, "rb") as f:
        run = pickle.load(f)
    held = {Path(p.name).name: held_page(p, q, kind)
            for p, q, kind in zip(run["predictions"], run["second"], run["page_type"])}
    write_atomic(target, json.dumps(held))


def _shown(key: str, value: float) -> str:
    """mean3 to the fifth digit: the keep rule weighs changes of 0.0001."""
    return f"{value:.5f}" if key == "mean3" else f"{value:.4f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save")
    s.add_argument("folder")
    s.add_argument("--fold-seeds", type=int, nargs="+", default=[0])
    r = sub.add_parser("replay")
    r.add_argument("given", nargs="+", metavar="RUN.pkl or KEY=VALUE")
    r.add_argument("--config", default=DEFAULT_CONFIG)
    r.add_argument("--comments", choices=decoding.COMMENTS)
    lab = sub.add_parser("labels")
    lab.add_argument("run")
    lab.add_argument("target")
    args = ap.parse_args(argv)
    if args.command == "labels":
        labels(args.run, args.target)
    elif args.command == "save":
        save(args.folder, args.fold_seeds)
    else:
        replay([g for g in args.given if "=" not in g], args.config,
               [g for g in args.given if "=" in g], args.comments)
    return 0


if __name__ == "__main__":
    sys.exit(main())
