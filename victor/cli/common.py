"""What every subcommand of the `victor` command shares."""

from __future__ import annotations

import os
import sys
import traceback

from victor.config import CONFIG_DIR, DEFAULT_CONFIG

INTERRUPTED = 130  # what a shell reports for a program stopped by Ctrl-C
CLOSED_PIPE = 141  # and for one stopped by writing to a pipe nobody reads


def fail(message: str, debug: bool = False) -> int:
    if debug:
        traceback.print_exc()
    print(f"error: {message}", file=sys.stderr)
    return 2


def _absolute(path: str | None) -> str | None:
    """Worker processes started elsewhere (a cluster) must find the same
    files whatever their working folder."""
    return os.path.abspath(path) if path else None


_CONFIG_HELP = (f"config name (victor/configs/NAME.yaml: "
                f"{', '.join(sorted(p.stem for p in CONFIG_DIR.glob('*.yaml')))}) or path "
                f"(default {DEFAULT_CONFIG})")
