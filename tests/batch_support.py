"""What the batch, WARC and Dask tests share: the data, a model to clean
with, clean.py started on it, its outputs, and WARC files built from real
pages."""

from __future__ import annotations

import gzip
import io
import subprocess
import sys
import time
from pathlib import Path

from fastwarc.warc import WarcRecord, WarcRecordType

from repo_data import CLEANEVAL, DRAGNET, ROOT, WCXB
from victor.batch.inputs import read_input
from victor.config import MODEL_DIR

SHIPPED_MODEL = MODEL_DIR / "cleaneval"


def clean_py(settings, *args, **popen) -> subprocess.Popen:
    """clean.py with the settings' model, started in the repo."""
    return subprocess.Popen([sys.executable, str(ROOT / "clean.py"), "--model", settings.model,
                             *map(str, args)], cwd=ROOT, **popen)


def contents(folder: Path) -> dict[str, str]:
    """Each output file's name and text (hidden temporary files left out)."""
    return {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()
            if not p.name.startswith(".")}


def wait_for_outputs(folder: Path, n: int) -> None:
    """Until `folder` holds n outputs, a minute at the most."""
    deadline = time.monotonic() + 60
    while len(contents(folder) if folder.exists() else {}) < n and time.monotonic() < deadline:
        time.sleep(0.02)


def model_for_tests(folder: Path) -> str:
    """The shipped model when there is one; else a small one trained here on
    a dozen annotated CleanEval pages, so that the batch machinery can be
    tested before (and independently of) the real model."""
    from victor import model
    from victor.training import dataset, pipeline
    from victor.config import load_config
    from victor.errors import VictorError

    try:
        model.load(SHIPPED_MODEL)
        return str(SHIPPED_MODEL)
    except VictorError:
        pass
    config = load_config("cleaneval")
    annotations = sorted(str(p) for p in (ROOT / "data/cleaneval").glob("*.anno"))[:12]
    trained = pipeline.train(dataset.load_examples(annotations, config), config,
                             {"c1": 0.1, "c2": 0.01, "max_iterations": 30}, folds=0)
    return str(model.save(trained, folder / "cleaneval").folder)


def warc_record(kind: WarcRecordType, url: str, block: bytes, content_type: str) -> bytes:
    """One record, gzipped on its own as Common Crawl stores them."""
    rec = WarcRecord()
    rec.init_headers(kind)
    if url:
        rec.headers["WARC-Target-URI"] = url
    rec.headers["Content-Type"] = content_type
    rec.set_bytes_content(block)
    buf = io.BytesIO()
    rec.write(buf)
    return gzip.compress(buf.getvalue())


def response(url: str, body: bytes, content_type: str, *headers: str) -> bytes:
    head = "\r\n".join(["HTTP/1.1 200 OK", f"Content-Type: {content_type}", *headers,
                        f"Content-Length: {len(body)}", "", ""]).encode()
    return warc_record(WarcRecordType.response, url, head + body,
                       "application/http; msgtype=response")


def request(url: str) -> bytes:
    host = url.split("/")[2]
    block = f"GET / HTTP/1.1\r\nHost: {host}\r\nUser-Agent: test\r\n\r\n".encode()
    return warc_record(WarcRecordType.request, url, block, "application/http; msgtype=request")


def crawl_warc(path: Path) -> list[tuple[str, Path, str | None]]:
    """A small crawl of real Dragnet pages as Common Crawl would store it
    (warcinfo, request/response pairs, metadata), with an image among the
    responses, a page in ISO-8859-1 declared only by the HTTP header's
    charset, one served as XHTML and one gzip-encoded in transit. Returns
    the HTML pages in order: (URL, file, declared charset)."""
    html = DRAGNET
    pages = [("https://news.example.org/188", html / "188.html", "utf-8"),
             ("http://www.gamasutra.com/view/feature/R826", html / "R826.html", "ISO-8859-1"),
             ("https://blog.example.net/196", html / "196.html", None),
             ("https://news.example.org/106", html / "106.html", "utf-8")]
    parts = [warc_record(WarcRecordType.warcinfo, "", b"software: victor tests\r\n",
                         "application/warc-fields")]
    for i, (url, file, charset) in enumerate(pages):
        body = file.read_bytes()
        ctype = "text/html" + (f"; charset={charset}" if charset else "")
        parts.append(request(url))
        if i == 2:
            parts.append(response(url, body, "application/xhtml+xml"))
        elif i == 3:
            parts.append(response(url, gzip.compress(body), ctype, "Content-Encoding: gzip"))
        else:
            parts.append(response(url, body, ctype))
        parts.append(warc_record(WarcRecordType.metadata, url, b"fetchTimeMs: 120\r\n",
                                 "application/warc-fields"))
        if i == 0:
            parts.append(response("https://news.example.org/logo.gif",
                                  b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "image/gif"))
    path.write_bytes(b"".join(parts))
    return pages


def two_crawls(folder: Path) -> dict[str, Path]:
    """Two small WARC files for the pipelines' tests (datatrove, NeMo
    Curator), so that two tasks each read one: request and response records
    each gzipped on their own as Common Crawl stores them, an image among
    the responses, and CleanEval 22 in ISO-8859-1 with no charset declared
    (each pipeline decodes it its own way). Returns each page's file by its URL."""
    crawls = {
        "a.warc.gz": [(WCXB / "0415.html.gz", "https://ashvardanian.com/posts/stringzilla-4-5/"),
                      (CLEANEVAL / "22.html", "http://books.guardian.co.uk/generalfiction/")],
        "b.warc.gz": [(WCXB / "0147.html.gz", "https://www.consultingpoint.com/news"),
                      (CLEANEVAL / "3.html", "http://www.example.org/3")],
    }
    folder.mkdir()
    pages = {}
    for name, crawl in crawls.items():
        parts = []
        for file, url in crawl:
            parts += [request(url), response(url, read_input(str(file)), "text/html")]
            pages[url] = file
        parts.append(response("https://www.example.org/logo.gif",
                              b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "image/gif"))
        (folder / name).write_bytes(b"".join(parts))
    return pages
