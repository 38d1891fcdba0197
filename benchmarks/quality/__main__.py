"""How well Victor keeps the text a person kept, on pages of web sites its
model has never seen, beside the other cleaners on the same pages in the
same run.

For each annotated collection in the repo's data/ (CleanEval's development
set, 60% of Dragnet, WCXB's development split):

- Victor by 5-fold cross-validation with folds grouped by web site
  (victor.training.folds): the default config trained on all three
  collections, its CRF alone ("general first pass") and with its second
  pass, the trees cross-fitted on the same folds
  (victor.training.second_pass); the `cleaneval` config on CleanEval; the
  `article` config (the default config with other bars) from the same folds;
- trafilatura with comments off and on, readability-lxml, resiliparse,
  jusText, rs-trafilatura's text (in a Python 3.12 venv of its own, skipped
  with one line where it is not made: docs/output.md), and keeping every
  block, on the same pages.

Two measures for every score: word F1 by longest-common-subsequence
alignment of the words (CleanEval's, summed over pages), and WCXB's
bag-of-words F1 (the mean over pages of F1 over lowercased `\\w+` tokens).
Dragnet's gold is cut before its comments line (the article alone). On
WCXB: scores by page type, and the share of the benchmark's `with` snippets
found and of its `without` snippets wrongly kept. Then a transfer table
(the default config trained on one collection and tested on each other,
and trained on all but one and tested on it), and the calibration of the
content probability (victor/decoding/calibration.py): the temperature fitted on
every collection's held-out blocks and on all but one, the calibration
error before and after, blocks by probability band against the share
that is content, and word precision and recall at each `--threshold`.
Last, each config's held-out predictions, and the default config's
transfer runs (trained on all but one collection), decoded at other values
of its `keep-above` and `fallback-share` (victor/decoding/), the figures
their values were chosen by.
The benchmark only measures: a shipped model's temperature is fitted and
recorded by `victor learn --calibrate 5`.

    python3 -m benchmarks.quality                 # every annotated page: 21 trainings, 50 min on 2 idle cores
    python3 -m benchmarks.quality --sample 200    # 200 pages a collection
    python3 -m benchmarks.quality --sample 20     # a quick look
    python3 -m benchmarks.quality --sample 200 --seed 1   # another 200 a collection

The peers are the `bench` extra: pip install -e '.[bench]'.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from benchmarks.quality.running import (COLLECTIONS, FIRST_PASS, pages_of, submit_peers,
                                        submit_victor)
from benchmarks.quality.scoring import fit_temperatures
from benchmarks.quality.tables import (calibration_table, decoding_table, page_type_table,
                                       quality_table, reliability_table, threshold_table,
                                       transfer_table)
from victor import files
from victor.config import DEFAULT_CONFIG, load_config


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, metavar="N", help="a seeded random N pages a collection")
    ap.add_argument("--seed", type=int, default=0,
                    help="the seed of --sample's draw (default 0): another draw of pages")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--fold-seed", type=int, default=0,
                    help="the seed the site folds are dealt by (default 0): another draw of folds")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--max-iterations", type=int, help="L-BFGS iterations (default: each config's)")
    ap.add_argument("--no-transfer", action="store_true", help="skip the transfer table")
    ap.add_argument("--no-peers", action="store_true", help="Victor only")
    ap.add_argument("--save-run", metavar="FILE",
                    help="also write Victor's cross-validated labels and probabilities (JSON)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    pages = {c: pages_of(c, args.sample, args.seed) for c in COLLECTIONS}
    everything = [p for ps in pages.values() for p in ps]
    # One pool: the peers' small tasks queue behind the trainings and fill
    # the core that the last, longest training leaves idle.
    with ProcessPoolExecutor(args.jobs) as pool:
        victor = submit_victor(pool, pages, args.folds, args.max_iterations,
                               not args.no_transfer, args.fold_seed)
        peer_texts = None if args.no_peers else submit_peers(pool, everything)
        cv, moved = victor()
        peers = peer_texts() if peer_texts else {}
    systems = {f"victor {name}": run.texts for name, run in cv.items()}
    systems.update(peers)
    print(f"Pages of web sites the model has not seen: {args.folds} folds grouped by site; "
          f"{sum(map(len, pages.values()))} pages.\n")
    print(quality_table(pages, systems) + "\n")
    if "wcxb-dev" in pages:
        print("wcxb-dev by page type (bag-of-words F1), and WCXB's snippets:\n")
        print(page_type_table(pages["wcxb-dev"], systems) + "\n")
    if moved:
        print(f"Transfer: the {DEFAULT_CONFIG} config trained on one collection (or all but one) "
              "and tested on another:\n")
        print(transfer_table(pages, moved, peers) + "\n")
    default = cv[DEFAULT_CONFIG]
    if args.save_run:
        # Each CRF's own labels, under its config's name: what the second
        # pass is trained on (learn --second-pass).
        firsts = {name: run for name, run in cv.items()
                  if name != FIRST_PASS and load_config(name).second_pass is None}
        firsts[DEFAULT_CONFIG] = cv[FIRST_PASS]
        files.write_atomic(args.save_run, json.dumps(
            {name: {"content": run.content, "truth": run.truth, "labels": run.widened}
             for name, run in firsts.items()}) + "\n")
    fitted = fit_temperatures(pages, default)
    print(f"Calibration of the {DEFAULT_CONFIG} config's content probability (cross-validated), "
          "by temperature scaling (victor/decoding/calibration.py): expected calibration error and log "
          "loss of the blocks, uncalibrated, at the temperature fitted on the other "
          "collections' blocks, and at the one fitted on every collection's (as "
          "`victor learn --calibrate` fits it):\n")
    print(calibration_table(pages, default, fitted) + "\n")
    print("Share of blocks that are content, by probability band (blocks), uncalibrated and "
          "at the temperature fitted on all:\n")
    print(reliability_table(pages, default, fitted["all"]) + "\n")
    print(f"Word precision / recall with --threshold (content blocks kept only at or above it; "
          f"probabilities at temperature {fitted['all']:.2f}):\n")
    print(threshold_table(pages, default, load_config(DEFAULT_CONFIG), fitted["all"]) + "\n")
    for name, run in cv.items():
        config = load_config(DEFAULT_CONFIG if name == FIRST_PASS else name)
        if name != FIRST_PASS and config.second_pass is not None:
            continue  # its first pass is the default config's, decoded below
        print(f"The {name} config's held-out predictions decoded with other settings "
              f"(victor/decoding/; it has keep-above {config.keep_above}, fallback-share "
              f"{config.fallback_share}), before any second pass:\n")
        print(decoding_table({c: ps for c, ps in pages.items()
                              if all(p.anno in run.paths for p in ps)}, run, config) + "\n")
    for (trained, tested), run in sorted(moved.items()):
        if trained.startswith("all but "):
            print(f"The {DEFAULT_CONFIG} config trained on {trained}, on {tested}, decoded with "
                  "other settings:\n")
            print(decoding_table({tested: pages[tested]}, run, load_config(DEFAULT_CONFIG)) + "\n")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
