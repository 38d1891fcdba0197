"""Issue 31's article question on one saved benchmark run: on WCXB's article
pages (page_type article) and on Dragnet (article gold), in site folds,
which of the article config, the general config, the general config with
`--favor precision`, a second pass, and readability beats both the default
config and readability on both?

- general, general --favor precision: the run's held-out labels of the
  general config; --favor precision as victor/decoding/ applies it (content
  blocks whose calibrated content probability is under FAVOR_BARS["precision"]
  dropped), the shipped general model's temperature on the folds'
  probabilities (as docs/output.md measured it);
- article on Dragnet: the run's held-out labels of the article config (5 site
  folds of Dragnet); on WCXB: the shipped article model (trained on all of
  Dragnet, no WCXB page) decoded as the benchmark decodes (decoding.decode,
  no whole_units), plain text of its blocks;
- second pass: a saved labels file of research/second_pass.py (--labels);
- readability: readability-lxml run here on the same pages (benchmarks.peers).

    python3 -m research.article_question --run RUNS/main.json [--second NAME=FILE ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from statistics import mean

from benchmarks.common import table
from benchmarks.peers import PEERS
from benchmarks.quality.running import pages_of
from benchmarks.quality.scoring import score
from victor import decoding, features, output
from victor.decoding import calibration
from victor.training import evaluate
from victor.cleaner import Cleaner
from victor.batch.inputs import read_input
from victor.reading.text import words


def figures(ps, texts):
    s = score(ps, texts)
    bags = [evaluate.bag_overlap(words(texts.get(p.anno, "")), p.gold) for p in ps]
    return dict(lcs_p=s.lcs.precision, lcs_r=s.lcs.recall, lcs_f1=s.lcs.f1,
                bag_p=mean(b.precision for b in bags), bag_r=mean(b.recall for b in bags),
                bag_f1=s.bag_f1)


def article_model_texts(ps) -> dict[str, str]:
    cleaner = Cleaner("article")
    config = cleaner.config
    out = {}
    for p in ps:
        page = cleaner.read(read_input(p.source), p.source)
        if not page.blocks:
            out[p.anno] = ""
            continue
        columns = features.columns(page, config, cleaner.lm, cleaner.selected)
        scores = cleaner.model.column_scores(columns)
        path = cleaner.model.best_labels(scores)
        labels, _ = decoding.decode(path, cleaner.model.marginals(scores), config.keep_above,
                                    config.floor_share)
        out[p.anno] = output.plain_text([b.text for b in page.blocks], labels)
    return out


def peer_texts(name, ps) -> dict[str, str]:
    extract = PEERS[name]()
    out = {}
    for p in ps:
        try:
            out[p.anno] = extract(read_input(p.source))
        except Exception as e:
            print(f"{p.source}: {name}: {type(e).__name__}: {e}", file=sys.stderr)
            out[p.anno] = ""
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--pages", required=True, help="research/second_pass_pages.py's pickle")
    ap.add_argument("--second", action="append", default=[],
                    help="NAME=FILE,MODE,T: a second pass's saved probabilities, decoded by drop or replace at T")
    ap.add_argument("--cache", default="article_question_cache.json",
                    help="readability's and the article model's texts, kept for the next run")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    import pickle
    run = json.load(open(args.run))
    blocks = {pg["anno"]: pg["texts"] for pg in pickle.load(open(args.pages, "rb"))}
    wcxb = [p for p in pages_of("wcxb-dev", None) if p.page_type == "article"]
    dragnet = pages_of("dragnet-train", None)
    sets = {"WCXB article": wcxb, "Dragnet": dragnet}
    general = run["general"]
    t = Cleaner("general").model.temperature
    bar = decoding.FAVOR_BARS["precision"]
    systems: dict[str, dict[str, str]] = {}
    systems["general (default)"] = {a: output.plain_text(blocks[a], general["labels"][a])
                                    for a in general["labels"]}
    systems[f"general --favor precision ({bar}, T {t:.2f})"] = {
        a: output.plain_text(blocks[a], decoding.above_threshold(
            general["labels"][a], calibration.scaled(general["content"][a], t), bar))
        for a in general["labels"]}
    try:
        cache = json.load(open(args.cache))
    except (OSError, ValueError):
        cache = {}
    if "article" not in cache:
        s = time.perf_counter()
        cache["article"] = article_model_texts(wcxb)
        print(f"article model on {len(wcxb)} WCXB pages: {time.perf_counter() - s:.0f} s",
              file=sys.stderr)
    if "readability" not in cache:
        s = time.perf_counter()
        cache["readability"] = peer_texts("readability", wcxb + dragnet)
        print(f"readability on {len(wcxb) + len(dragnet)} pages: {time.perf_counter() - s:.0f} s",
              file=sys.stderr)
    json.dump(cache, open(args.cache, "w"))
    article = dict(cache["article"])
    # The article config reads pages its own way (its tag-delete): its
    # labels line up with its own blocks, not the general config's.
    from victor.annotation import load_training_page
    from victor.config import load_config
    article_config = load_config("article")
    for a, labs in run["article"]["labels"].items():
        page, truth = load_training_page(a, article_config)
        assert truth == run["article"]["truth"][a], a
        article[a] = output.plain_text([b.text for b in page.blocks], labs)
    systems["article (Dragnet folds; shipped model on WCXB)"] = article
    from research.second_pass import drop, replace
    for spec in args.second:  # NAME=FILE,MODE,THRESHOLD: second_pass.py --save's probabilities
        name, rest = spec.split("=", 1)
        path, mode, th = rest.split(",")
        q = json.load(open(path))
        if mode == "two":  # TH is KEEP:ADD (research/second_pass_scan.py)
            from research.second_pass_scan import two_bars
            keep, add = map(float, th.split(":"))
            systems[name] = {a: output.plain_text(blocks[a], two_bars(general["labels"][a], q[a],
                                                                      keep, add)) for a in q}
            continue
        how = {"drop": drop, "replace": replace}[mode]
        systems[name] = {a: output.plain_text(blocks[a], how(general["labels"][a], q[a], float(th)))
                         for a in q}
    systems["readability"] = cache["readability"]
    rows = []
    for name, texts in systems.items():
        r = [name]
        for ps in sets.values():
            f = figures(ps, texts)
            r += [f"{f['bag_f1']:.4f}", f"{f['lcs_f1']:.4f}",
                  f"{f['lcs_p']:.3f} / {f['lcs_r']:.3f}"]
        rows.append(r)
    print(f"{len(wcxb)} WCXB article pages, {len(dragnet)} Dragnet pages (article gold)\n")
    print(table(["system", "WCXB art. bag F1", "WCXB art. LCS F1", "WCXB art. LCS P / R",
                 "Dragnet bag F1", "Dragnet LCS F1", "Dragnet LCS P / R"], rows))
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
