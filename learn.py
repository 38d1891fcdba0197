#!/usr/bin/env python3
"""Train a model, or cross-validate, from annotated pages: the same as
`victor learn` (python3 learn.py --help)."""

import sys

from victor.cli import script

if __name__ == "__main__":
    sys.exit(script("learn"))
