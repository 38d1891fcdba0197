#!/usr/bin/env python3
"""Clean web pages: the same as `victor clean` (python3 clean.py --help)."""

import sys

from victor.cli import script

if __name__ == "__main__":
    sys.exit(script("clean"))
