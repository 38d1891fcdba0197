"""The inputs of a batch: finding pages and WARC files, naming each one's
output, and reading a page's bytes.

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
from urllib.parse import quote, urljoin

from victor.batch import crawl
from victor.errors import EMPTY_PAGE, VictorError, about
from victor.files import filesystem, is_url, join
from victor.output import DEFAULT_FORMAT, FORMATS

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
    url: str = ""  # the page's address (--url), which its relative links resolve against


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
            listing.inputs.append(Input(item, _file_name(item)))
    return listing


def _file_name(source: str) -> str:
    return "-" if source == "-" else source.rstrip("/").rsplit("/", 1)[-1]


def plan(inputs: Iterable[str | Input], outdir: str | None, fmt: str | None,
         url: str = "", default: str = DEFAULT_FORMAT) -> list[Job]:
    """Each input NAME.html gives OUTDIR/NAME plus the format's suffix, at
    the path below OUTDIR that the input has below the folder named (a
    mirrored site's a/index.html gives OUTDIR/a/index.txt); each
    NAME.warc.gz gives OUTDIR/NAME.jsonl. Where two inputs of a folder
    would share an output (page.html beside page.htm), each output keeps
    its input's whole name (page.html.txt, page.htm.txt); any other two
    inputs that would share one are an error before any work. WARC files
    hold many pages and are always written as JSON lines, one a page. No
    output may be an input, whatever `--overwrite` says: that would lose
    the user's page. `url` is the address of a page named, or of a folder
    named, whose pages' addresses follow their paths below it
    (`page_address`); a WARC record has its own."""
    inputs = [i if isinstance(i, Input) else Input(i, _file_name(i)) for i in inputs]
    if outdir is not None:  # a file named twice is one page, with one output
        named: dict[str, Input] = {}
        for i in inputs:
            named.setdefault(_same_file(i.source), i)
        inputs = list(named.values())
    local = {os.path.realpath(i.source): i.source for i in inputs
             if i.source != "-" and not is_url(i.source)}
    warcs = [i.source != "-" and crawl.is_warc(i.source) for i in inputs]
    formats, names = [], []
    for inp, warc in zip(inputs, warcs):
        if warc and fmt not in (None, "jsonl"):
            raise VictorError(f"{inp.source}: WARC files are cleaned to JSON lines, one a page; "
                              f"drop --format {fmt} or clean the WARC files separately")
        formats.append("jsonl" if warc else fmt or default)
        names.append(_output_name(inp, warc, formats[-1]) if outdir is not None else None)
    if outdir is not None:
        _check_outside_walked(outdir, inputs, formats)
        names = _apart(inputs, names, formats)
    jobs, seen = [], {}
    for inp, warc, job_fmt, name in zip(inputs, warcs, formats, names):
        out = None
        if name is not None:
            out = join(outdir, name)
            if out in seen:
                raise VictorError(f"{inp.source}: its output {out} would overwrite that of "
                                  f"{seen[out]}; clean them into different folders")
            seen[out] = inp.source
            replaced = None if is_url(out) else local.get(os.path.realpath(out))
            if replaced is not None:
                raise VictorError(f"{inp.source}: its output {out} would replace the input "
                                  f"{replaced}; choose another folder with -o")
        jobs.append(Job(inp.source, out, job_fmt, warc, _size(inp.source),
                        url=page_address(url, inp) if url and not warc else ""))
    return jobs


def _same_file(source: str) -> str:
    """What names the same input twice: a local file's real path."""
    return source if source == "-" or is_url(source) else os.path.realpath(source)


def page_address(url: str, inp: Input) -> str:
    """The address of a page saved from `url`: the address itself for a
    page named on the command line, else the folder's address joined with
    the page's path below the folder (a mirror's a/index.php?id=3 was
    https://site/a/index.php?id=3; a .gz page was served without it)."""
    if inp.folder is None:
        return url
    path = inp.name.replace(os.sep, "/")
    if path.lower().endswith(GZIP_SUFFIX):
        path = path[:-len(GZIP_SUFFIX)]
    return urljoin(url if url.endswith("/") else url + "/",
                   quote(path, safe="/?=&;:@!$'()*+,~%"))


def _output_name(inp: Input, warc: bool, fmt: str, whole: bool = False) -> str:
    """The output's path below OUTDIR; `whole` keeps the input's whole file
    name before the format's suffix."""
    if inp.source == "-":
        return "stdin" + FORMATS[fmt].suffix
    folder, _, name = inp.name.replace(os.sep, "/").rpartition("/")
    stem = name if whole else crawl.warc_stem(name) if warc else page_stem(name)
    return (f"{folder}/" if folder else "") + stem + FORMATS[fmt].suffix


def _apart(inputs: list[Input], names: list[str], formats: list[str]) -> list[str]:
    """Outputs of one folder's inputs that would coincide keep their inputs'
    whole names."""
    by_name: dict[tuple[str | None, str], list[int]] = {}
    for i, (inp, name) in enumerate(zip(inputs, names)):
        by_name.setdefault((inp.folder, name), []).append(i)
    names = list(names)
    for (folder, _), same in by_name.items():
        if folder is not None and len(same) > 1:
            for i in same:
                names[i] = _output_name(inputs[i], False, formats[i], whole=True)
    return names


def _check_outside_walked(outdir: str, inputs: list[Input], formats: list[str]) -> None:
    """Outputs whose names a folder's walk takes for pages (html, report)
    must not go inside a folder being walked: the next run would clean
    them as pages."""
    if is_url(outdir):
        return
    walked = [f for f in formats if is_page_name("x" + FORMATS[f].suffix)]
    if not walked:
        return
    target = os.path.realpath(outdir)
    for folder in dict.fromkeys(i.folder for i in inputs if i.folder is not None):
        root = os.path.realpath(folder)
        if target == root or target.startswith(root.rstrip(os.sep) + os.sep):
            raise VictorError(f"{outdir}: inside the input folder {folder}, whose next walk "
                              f"would take the .html outputs of --format {walked[0]} for "
                              "pages; choose a folder outside it with -o")


def _size(source: str) -> int | None:
    if source == "-" or is_url(source):
        return None
    try:
        return os.path.getsize(source)
    except OSError:
        return 0  # reported as failed when read


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
