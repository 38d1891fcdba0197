"""The inputs of a batch: finding pages and WARC files, naming each one's
output, and reading a page's bytes.

Bad inputs are reported by name, one line each, and never stop the others:
a missing file is still planned, so that it fails in its place.
"""

from __future__ import annotations

import gzip
import os
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable, Iterator

from victor.batch import crawl
from victor.errors import EMPTY_PAGE, VictorError, about
from victor.files import filesystem, is_url, join
from victor.output import DEFAULT_FORMAT, FORMATS

# What a folder is walked for. Not .txt: beside saved pages it is most often
# gold text or Victor's own output, and cleaning it as a page would clash
# with the page's output. A file named on the command line is cleaned
# whatever its suffix.
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml", ".php", ".asp", ".aspx")
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
                raise VictorError(f"no pages or WARC files found in {item} (a folder is "
                                  f"walked for {' '.join(PAGE_SUFFIXES)}, their .gz forms "
                                  "and .warc[.gz]); name other files one by one")
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
            out = join(outdir, stem + FORMATS[job_fmt].suffix)
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


def check_size(source: str, size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise VictorError(about(source, f"larger than the limit of {max_bytes / 1_000_000:g} "
                                        "MB; raise --max-size to clean it"))


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
        raise VictorError(about(source, EMPTY_PAGE))
    if max_bytes is not None:
        check_size(source, len(data), max_bytes)
    return data
