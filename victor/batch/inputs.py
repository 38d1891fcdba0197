"""The inputs of a batch: finding pages and WARC files, and reading a
page's bytes (each one's output is named in victor/batch/jobs.py).

Bad inputs are reported by name, one line each, and never stop the others:
a missing file is still planned, so that it fails in its place.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import stat
import sys
import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Iterable

from victor.batch import crawl
from victor.errors import EMPTY_PAGE, VictorError, about
from victor.files import filesystem, is_url

# What a folder is walked for. Not .txt: beside saved pages it is most often
# gold text or Victor's own output, and cleaning it as a page would clash
# with the page's output. A file named on the command line is cleaned
# whatever its suffix; a file in a folder without a suffix (crawlers save
# `page1`) is a page if its first bytes are HTML's (`looks_like_html`).
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml", ".php", ".asp", ".aspx")
# A page saved gzip-compressed (NAME.html.gz) is read as the page itself:
# collections of pages are kept that way (data/wcxb).
GZIP_SUFFIX = ".gz"
# How much of a suffix-less file is read to tell whether it is a page.
SNIFF_BYTES = 1024
# What begins an HTML page, after a byte-order mark and white space: a tag,
# and within the first bytes one of the tags only a page has (CleanEval's
# wrapper `<text id=...>` may hold a long title before them).
_HTML_MARK = re.compile(rb"<(?:!doctype\s+html|html|head|body|title|meta|text\s+id=)[\s>/]",
                        re.IGNORECASE)


def _without_query(name: str) -> str:
    """`index.php` of `index.php?id=3`: wget saves a page under its URL's
    query, which is no part of the suffix."""
    return name.split("?", 1)[0]


def is_page_name(name: str) -> bool:
    name = _without_query(name).lower().removesuffix(GZIP_SUFFIX)
    return name.endswith(PAGE_SUFFIXES)


def has_suffix(name: str) -> bool:
    """Whether a file name says what the file is: `page1` and `article.12345`
    do not."""
    suffix = os.path.splitext(_without_query(name))[1]
    return len(suffix) > 1 and not suffix[1:].isdigit()


def looks_like_html(head: bytes) -> bool:
    """Whether the first bytes of a file are an HTML page's. UTF-16 markup
    is read with its zero bytes dropped, which leaves its ASCII tags."""
    head = head.removeprefix(b"\xef\xbb\xbf")
    if b"\x00" in head:
        head = head.replace(b"\x00", b"").removeprefix(b"\xff\xfe").removeprefix(b"\xfe\xff")
    head = head.lstrip()
    return head.startswith(b"<") and _HTML_MARK.search(head) is not None


def page_stem(source: str) -> str:
    """NAME of NAME.html and of NAME.html.gz."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    if name.lower().endswith(GZIP_SUFFIX):
        name = name[:-len(GZIP_SUFFIX)]
    return name.rsplit(".", 1)[0]


@dataclass(frozen=True, slots=True)
class Input:
    """A page or WARC file to clean, and where it was found."""

    source: str  # what messages name: a path, a URL or "-"
    # Its path below the folder named on the command line ("a/index.html"),
    # which its output's path below OUTDIR mirrors; a file named on the
    # command line: its file name.
    name: str
    folder: str | None = None  # the folder named on the command line it was found in


@dataclass
class PassedOver:
    """The files of the walked folders that were not cleaned, and why."""

    suffixes: Counter[str] = field(default_factory=Counter)  # named as no page: by suffix
    not_html: int = 0  # without a suffix, and not HTML in their first bytes (or unreadable)
    hidden: int = 0  # .NAME: a temporary file, a system's or a tool's
    # Files that are no regular file (a FIFO, a socket, a device), never
    # opened: reading a FIFO nobody writes to waits forever.
    not_regular: list[tuple[str, str]] = field(default_factory=list)

    def lines(self) -> list[str]:
        """For the summary at the end of a batch."""
        parts = []
        if self.suffixes:
            named = ", ".join(f"{n} {suffix}" for suffix, n in sorted(self.suffixes.items()))
            parts.append(f"{named} (not page names)")
        if self.not_html:
            parts.append(f"{self.not_html} without a suffix (not HTML in "
                         f"{'its' if self.not_html == 1 else 'their'} first bytes)")
        if self.hidden:
            parts.append(f"{self.hidden} hidden")
        lines = ["passed over in the folders: " + "; ".join(parts)] if parts else []
        lines.extend(f"skipped: {path}: {kind}, not a regular file; never opened"
                     for path, kind in self.not_regular)
        return lines


@dataclass
class Listing:
    inputs: list[Input] = field(default_factory=list)
    passed_over: PassedOver = field(default_factory=PassedOver)


_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def _not_regular(mode: int) -> str | None:
    """What a file that is no regular file is; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def _sniff(path: str) -> tuple[bool, str | None]:
    """(is a page, what it is if no regular file), from the first bytes of
    a file without a suffix. Opened without blocking, and checked again
    once open, so that a FIFO put in its place meanwhile is not waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False, None
    try:
        kind = _not_regular(os.fstat(fd).st_mode)
        if kind is not None:
            return False, kind
        return looks_like_html(os.read(fd, SNIFF_BYTES)), None
    except OSError:
        return False, None
    finally:
        os.close(fd)


def _walk(folder: str, listing: Listing) -> bool:
    """Adds the folder's pages and WARC files, in sorted order, to
    `listing`, and what it passes over; whether it found any."""
    found = False
    skipped = listing.passed_over
    refused: list[OSError] = []
    for root, dirs, files in os.walk(folder, onerror=refused.append):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if name.startswith("."):
                skipped.hidden += 1
                continue
            by_name = is_page_name(name) or name.lower().endswith(crawl.WARC_SUFFIXES)
            if not by_name and has_suffix(name):
                skipped.suffixes[os.path.splitext(_without_query(name))[1].lower()] += 1
                continue
            try:
                kind = _not_regular(os.stat(path).st_mode)
            except OSError:
                kind = None  # a broken link: a page by its name fails in its place
            if kind is None and not by_name:
                is_page, kind = _sniff(path)
                if kind is None and not is_page:
                    skipped.not_html += 1
                    continue
            if kind is not None:
                skipped.not_regular.append((path, kind))
                continue
            found = True
            listing.inputs.append(Input(path, os.path.relpath(path, folder), folder))
    if not found and refused:  # "no pages found" would hide why
        raise VictorError(f"cannot read the folder {refused[0].filename}: "
                          f"{(refused[0].strerror or str(refused[0])).lower()}")
    return found


def discover(inputs: Iterable[str]) -> Listing:
    """Files as given; folders walked for pages and WARC files in sorted
    order; `-` is standard input. A missing input is still listed, so that
    it is reported as failed in its place rather than silently dropped."""
    listing = Listing()
    for item in inputs:
        if item != "-" and not is_url(item) and os.path.isdir(item):
            if not _walk(item, listing):
                raise VictorError(f"no pages or WARC files found in {item} (a folder is "
                                  f"walked for {' '.join(PAGE_SUFFIXES)}, their .gz forms, "
                                  ".warc[.gz] and files without a suffix that begin as HTML); "
                                  "name other files one by one")
        else:
            listing.inputs.append(Input(item, file_name(item)))
    return listing


def file_name(source: str) -> str:
    return "-" if source == "-" else source.rstrip("/").rsplit("/", 1)[-1]


def open_input(source: str, path: str | None = None) -> IO[bytes]:
    """A page or WARC file, local or at any fsspec URL, for reading; read
    from `path` if given, named `source` in messages either way."""
    where = path or source
    try:
        gzipped = where.lower().endswith(GZIP_SUFFIX) and not crawl.is_warc(where)
        if is_url(where):
            fs, inner = filesystem(where)
            return fs.open(inner, "rb", compression="gzip" if gzipped else None)
        return gzip.open(where, "rb") if gzipped else open(where, "rb")
    except FileNotFoundError:
        raise VictorError(f"{source}: no such file")
    except IsADirectoryError:
        raise VictorError(f"{source}: is a folder, not a page")
    except OSError as e:
        raise VictorError(f"{source}: cannot read ({e.strerror or e})")


def _standard_input() -> contextlib.AbstractContextManager[IO[bytes]]:
    """Standard input, gzip undone where its first bytes say it is gzip
    (`zcat`'s input needs no name to be known as such), as a `.gz` file
    given by name is read. Not closed when the page is read."""
    stdin = sys.stdin.buffer
    head = stdin.peek(2)[:2] if hasattr(stdin, "peek") else b""
    if head == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=stdin, mode="rb")
    return contextlib.nullcontext(stdin)


def check_size(source: str, size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise VictorError(about(source, f"larger than the limit of {max_bytes / 1_000_000:g} "
                                        "MB; raise --max-size to clean it"))


def read_input(source: str, max_bytes: int | None = None, path: str | None = None) -> bytes:
    """The bytes of a page, gzip undone; `max_bytes` None reads it whole
    (annotated pages for training), else a larger page is an error."""
    limit = -1 if max_bytes is None else max_bytes + 1
    with _standard_input() if source == "-" else open_input(source, path) as f:
        try:
            data = f.read(limit)
        except (OSError, EOFError, zlib.error) as e:
            raise VictorError(f"{source}: cannot read ({e.strerror or e})"
                              if isinstance(e, OSError) and e.strerror
                              else f"{source}: damaged gzip data ({e})")
    if not data:  # a failed download, most likely: reported, so that it is noticed
        raise VictorError(about(source, EMPTY_PAGE))
    if max_bytes is not None:
        check_size(source, len(data), max_bytes)
    return data
