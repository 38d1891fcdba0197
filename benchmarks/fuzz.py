#!/usr/bin/env python3
"""Fuzzing: the properties of tests/test_properties.py on as many generated
pages as fit in a time budget, with fresh random examples every round.

    python benchmarks/fuzz.py --minutes 10 [--model M] [--failures DIR]

Every failure is shrunk by hypothesis to a small example, which is saved
to DIR (one file a distinct failure, with the error beside it) so that it
can become a test. Prints the examples tried per property and the failures
found; exits 1 if there were any.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
import warnings
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis.errors import HypothesisWarning
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_properties import (PARSERS, any_bytes, charset_labels,  # noqa: E402
                             clean_or_refuse, html_pages, mutated_pages, read_with_parser)

from victor.cleaner import Cleaner  # noqa: E402
from victor.limits import time_limit  # noqa: E402

# A round of one property; rounds alternate so that every property gets
# its share of any budget.
ROUND = 200
# A generated page that takes this long (wall-clock, on a busy machine) has
# hit something quadratic; the properties also check CPU time.
HANG_SECONDS = 60.0


def same_twice(cleaner: Cleaner, data: bytes) -> None:
    first, second = clean_or_refuse(cleaner, data), clean_or_refuse(cleaner, data)
    assert (first is None) == (second is None)
    if first is not None:
        assert second.render("victor") == first.render("victor")


PROPERTIES = {
    "any bytes": (any_bytes, clean_or_refuse),
    "markup": (html_pages(), clean_or_refuse),
    "damaged real pages": (mutated_pages(), clean_or_refuse),
    "declared charsets": (st.tuples(html_pages(), charset_labels),
                          lambda cleaner, d: clean_or_refuse(cleaner, *d)),
    "every parser": (st.tuples(st.one_of(html_pages(), any_bytes),
                               st.sampled_from(sorted(PARSERS))),
                     lambda cleaner, d: read_with_parser(*d)),
    "same output twice": (st.one_of(html_pages(), any_bytes), same_twice),
}


def fuzz(cleaner: Cleaner, seconds: float, failures: Path) -> tuple[dict[str, int], list[str]]:
    tried = dict.fromkeys(PROPERTIES, 0)
    found: dict[str, str] = {}  # error signature -> saved file
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for name, (strategy, check) in PROPERTIES.items():
            if time.monotonic() >= deadline:
                break
            failing: list = []

            @settings(max_examples=ROUND, deadline=None, database=None, derandomize=False,
                      suppress_health_check=list(HealthCheck))
            @given(data=strategy)
            def run(data) -> None:
                tried[name] += 1
                try:
                    with time_limit(HANG_SECONDS, "fuzz"):
                        check(cleaner, data)
                except BaseException:
                    failing.append(data)  # the last one is the shrunk example
                    raise

            try:
                run()
            except Exception as e:
                where = traceback.extract_tb(e.__traceback__)[-1]
                signature = f"{type(e).__name__} at {Path(where.filename).name}:{where.lineno}"
                if signature not in found:
                    path = failures / f"failure-{len(found) + 1}.html"
                    failures.mkdir(parents=True, exist_ok=True)
                    example = failing[-1]
                    path.write_bytes(example if isinstance(example, bytes)
                                     else repr(example).encode())
                    path.with_suffix(".txt").write_text(
                        f"{name}: {signature}\n\n{''.join(traceback.format_exception(e))}",
                        encoding="utf-8")
                    found[signature] = str(path)
                    print(f"FAILURE {signature} ({name}): example in {path}", flush=True)
    return tried, [f"{sig}: {path}" for sig, path in found.items()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10, help="time budget (default 10)")
    ap.add_argument("--config", default="cleaneval")
    ap.add_argument("--model", help="model file (default: the config's)")
    ap.add_argument("--failures", default="fuzz-failures",
                    help="folder for the shrunk failing examples (default fuzz-failures)")
    args = ap.parse_args()
    warnings.simplefilter("ignore", HypothesisWarning)  # long reprs of big examples
    cleaner = Cleaner(args.config, args.model)
    started = time.monotonic()
    tried, failures = fuzz(cleaner, args.minutes * 60, Path(args.failures))
    minutes = (time.monotonic() - started) / 60
    print(f"{minutes:.1f} minutes, {sum(tried.values())} examples, {len(failures)} failures")
    for name, n in tried.items():
        print(f"  {name}: {n} examples")
    for line in failures:
        print(f"  failure: {line}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
