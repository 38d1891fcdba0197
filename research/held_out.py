"""The default config's held-out first pass saved once, then decisions
after the CRF replayed on it in seconds (docs/output.md, "Whole sentences").

    python3 -m research.held_out save RUN.pkl               # 5 site folds and the trees (about an hour on 2 cores)
    python3 -m research.held_out replay RUN.pkl             # the config as shipped
    python3 -m research.held_out replay RUN.pkl line-share=0.7 line-words=100

`save` runs victor.training.crossval over every annotated page and
cross-fits the second pass's trees on the same folds, and pickles each
page's best path, marginals and trees' probabilities. `replay` decides
every page again by victor.decoding.decide with the config's decoding
keys changed as given, and prints LCS word F1 and bag-of-words F1 per
collection, as benchmarks.quality scores them. (The second draw of
docs/output.md took the trees' seeds 10 and 11 by hand: the config's
`seeds` counts boosters from seed 0.)
"""

from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
from dataclasses import replace

from benchmarks.quality.running import COLLECTIONS, pages_of
from benchmarks.quality.scoring import score
from victor import decoding, output
from victor.config import DEFAULT_CONFIG, load_config
from victor.training import crossval, dataset, second_pass

# config key -> Config field, for replay's KEY=VALUE
_KEYS = {"keep-above": "keep_above", "empty-page-share": "empty_page_share", "unit-bar": "unit_bar",
         "list-bar": "list_bar", "repeat-words": "repeat_words",
         "line-share": "line_share", "line-words": "line_words"}


def save(path: str) -> None:
    config = load_config(DEFAULT_CONFIG)
    examples = [e for c in COLLECTIONS
                for e in dataset.load_examples([p.anno for p in pages_of(c, None)], config)]
    results = crossval.cross_validate(examples, config, 5, dict(config.crf), tempfile.mkdtemp(),
                                      jobs=2)
    predictions = [p for r in results for p in r.predictions]
    fold = {p.name: r.fold for r in results for p in r.predictions}
    q = second_pass.held_out_probabilities(predictions, {e.name: e for e in examples}, fold,
                                           config, 2)
    with open(path, "wb") as f:
        pickle.dump({"predictions": predictions, "second": q,
                     "layout": {e.name: (e.texts, e.layout) for e in examples}}, f)


def replay(path: str, changes: list[str]) -> None:
    config = load_config(DEFAULT_CONFIG)
    for change in changes:
        key, _, value = change.partition("=")
        config = replace(config, **{_KEYS[key]: None if value == "null" else float(value)
                                    if "." in value else int(value)})
    with open(path, "rb") as f:
        run = pickle.load(f)
    texts = {}
    for p, q in zip(run["predictions"], run["second"]):
        blocks, found = run["layout"][p.name]
        labels = decoding.decide(p.path, p.marginals, blocks, found, config,
                                 trees=lambda _, q=q: q).labels
        texts[p.name] = output.plain_text(blocks, labels)
    for collection in COLLECTIONS:
        s = score(pages_of(collection, None), texts)
        print(f"{collection}: LCS word F1 {s.lcs.f1:.4f} (P {s.lcs.precision:.3f}, "
              f"R {s.lcs.recall:.3f}), bag-of-words F1 {s.bag_f1:.4f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save")
    s.add_argument("run")
    r = sub.add_parser("replay")
    r.add_argument("run")
    r.add_argument("changes", nargs="*", metavar="KEY=VALUE")
    args = ap.parse_args(argv)
    if args.command == "save":
        save(args.run)
    else:
        replay(args.run, args.changes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
