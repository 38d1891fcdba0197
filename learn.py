#!/usr/bin/env python3
"""Train a model, or cross-validate, from annotated pages:
python learn.py --config cleaneval -o models/cleaneval.crfsuite data/cleaneval/*.anno
python learn.py --config cleaneval --cross-validate 6 data/cleaneval/*.anno"""

import argparse
import sys

from victor.learning import main as learn_main


def main() -> int:
    ap = argparse.ArgumentParser(description="Train a Victor CRF model from .anno files.")
    ap.add_argument("files", nargs="+", help=".anno files (or folders of them)")
    ap.add_argument("--config", default="cleaneval", help="config name (configs/NAME.yaml) or path")
    ap.add_argument("-o", "--output", help="model file to write (default: the config's model)")
    ap.add_argument("--cross-validate", type=int, metavar="K",
                    help="split the pages into K folds, train and test each, print the figures")
    ap.add_argument("--split", choices=("site", "page"), default="site",
                    help="cross-validation folds keep each web site on one side (default), "
                         "or split pages regardless of site (the old, optimistic figures)")
    ap.add_argument("--disable", nargs="+", default=[], metavar="FEATURE",
                    help="leave these features out (FAMILY.* for a whole family)")
    ap.add_argument("--c1", type=float, help="L1 regularisation (default: from the config)")
    ap.add_argument("--c2", type=float, help="L2 regularisation (default: from the config)")
    ap.add_argument("--max-iterations", type=int, help="L-BFGS iterations (default: from the config)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="processes for cross-validation folds")
    ap.add_argument("--debug", action="store_true", help="show tracebacks")
    return learn_main(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())
