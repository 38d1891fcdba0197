"""What the scripts do once their arguments are parsed. Kept apart from the
scripts so that they stay argument parsing only, and from the stages so
that no stage knows about terminals or exit codes."""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

from victor import batch
from victor.errors import VictorError


def fail(message: str, debug: bool = False) -> int:
    if debug:
        traceback.print_exc()
    print(f"error: {message}", file=sys.stderr)
    return 2


def clean_main(args: argparse.Namespace) -> int:
    from victor.cleaner import Cleaner

    try:
        cleaner = Cleaner(args.config, args.model, args.threshold)
        outdir = Path(args.output) if args.output else None
        jobs = batch.plan(batch.discover(args.files), outdir, args.format)
    except VictorError as e:
        return fail(str(e), args.debug)

    def render(data: bytes, source: str) -> str:
        return cleaner.clean(data, source).render(args.format)

    report = batch.run(jobs, render, int(args.max_size * 1_000_000), args.overwrite)
    if report.failed or len(jobs) > 1 or outdir is not None:
        print(report.summary(), file=sys.stderr)
    return 1 if report.failed else 0
