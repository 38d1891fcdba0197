"""A time limit per page, so that a batch keeps moving whatever a crawl
delivers: a page that takes too long is reported and skipped."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator

from victor.errors import VictorError

DEFAULT_TIMEOUT = 60.0


@contextmanager
def time_limit(seconds: float | None, source: str) -> Iterator[None]:
    """Raises a VictorError naming `source` in the code run inside it once
    `seconds` have passed, so that a page that takes too long is reported
    and the worker goes on with the next one. SIGALRM interrupts Python
    code between bytecodes: a call into C (a parser, crfsuite) finishes
    first, which the depth limit (victor/reading/depth.py) and the size limit
    keep to seconds.
    Signals reach only the main thread; elsewhere (a Dask worker's task
    thread) the code runs without a limit."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise VictorError(f"{source}: took longer than {seconds:g} s to clean; skipped "
                          "(raise --timeout to allow more)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
