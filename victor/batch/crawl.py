"""Crawl input: the HTML pages inside WARC files (Common Crawl's format).

Reading is FastWARC's (from Resiliparse): a C++ reader that parses the
WARC and HTTP headers of each record and undoes HTTP transfer and content
encodings (chunked, gzip, brotli), at a speed that keeps it far below the
cost of cleaning a page. Only `response` records whose HTTP Content-Type is HTML
are pages; every other record is passed on as not HTML so that a batch can
count what it skipped.
"""

from __future__ import annotations

import gzip
import io
import zlib
from dataclasses import dataclass
from typing import BinaryIO, Iterator

from victor.errors import VictorError, import_extra

WARC_SUFFIXES = (".warc", ".warc.gz")
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})


@dataclass(slots=True)
class Record:
    warc: str  # the WARC file it came from, as the user named it
    record_id: str  # WARC-Record-ID without its angle brackets
    url: str  # WARC-Target-URI
    html: bool  # an HTML response: a page to clean
    encoding: str | None  # the HTTP charset, if the server declared one
    data: bytes  # the HTTP payload, decoded; empty unless html
    # How far into the WARC file the reader has got after this record, so
    # that progress can be measured in bytes of input.
    position: int

    @property
    def source(self) -> str:
        """What outputs and error messages call this page."""
        return f"{self.warc}#{self.record_id}"


def is_warc(name: str) -> bool:
    return name.lower().endswith(WARC_SUFFIXES)


def warc_stem(name: str) -> str:
    """`CC-MAIN-x.warc.gz` -> `CC-MAIN-x`: the name its outputs take."""
    base = name.rstrip("/").rsplit("/", 1)[-1]
    lower = base.lower()
    for suffix in sorted(WARC_SUFFIXES, key=len, reverse=True):
        if lower.endswith(suffix):
            return base[: -len(suffix)]
    return base


def _charset(value: str | None) -> str | None:
    """Servers write `charset="UTF-8"`, `charset=utf-8 ` and the like."""
    if not value:
        return None
    value = value.strip().strip("\"'").strip()
    return value.lower() or None


def records(stream: BinaryIO, warc: str) -> Iterator[Record]:
    """Every record of a WARC file in order; `stream` is the raw file,
    gzipped (one member a record, as Common Crawl's) or not.

    A file cut short (an interrupted download) raises VictorError rather
    than passing for a smaller crawl: the reader itself stops quietly at a
    damaged end, so gzip is undone by Python's decompressor, which raises
    at a member cut short, and an uncompressed file must end as every
    record does. `position` is read from `stream`, so it counts compressed
    bytes and runs ahead of the record by at most the reader's buffer."""
    fastwarc = import_extra("fastwarc.warc", "warc", f"{warc}: reading WARC files")
    gzipped = stream.read(2) == b"\x1f\x8b"
    stream.seek(0)
    inner = gzip.GzipFile(fileobj=stream, mode="rb") if gzipped else stream
    try:
        for rec in fastwarc.ArchiveIterator(inner, parse_http=True, auto_decode="all",
                                            stream_detect=False):
            url = rec.headers.get("WARC-Target-URI", "") or ""
            record_id = (rec.record_id or "").strip("<>")
            ctype = (rec.http_content_type or "").split(";", 1)[0].strip().lower()
            html = (rec.record_type == fastwarc.WarcRecordType.response and rec.is_http
                    and ctype in HTML_TYPES)
            data = rec.reader.read() if html else b""
            yield Record(warc, record_id, url, html, _charset(rec.http_charset) if html else None,
                         data, stream.tell())
    except (EOFError, gzip.BadGzipFile, zlib.error) as e:
        raise VictorError(f"{warc}: damaged or cut short ({e})") from None
    if not gzipped:
        stream.seek(-4, io.SEEK_END)
        if stream.tell() > 0 and stream.read(4) != b"\r\n\r\n":
            raise VictorError(f"{warc}: cut short in its last record")
