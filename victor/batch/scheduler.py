"""The parent's side of a batch, which hands the work
to worker processes (victor/batch/workers.py) and settles what comes back.
Inputs are found in victor/batch/inputs.py and named in jobs.py, outputs
written in victor/files.py.

A batch never loses what a user had and never leaves half an output: every
output is written to a temporary file and renamed into place, an existing
output is kept (and counted as done, so that running the command again
after an interruption finishes the rest) unless `overwrite` is asked for,
and every page that failed is reported with its reason.

The work is cut into items (a page file, or one HTML record of a WARC
file) and items into chunks, so that a worker process pays the cost of a
round trip once for several pages. Chunks are settled in input order, which
keeps standard output and every WARC's lines in the order of the input
whatever the number of processes.
"""

from __future__ import annotations

import sys
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable

from victor.batch import crawl
from victor.errors import VictorError
from victor.files import AtomicFile, output_exists
from victor.batch.inputs import open_input, read_input
from victor.batch.jobs import Job
from victor.batch.report import Report, StdoutPages
from victor.batch.chunks import Chunk, Finish, Route
from victor.batch.workers import Inline, Item, Outcome, RunOptions, clean_chunk, start_worker

# Chunks in the workers' hands per worker. Chunks are settled in order, so
# one slow page holds up the settling of those after it: the window must be
# wide enough for the other workers to keep going meanwhile.
WINDOW = 4

_NO_SPACE = "No space left on device"


class _DiskFull(Exception):
    """A page's output met a full disk: the batch stops at the first."""


class _Batch:
    """The parent's side of `run`: reads the jobs into chunks, keeps a
    window of chunks in the workers' hands and settles them in order."""

    def __init__(self, jobs: list[Job], options: RunOptions, workers: int,
                 write: Callable[[str], None],
                 on_progress: Callable[[Report, float | None], None] | None):
        self.options = options
        self.workers = workers
        self.write = write
        self.on_progress = on_progress
        self.stdout = StdoutPages(jobs, write)
        self.report = Report()
        sizes = [job.size for job in jobs]
        self.total = None if None in sizes else sum(sizes)  # type: ignore[arg-type]
        self.done_bytes = 0
        self.open_outputs: list[AtomicFile] = []
        self.window: deque[tuple[Future, Chunk] | Finish] = deque()
        self.chunk = Chunk()
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor | Inline:
        if self.workers <= 1:
            return Inline()
        return ProcessPoolExecutor(self.workers, initializer=start_worker,
                                   initargs=(self.options,))

    def _submit(self, chunk: Chunk) -> Future:
        try:
            return self.pool.submit(clean_chunk, chunk.items, self.options)
        except BrokenProcessPool:
            self._replace_pool()
            return self.pool.submit(clean_chunk, chunk.items, self.options)

    def _replace_pool(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = self._new_pool()

    def _outcomes(self, fut: Future, chunk: Chunk) -> list[Outcome]:
        """A worker that dies (out of memory, a crash in a parser) breaks the
        whole pool and every chunk in its hands: each is tried once more in
        a fresh pool, and fails only if that breaks too."""
        try:
            return fut.result()
        except BrokenProcessPool:
            self._replace_pool()
        try:
            return self._submit(chunk).result()
        except BrokenProcessPool:
            self._replace_pool()
            why = ("a worker process died (out of memory or a crash) on this page "
                   "or one sent with it")
            return [(None, why, False)] * len(chunk.items)

    def settle(self, entry: tuple[Future, Chunk] | Finish,
               outcomes: list[Outcome] | None = None) -> None:
        if isinstance(entry, Finish):
            if entry.out is not None:
                self.open_outputs.remove(entry.out)
                if not entry.ok:
                    entry.out.discard()
                else:
                    try:
                        entry.out.commit()
                    except VictorError as e:
                        self.report.failed.append((entry.source, str(e)))
            self.done_bytes += entry.weight
        else:
            fut, chunk = entry
            if outcomes is None:
                outcomes = self._outcomes(fut, chunk)
            for (text, error, skipped), route in zip(outcomes, chunk.routes):
                if self.tally(route.source, error, skipped) and text is not None \
                        and route.sink is not None:
                    route.sink(text)
                self.done_bytes += route.weight
        if self.on_progress is not None:
            self.on_progress(self.report, self.done_bytes / self.total if self.total else None)

    def tally(self, source: str, error: str | None, skipped: bool) -> bool:
        """Counts a page's outcome in the report; whether it was cleaned."""
        if skipped:
            self.report.other_language += 1
            self.report.other_languages.append((source, error or ""))
        elif error is not None:
            if _NO_SPACE in error:  # every page after it would fail alike
                raise _DiskFull(f"{source}: {error}")
            self.report.failed.append((source, error))
        else:
            self.report.done += 1
        return not skipped and error is None

    def hand_over(self, entry: Finish | None = None) -> None:
        """Sends the chunk being filled (and then `entry`) into the window,
        settling the oldest entries while it is wider than the workers need
        to stay busy."""
        if self.chunk.items:
            self.window.append((self._submit(self.chunk), self.chunk))
            self.chunk = Chunk()
        if entry is not None:
            self.window.append(entry)
        while len(self.window) > WINDOW * self.workers:
            self.settle_oldest()

    def settle_oldest(self) -> None:
        """Taken off the window only once its outcomes are back: a Ctrl-C
        while waiting for them leaves it there, to be counted by
        `count_finished`, and one after leaves it counted once."""
        entry = self.window[0]
        outcomes = None if isinstance(entry, Finish) else self._outcomes(*entry)
        self.window.popleft()
        self.settle(entry, outcomes)

    def count_finished(self) -> None:
        """After Ctrl-C, once the workers have finished the chunks in their
        hands: the pages they wrote to their files are counted, so that the
        summary says what is on disk (it said 19 cleaned with 35 outputs
        there). Text for standard output or a WARC's output, which is not
        written after an interrupt, is not counted."""
        for entry in self.window:
            if isinstance(entry, Finish):
                continue
            fut, chunk = entry
            if not fut.done() or fut.cancelled() or fut.exception() is not None:
                continue
            for (_, error, skipped), route in zip(fut.result(), chunk.routes):
                if route.sink is None:
                    self.tally(route.source, error, skipped)
        # In one process, the chunk being cleaned when Ctrl-C came has no
        # future: its pages whose output is there now were written by it.
        for item in self.chunk.items:
            if (item.output is not None and not self.options.overwrite
                    and output_exists(item.output)):
                self.report.done += 1

    def add(self, item: Item, route: Route) -> None:
        self.chunk.add(item, route)
        if self.chunk.full():
            self.hand_over()

    def page(self, job: Job) -> None:
        data = None
        if job.source == "-":
            try:
                data = read_input("-", self.options.max_bytes)  # only this process has it
            except VictorError as e:
                self.report.failed.append((job.source, str(e)))
                return
        self.add(Item(job.source, job.fmt, job.output, data=data, path=job.path, url=job.url),
                 Route(job.source, self.stdout.sink(job) if job.output is None else None,
                        job.size or 0))

    def warc(self, job: Job) -> None:
        """Its HTML records become items; its output is one file, committed
        after the last record is settled."""
        self.hand_over()
        out, sink, read_to, ok = None, self.write, 0, False
        try:
            if job.output is not None:
                out = AtomicFile(job.output)
                self.open_outputs.append(out)
                sink = out.write
            with open_input(job.source, job.path) as stream:
                for rec in crawl.records(stream, job.source):
                    if not rec.html:
                        self.report.not_html += 1
                        continue
                    self.add(Item(rec.source, "jsonl", data=rec.data, url=rec.url,
                                  encoding=rec.encoding, record=True),
                             Route(f"{rec.source} ({rec.url})", sink, rec.position - read_to))
                    read_to = rec.position
            ok = True
        except VictorError as e:
            why = str(e).removeprefix(f"{job.source}: ")
        except Exception as e:  # anything else the reader finds wrong with it
            why = f"cannot read it as WARC ({type(e).__name__}: {e})"
        if not ok:
            if out is not None:
                why += f"; nothing written to {job.output}"
            self.report.failed.append((job.source, why))
        self.hand_over(Finish(job.source, out, ok, max((job.size or 0) - read_to, 0)))

    def run(self, jobs: list[Job]) -> Report:
        try:
            for job in jobs:
                if (job.output is not None and not self.options.overwrite
                        and output_exists(job.output)):
                    self.report.skipped += 1
                    # Out of the total rather than done: the time left is
                    # judged by the pace of the work this run does.
                    if self.total is not None:
                        self.total -= job.size or 0
                elif job.warc:
                    self.warc(job)
                else:
                    self.page(job)
            self.hand_over()
            while self.window:
                self.settle_oldest()
        except KeyboardInterrupt:
            self.report.interrupted = True
        except _DiskFull as e:
            self.report.stopped = (f"{e}; the batch stopped there: free some space and run "
                                   "the same command again")
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)
            for out in self.open_outputs:
                out.discard()
        if self.report.interrupted:
            self.count_finished()
        return self.report


def run(jobs: list[Job], options: RunOptions, workers: int = 1,
        write: Callable[[str], None] | None = None,
        on_progress: Callable[[Report, float | None], None] | None = None) -> Report:
    """Cleans every job, in `workers` processes (1: in this one), writing
    page files and WARC outputs as they complete and standard-output text
    (through `write`) in input order. Ctrl-C stops handing out work, lets
    the chunks in the workers' hands finish and returns the report marked
    interrupted."""
    return _Batch(jobs, options, workers, write or _stdout, on_progress).run(jobs)


def _stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
