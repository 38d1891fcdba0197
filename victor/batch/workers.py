"""The work a worker process does: clean a chunk of pages, each within its
time limit, and keep one Cleaner for every chunk it is sent.

A page's failure, whatever it is, is that page's and never the batch's;
workers leave Ctrl-C to the parent and die with it.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from victor.errors import OtherLanguage, VictorError
from victor.files import write_atomic
from victor.batch.inputs import check_size, read_input
from victor.batch.timeout import DEFAULT_TIMEOUT, time_limit
from victor.output import Rendering

if TYPE_CHECKING:
    from victor.cleaner import Cleaner


@dataclass(frozen=True, slots=True)
class RunOptions:
    """Everything a worker needs, small enough to send with every chunk."""

    config: str | None  # None: the model's own (Cleaner.from_model)
    model: str | None = None
    threshold: float | None = None
    max_bytes: int = 50_000_000
    overwrite: bool = False
    timeout: float | None = DEFAULT_TIMEOUT  # seconds a page may take; None: no limit
    languages: str | None = None  # "en,de": pages in other languages are skipped
    favor: str | None = None  # --favor precision|recall
    # What markdown and html leave out: --no-links, --no-images, --no-tables.
    rendering: Rendering = field(default_factory=Rendering)
    comments: str | None = None  # --comments keep|drop; None: by the page's type


@dataclass(slots=True)
class Item:
    """One page to clean. `data` is None for a page file, which the worker
    reads itself so that the parent process does not copy it."""

    source: str
    fmt: str
    output: str | None = None  # the worker writes it; None: the text comes back
    data: bytes | None = None
    path: str | None = None  # where to read it, if not at `source`
    url: str = ""
    encoding: str | None = None
    # A WARC record: one without text still gets its line (empty text), so
    # that the record is accounted for; a page file without text fails.
    record: bool = False


# (text, error, skipped): the rendered page unless it was written to its
# output, or why the page failed, or whether it was skipped (its text in
# none of the languages asked for; `error` then says which language).
Outcome = tuple[str | None, str | None, bool]

_worker = threading.local()


def worker_cleaner(options: RunOptions) -> Cleaner:
    """The Cleaner of this process and thread, built on first use. A worker
    process (pool or Dask) loads the model once and keeps it for every chunk
    it is sent; keeping it per thread as well means a Dask worker running
    several threads never shares one model's caches between them."""
    key = (options.config, options.model, options.threshold, options.languages,
           options.favor, options.comments)
    cached = getattr(_worker, "cleaner", None)
    if cached is None or cached[0] != key:
        from victor.cleaner import Cleaner

        cached = (key, Cleaner(*key))
        _worker.cleaner = cached
    return cached[1]


def clean_item(cleaner: Cleaner, item: Item, max_bytes: int, timeout: float | None = None,
               rendering: Rendering = Rendering()) -> Outcome:
    """A VictorError or any other exception from one page is that page's
    failure, never the batch's; so is taking longer than `timeout` seconds
    to clean."""
    try:
        if item.data is None:
            data = read_input(item.source, max_bytes, item.path)
        else:
            check_size(item.source, len(item.data), max_bytes)
            data = item.data
        with time_limit(timeout, item.source):
            if item.record:
                result = cleaner.label(cleaner.read(data, item.source, item.url, item.encoding))
                cleaner.check_language(result, item.source)
            else:
                result = cleaner.clean(data, item.source, item.url, item.encoding)
            text = result.render(item.fmt, rendering)
        if item.output is None:
            return text, None, False
        write_atomic(item.output, text)
        return None, None, False
    except OtherLanguage as e:  # skipped, and why: the report names it
        return None, str(e).removeprefix(f"{item.source}: "), True
    except VictorError as e:
        return None, str(e).removeprefix(f"{item.source}: "), False
    except Exception as e:
        return None, f"internal error: {type(e).__name__}: {e}", False


def clean_chunk(items: list[Item], options: RunOptions) -> list[Outcome]:
    cleaner = worker_cleaner(options)
    return [clean_item(cleaner, item, options.max_bytes, options.timeout, options.rendering)
            for item in items]


def start_worker(options: RunOptions) -> None:
    """Ctrl-C reaches every process of the terminal's group: workers leave
    it to the parent, which stops handing out work and lets them finish
    the chunk in hand, so no output is cut short. A parent killed outright
    cannot tell its workers, which would wait for work forever: they watch
    for it instead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
    worker_cleaner(options)


def exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


class Inline:
    """One process: the chunk is cleaned when it is handed over."""

    def submit(self, fn: Callable, *args) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args))
        except Exception as e:
            fut.set_exception(e)
        return fut

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass
