"""Python's cyclic garbage collector, paused while a page is cleaned.

Cleaning a page allocates tens of thousands of containers (its tree, its
blocks, their features, the kept tree) that live until the page is done
and form no reference cycles, so reference counting frees every one of
them. The cyclic collector still walks them again and again as they age
through its generations, a cost that pausing it while a page is cleaned
and rendered all but removes (docs/notes/output.md, "What it costs"). It runs
again between pages, so garbage that does form cycles is collected as
before.
"""

from __future__ import annotations

import gc
from functools import wraps
from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable)


def paused(function: F) -> F:
    """`function` run with the collector paused, and the collector left as
    it was found: a caller that paused it itself finds it paused still."""
    @wraps(function)
    def run(*args, **kwargs):
        if not gc.isenabled():
            return function(*args, **kwargs)
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()
    return run  # type: ignore[return-value]
