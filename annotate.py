#!/usr/bin/env python3
"""Annotate pages for training (docs/annotation.md): the same as
`victor annotate` (python3 annotate.py --help).

    python3 annotate.py PAGE.html PAGE.anno                      (interactive)
    python3 annotate.py [--from-gold GOLD.txt | --model M] PAGE.html PAGE.anno
    python3 annotate.py --from-gold GOLD.txt PAGE.html -o PAGE.anno
    python3 annotate.py --from-gold-dir GOLD_DIR HTML_DIR -o OUT_DIR
    python3 annotate.py --export cleaneval|text FILE.anno... [-o DIR]
    python3 annotate.py --stats FILE.anno...
"""

import sys

from victor.cli import script

if __name__ == "__main__":
    sys.exit(script("annotate"))
