"""Cleaning many pages: finding inputs, naming and writing outputs safely,
carrying on past a bad page, and spreading the work over processes.

A batch never loses what a user had and never leaves half an output:
every output is written to a temporary file and renamed into place, an
existing output is kept (and counted as done, so that running the same
command again after an interruption finishes the rest) unless `overwrite`
is asked for, and every page that failed is reported with its reason at
the end.

The work is cut into items (a page file, or one HTML record of a WARC
file) and items into chunks, so that a worker process pays the cost of a
round trip once for several pages. Chunks are settled in input order, which
keeps standard output and every WARC's lines in the order of the input
whatever the number of processes.
"""

from __future__ import annotations

import gzip
import os
import signal
import sys
import threading
import time
import uuid
import zlib
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Callable, Iterable, Iterator

from victor import crawl
from victor.errors import VictorError
from victor.limits import DEFAULT_TIMEOUT, time_limit
from victor.output import FORMATS, HEADED, page_header

if TYPE_CHECKING:
    from victor.cleaner import Cleaner

DEFAULT_FORMAT = "cleaneval"
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml", ".php", ".asp", ".aspx", ".txt")
# A page saved gzip-compressed (NAME.html.gz) is read as the page itself:
# collections of pages are kept that way (data/wcxb).
GZIP_SUFFIX = ".gz"


def is_page_name(name: str) -> bool:
    name = name.lower().removesuffix(GZIP_SUFFIX)
    return name.endswith(PAGE_SUFFIXES)


def page_stem(source: str) -> str:
    """NAME of NAME.html and of NAME.html.gz."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    if name.lower().endswith(GZIP_SUFFIX):
        name = name[:-len(GZIP_SUFFIX)]
    return name.rsplit(".", 1)[0]
# Pages a worker cleans per round trip: a page takes tens of milliseconds,
# a round trip well under one. Small chunks, and a big page in a chunk
# nearly of its own, keep the processes evenly busy to the end of a batch.
CHUNK_PAGES = 4
CHUNK_BYTES = 500_000
# Chunks in the workers' hands per worker. Chunks are settled in order, so
# one slow page holds up the settling of those after it: the window must be
# wide enough for the other workers to keep going meanwhile.
WINDOW = 4


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a worker needs, small enough to send with every chunk."""

    config: str
    model: str | None = None
    threshold: float | None = None
    max_bytes: int = 50_000_000
    overwrite: bool = False
    timeout: float | None = DEFAULT_TIMEOUT  # seconds a page may take; None: no limit


@dataclass(slots=True)
class Job:
    source: str  # what messages name: a path, a URL or "-"
    output: str | None  # a path or fsspec URL; None: write to standard output
    fmt: str
    warc: bool = False
    size: int | None = None  # bytes of input, when known, for progress
    # Where to read it, when not at `source` itself: a cluster worker is
    # given an absolute path, while outputs keep naming the input as given.
    path: str | None = None


@dataclass
class Report:
    done: int = 0  # pages cleaned
    skipped: int = 0  # outputs that were there already
    not_html: int = 0  # WARC records that are not HTML pages
    failed: list[tuple[str, str]] = field(default_factory=list)
    interrupted: bool = False

    def add(self, other: Report) -> None:
        self.done += other.done
        self.skipped += other.skipped
        self.not_html += other.not_html
        self.failed.extend(other.failed)
        self.interrupted |= other.interrupted

    def summary(self) -> str:
        head = f"{self.done} cleaned, {self.skipped} already done, {len(self.failed)} failed"
        if self.not_html:
            head += f", {self.not_html} WARC records skipped (not HTML)"
        lines = [head]
        lines.extend(f"failed: {src}: {why}" for src, why in self.failed)
        if self.interrupted:
            lines.append("interrupted: run the same command again to finish the rest")
        return "\n".join(lines)


# --- inputs and outputs ---------------------------------------------------

def is_url(name: str) -> bool:
    return "://" in name


def discover(inputs: Iterable[str]) -> Iterator[str]:
    """Files as given; folders walked for pages and WARC files in sorted
    order; `-` is standard input. A missing input is still yielded, so that
    it is reported as failed in its place rather than silently dropped."""
    for item in inputs:
        p = Path(item)
        if item != "-" and not is_url(item) and p.is_dir():
            found = False
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for name in sorted(files):
                    if ((is_page_name(name) or name.lower().endswith(crawl.WARC_SUFFIXES))
                            and not name.startswith(".")):
                        found = True
                        yield str(Path(root) / name)
            if not found:
                raise VictorError(f"no pages or WARC files found in {item}")
        else:
            yield item


def plan(sources: Iterable[str], outdir: str | None, fmt: str | None) -> list[Job]:
    """Each input NAME.html gives OUTDIR/NAME plus the format's suffix, each
    NAME.warc.gz gives OUTDIR/NAME.jsonl; two inputs that would share an
    output are an error before any work. WARC files hold many pages and are
    always written as JSON lines, one a page. No output may be an input,
    whatever `--overwrite` says: that would lose the user's page."""
    sources = list(sources)
    inputs = {os.path.realpath(s): s for s in sources if s != "-" and not is_url(s)}
    jobs, seen = [], {}
    for src in sources:
        warc = src != "-" and crawl.is_warc(src)
        if warc and fmt not in (None, "jsonl"):
            raise VictorError(f"{src}: WARC files are cleaned to JSON lines, one a page; "
                              f"drop --format {fmt} or clean the WARC files separately")
        job_fmt = "jsonl" if warc else fmt or DEFAULT_FORMAT
        out = None
        if outdir is not None:
            stem = ("stdin" if src == "-" else crawl.warc_stem(src) if warc
                    else page_stem(src))
            out = join(outdir, stem + FORMATS[job_fmt])
            if out in seen:
                raise VictorError(f"{src}: its output {out} would overwrite that of {seen[out]}; "
                                  "clean them into different folders")
            seen[out] = src
            replaced = None if is_url(out) else inputs.get(os.path.realpath(out))
            if replaced is not None:
                raise VictorError(f"{src}: its output {out} would replace the input {replaced}; "
                                  "choose another folder with -o")
        jobs.append(Job(src, out, job_fmt, warc, _size(src)))
    return jobs


def make_folder(folder: str) -> None:
    """The output folder, made before any work: one clear error rather than
    the same failure for every page."""
    try:
        if is_url(folder):
            fs, path = _filesystem(folder)
            fs.makedirs(path, exist_ok=True)
        else:
            os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise VictorError(f"{folder}: cannot write output there ({e.strerror or e}); "
                          "choose another folder with -o")


def join(folder: str, name: str) -> str:
    """For paths and URLs alike."""
    return f"{folder.rstrip('/')}/{name}"


def _size(source: str) -> int | None:
    if source == "-" or is_url(source):
        return None
    try:
        return os.path.getsize(source)
    except OSError:
        return 0  # reported as failed when read


def _filesystem(url: str):
    """The fsspec filesystem of a URL; fsspec and the driver of its protocol
    (s3fs for s3://, gcsfs for gs://) are needed only for URLs. Web
    addresses are refused: fetching pages well (timeouts, retries, robots
    rules, politeness) is a crawler's job, not a cleaner's."""
    if url.lower().startswith(("http://", "https://")):
        raise VictorError(f"{url}: Victor does not download pages; save the page first "
                          "(curl -o page.html URL) and clean the file")
    try:
        import fsspec

        return fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as e:
        raise VictorError(f"{url}: cannot open this kind of URL ({e}); install fsspec and the "
                          "package its protocol needs")


def open_input(source: str, path: str | None = None) -> IO[bytes]:
    """A page or WARC file, local or at any fsspec URL, for reading; read
    from `path` if given, named `source` in messages either way."""
    where = path or source
    try:
        gzipped = where.lower().endswith(GZIP_SUFFIX) and not crawl.is_warc(where)
        if is_url(where):
            fs, inner = _filesystem(where)
            return fs.open(inner, "rb", compression="gzip" if gzipped else None)
        return gzip.open(where, "rb") if gzipped else open(where, "rb")
    except FileNotFoundError:
        raise VictorError(f"{source}: no such file")
    except IsADirectoryError:
        raise VictorError(f"{source}: is a folder, not a page")
    except OSError as e:
        raise VictorError(f"{source}: cannot read ({e.strerror or e})")


def check_size(source: str, size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise VictorError(f"{source}: larger than the limit of {max_bytes / 1_000_000:g} MB; "
                          "raise --max-size to clean it")


def read_input(source: str, max_bytes: int | None = None, path: str | None = None) -> bytes:
    """The bytes of a page, gzip undone; `max_bytes` None reads it whole
    (annotated pages for training), else a larger page is an error."""
    limit = -1 if max_bytes is None else max_bytes + 1
    if source == "-":
        data = sys.stdin.buffer.read(limit)
    else:
        with open_input(source, path) as f:
            try:
                data = f.read(limit)
            except (OSError, EOFError, zlib.error) as e:
                raise VictorError(f"{source}: cannot read ({e.strerror or e})"
                                  if isinstance(e, OSError) and e.strerror
                                  else f"{source}: damaged gzip data ({e})")
    if not data:  # a failed download, most likely: reported, so that it is noticed
        raise VictorError(f"{source}: empty file, nothing to clean")
    if max_bytes is not None:
        check_size(source, len(data), max_bytes)
    return data


def output_exists(target: str) -> bool:
    if is_url(target):
        fs, path = _filesystem(target)
        return fs.exists(path)
    return os.path.exists(target)


class AtomicFile:
    """An output that appears whole or not at all: written to a hidden
    temporary file beside the target and renamed into place on `commit`.
    On an fsspec filesystem the rename is the filesystem's move (a
    server-side copy on object stores, which also never shows a partial
    object). A process killed outright can leave the hidden `.NAME.*.tmp`
    file behind, never a partial NAME."""

    def __init__(self, target: str):
        self.target = target
        parent, _, name = target.rpartition("/")
        self._fs = None
        self._error: OSError | None = None  # the first failed write (a full disk)
        try:
            if is_url(target):
                self._fs, path = _filesystem(target)
                folder = path.rpartition("/")[0]
                self._fs.makedirs(folder, exist_ok=True)
                self._tmp = f"{folder}/.{name}.{uuid.uuid4().hex}.tmp"
                self._file = self._fs.open(self._tmp, "w", encoding="utf-8")
                self._path = path
            else:
                folder = Path(parent or ".")
                folder.mkdir(parents=True, exist_ok=True)
                self._tmp = str(folder / f".{name}.{uuid.uuid4().hex}.tmp")
                # Not mkstemp: its files are private (0600), outputs are not.
                fd = os.open(self._tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                self._file = os.fdopen(fd, "w", encoding="utf-8")
        except OSError as e:
            raise VictorError(f"{parent or '.'}: cannot write output there "
                              f"({e.strerror or e}); choose another folder with -o")

    def write(self, text: str) -> None:
        """A failure is kept for `commit` to report: the lines of a WARC
        file are written as their pages come back, far from any place
        that could name the output."""
        if self._error is None:
            try:
                self._file.write(text)
            except OSError as e:
                self._error = e

    def commit(self) -> None:
        try:
            if self._error is not None:
                raise self._error
            self._file.close()
            if self._fs is not None:
                self._fs.mv(self._tmp, self._path)
            else:
                os.replace(self._tmp, self.target)
        except OSError as e:
            self.discard()
            raise VictorError(f"{self.target}: cannot write ({e.strerror or e})")

    def discard(self) -> None:
        try:
            self._file.close()
            if self._fs is not None:
                self._fs.rm(self._tmp)
            else:
                os.unlink(self._tmp)
        except OSError:
            pass


def write_atomic(target: str | Path, text: str) -> None:
    """A reader (or a rerun after a crash) sees the whole output or none of it."""
    out = AtomicFile(str(target))
    try:
        out.write(text)
        out.commit()
    except BaseException:
        out.discard()
        raise


# --- the work a worker does ----------------------------------------------

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


# (text, error): the rendered page unless it was written to its output,
# or why the page failed.
Outcome = tuple[str | None, str | None]

_worker = threading.local()


def worker_cleaner(settings: Settings) -> Cleaner:
    """The Cleaner of this process and thread, built on first use. A worker
    process (pool or Dask) loads the model once and keeps it for every chunk
    it is sent; keeping it per thread as well means a Dask worker running
    several threads never shares one model's caches between them."""
    key = (settings.config, settings.model, settings.threshold)
    cached = getattr(_worker, "cleaner", None)
    if cached is None or cached[0] != key:
        from victor.cleaner import Cleaner

        cached = (key, Cleaner(*key))
        _worker.cleaner = cached
    return cached[1]


def clean_item(cleaner: Cleaner, item: Item, max_bytes: int,
               timeout: float | None = None) -> Outcome:
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
            text = cleaner.clean(data, item.source, item.url, item.encoding).render(item.fmt)
        if item.output is None:
            return text, None
        write_atomic(item.output, text)
        return None, None
    except VictorError as e:
        return None, str(e).removeprefix(f"{item.source}: ")
    except Exception as e:
        return None, f"internal error: {type(e).__name__}: {e}"


def clean_chunk(items: list[Item], settings: Settings) -> list[Outcome]:
    cleaner = worker_cleaner(settings)
    return [clean_item(cleaner, item, settings.max_bytes, settings.timeout) for item in items]


def _start_worker(settings: Settings) -> None:
    """Ctrl-C reaches every process of the terminal's group: workers leave
    it to the parent, which stops handing out work and lets them finish
    the chunk in hand, so no output is cut short. A parent killed outright
    cannot tell its workers, which would wait for work forever: they watch
    for it instead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    worker_cleaner(settings)


def _exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


class _Inline:
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


# --- the parent: items in, outputs out, in input order -------------------

@dataclass(slots=True)
class _Route:
    """Where an item's outcome goes once its chunk is back."""

    source: str  # as failures name it
    sink: Callable[[str], None] | None  # None: the worker wrote the output
    weight: int  # bytes of input it stands for, for progress


@dataclass(slots=True)
class _Chunk:
    items: list[Item] = field(default_factory=list)
    routes: list[_Route] = field(default_factory=list)
    size: int = 0

    def add(self, item: Item, route: _Route) -> None:
        self.items.append(item)
        self.routes.append(route)
        self.size += len(item.data) if item.data is not None else route.weight

    def full(self) -> bool:
        return len(self.items) >= CHUNK_PAGES or self.size >= CHUNK_BYTES


@dataclass(slots=True)
class _Finish:
    """The end of a WARC file's records: commit its output, or discard it
    if the file could not be read to the end."""

    source: str
    out: AtomicFile | None
    ok: bool
    weight: int


class StdoutPages:
    """Standard output's side of a batch: when several pages of a format
    whose pages would run together (text, Markdown) go there, each is
    headed by a line naming it. Pages come in input order."""

    def __init__(self, jobs: list[Job], write: Callable[[str], None]):
        self.write = write
        self.headed = sum(1 for job in jobs if job.output is None and job.fmt in HEADED) > 1
        self.first = True

    def sink(self, job: Job) -> Callable[[str], None]:
        """Where the text of `job`'s page goes."""
        if not self.headed or job.fmt not in HEADED:
            return self.write

        def write(text: str) -> None:
            self.write(page_header(job.source, self.first) + text)
            self.first = False

        return write


class _Batch:
    """The parent's side of `run`: reads the jobs into chunks, keeps a
    window of chunks in the workers' hands and settles them in order."""

    def __init__(self, jobs: list[Job], settings: Settings, workers: int,
                 write: Callable[[str], None],
                 on_progress: Callable[[Report, float | None], None] | None):
        self.settings = settings
        self.workers = workers
        self.write = write
        self.on_progress = on_progress
        self.stdout = StdoutPages(jobs, write)
        self.report = Report()
        sizes = [job.size for job in jobs]
        self.total = None if None in sizes else sum(sizes)  # type: ignore[arg-type]
        self.done_bytes = 0
        self.open_outputs: list[AtomicFile] = []
        self.window: deque[tuple[Future, _Chunk] | _Finish] = deque()
        self.chunk = _Chunk()
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor | _Inline:
        if self.workers <= 1:
            return _Inline()
        return ProcessPoolExecutor(self.workers, initializer=_start_worker,
                                   initargs=(self.settings,))

    def _submit(self, chunk: _Chunk) -> Future:
        try:
            return self.pool.submit(clean_chunk, chunk.items, self.settings)
        except BrokenProcessPool:
            self._replace_pool()
            return self.pool.submit(clean_chunk, chunk.items, self.settings)

    def _replace_pool(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = self._new_pool()

    def _outcomes(self, fut: Future, chunk: _Chunk) -> list[Outcome]:
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
            return [(None, why)] * len(chunk.items)

    def settle(self, entry: tuple[Future, _Chunk] | _Finish) -> None:
        if isinstance(entry, _Finish):
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
            for (text, error), route in zip(self._outcomes(fut, chunk), chunk.routes):
                if error is not None:
                    self.report.failed.append((route.source, error))
                else:
                    self.report.done += 1
                    if text is not None and route.sink is not None:
                        route.sink(text)
                self.done_bytes += route.weight
        if self.on_progress is not None:
            self.on_progress(self.report, self.done_bytes / self.total if self.total else None)

    def hand_over(self, entry: _Finish | None = None) -> None:
        """Sends the chunk being filled (and then `entry`) into the window,
        settling the oldest entries while it is wider than the workers need
        to stay busy."""
        if self.chunk.items:
            self.window.append((self._submit(self.chunk), self.chunk))
            self.chunk = _Chunk()
        if entry is not None:
            self.window.append(entry)
        while len(self.window) > WINDOW * self.workers:
            self.settle(self.window.popleft())

    def add(self, item: Item, route: _Route) -> None:
        self.chunk.add(item, route)
        if self.chunk.full():
            self.hand_over()

    def page(self, job: Job) -> None:
        data = None
        if job.source == "-":
            try:
                data = read_input("-", self.settings.max_bytes)  # only this process has it
            except VictorError as e:
                self.report.failed.append((job.source, str(e).removeprefix("-: ")))
                return
        self.add(Item(job.source, job.fmt, job.output, data=data, path=job.path),
                 _Route(job.source, self.stdout.sink(job) if job.output is None else None,
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
                                  encoding=rec.encoding),
                             _Route(f"{rec.source} ({rec.url})", sink, rec.position - read_to))
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
        self.hand_over(_Finish(job.source, out, ok, max((job.size or 0) - read_to, 0)))

    def run(self, jobs: list[Job]) -> Report:
        try:
            for job in jobs:
                if (job.output is not None and not self.settings.overwrite
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
                self.settle(self.window.popleft())
        except KeyboardInterrupt:
            self.report.interrupted = True
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)
            for out in self.open_outputs:
                out.discard()
        return self.report


def run(jobs: list[Job], settings: Settings, workers: int = 1,
        write: Callable[[str], None] | None = None,
        on_progress: Callable[[Report, float | None], None] | None = None) -> Report:
    """Cleans every job, in `workers` processes (1: in this one), writing
    page files and WARC outputs as they complete and standard-output text
    (through `write`) in input order. Ctrl-C stops handing out work, lets
    the chunks in the workers' hands finish and returns the report marked
    interrupted."""
    return _Batch(jobs, settings, workers, write or _stdout, on_progress).run(jobs)


def _stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
