"""Other main-text extractors, each as the text it keeps from page bytes,
with its own defaults (what a user who installs it gets) and its own
encoding handling, so that both the speed and the quality figures compare
whole tools.

CleanEval's pages come wrapped in `<text id=... encoding=...>`, packaging
of the collection rather than part of the page; Victor's preclean removes
it, and the peers get the page without it too: left in, it makes
trafilatura return nothing for 7 of the 58 pages.

rs-trafilatura's wheels need Python 3.12, so it runs in a venv of its own
(VICTOR_RS_TRAFILATURA_PYTHON names its python; docs/output.md), one
process fed page after page; where there is none, a run skips it."""

from __future__ import annotations

import atexit
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable

from benchmarks.rs_trafilatura_worker import HEAD, LENGTH

Extract = Callable[[bytes], str]


class Unavailable(Exception):
    """A peer this machine does not have: a run skips it, saying why in one
    line."""


class PeerFailed(Exception):
    """A page a peer in a process of its own could not clean."""


_WRAPPER = re.compile(rb"^\s*<text\s[^>]*>(.*?)</text>\s*$", re.S)


def without_wrapper(data: bytes) -> bytes:
    m = _WRAPPER.match(data)
    return m.group(1) if m else data


def unwrapped(extract: Extract) -> Extract:
    return lambda data: extract(without_wrapper(data))


def trafilatura() -> Extract:
    """Comments off: the main text alone, as the article gold keeps it."""
    import trafilatura as t

    return unwrapped(lambda data: t.extract(data, include_comments=False) or "")


def trafilatura_comments() -> Extract:
    """trafilatura's default, comments kept."""
    import trafilatura as t

    return unwrapped(lambda data: t.extract(data) or "")


def trafilatura_markdown() -> Extract:
    """Markdown with tables, links, images and formatting on, comments off:
    the structure a user of its Markdown gets (benchmarks.structure)."""
    import trafilatura as t

    return unwrapped(lambda data: t.extract(
        data, output_format="markdown", include_tables=True, include_links=True,
        include_images=True, include_formatting=True, include_comments=False) or "")


def readability() -> Extract:
    """readability-lxml's main-content HTML, as its text."""
    import lxml.html
    from readability import Document

    def extract(data: bytes) -> str:
        summary = Document(data).summary(html_partial=True)
        return lxml.html.fromstring(summary).text_content() if summary.strip() else ""
    return unwrapped(extract)


def justext() -> Extract:
    import justext as j

    stoplist = j.get_stoplist("English")

    def extract(data: bytes) -> str:
        return "\n".join(p.text for p in j.justext(data, stoplist) if not p.is_boilerplate)
    return unwrapped(extract)


def resiliparse(**options: bool) -> Extract:
    """Main-content text, with extract_plain_text's `options` on top
    (list_bullets, preserve_formatting)."""
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import detect_encoding
    from resiliparse.parse.html import HTMLTree

    def extract(data: bytes) -> str:
        tree = HTMLTree.parse_from_bytes(data, detect_encoding(data))
        return extract_plain_text(tree, main_content=True, **options)
    return unwrapped(extract)


# --- rs-trafilatura, in a venv of its own -----------------------------------

# The Python of a venv with rs-trafilatura installed (its wheels need 3.12);
# by default venvs/rs312 beside the clone (docs/output.md says how to make it).
RS_TRAFILATURA_PYTHON = "VICTOR_RS_TRAFILATURA_PYTHON"
_WORKER = Path(__file__).resolve().with_name("rs_trafilatura_worker.py")


def rs_trafilatura_python() -> Path:
    given = os.environ.get(RS_TRAFILATURA_PYTHON)
    return Path(given) if given else Path(__file__).resolve().parents[2] / "venvs/rs312/bin/python"


@dataclass(frozen=True)
class Answer:
    """A page's output from a peer's own process, with what it cost there."""

    text: str
    wall: float  # seconds the extraction took, timed in the peer's process
    cpu: float
    peak_mb: float  # the peer's process's peak resident memory so far


def rs_trafilatura_pipe(markdown: bool) -> Callable[[bytes], Answer]:
    """rs-trafilatura in one long-lived process of its venv's Python, fed
    page after page through a pipe; a page that ends the process fails
    and the next page gets a new one. Unavailable without the venv."""
    python = rs_trafilatura_python()
    if not python.exists():
        raise Unavailable(f"no {python}: make a Python 3.12 venv with rs-trafilatura there, "
                          f"or name its python in {RS_TRAFILATURA_PYTHON} (docs/output.md)")
    mode = "markdown" if markdown else "text"
    running = [_start_worker(python, mode)]

    def ask(page: bytes) -> Answer:
        proc = running[-1]
        try:
            proc.stdin.write(LENGTH.pack(len(page)))
            proc.stdin.write(page)
            proc.stdin.flush()
            head = proc.stdout.read(HEAD.size)
        except BrokenPipeError:
            head = b""
        if len(head) < HEAD.size:
            running.append(_start_worker(python, mode))
            raise PeerFailed(f"rs-trafilatura's process ended ({proc.wait()})")
        ok, wall, cpu, peak_mb, size = HEAD.unpack(head)
        text = proc.stdout.read(size).decode("utf-8")
        if not ok:
            raise PeerFailed(text)
        return Answer(text, wall, cpu, peak_mb)
    return ask


def _start_worker(python: Path, mode: str) -> subprocess.Popen:
    errors = tempfile.TemporaryFile()
    proc = subprocess.Popen([str(python), "-I", str(_WORKER), mode], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=errors)
    if not proc.stdout.readline().startswith(b"ready "):
        proc.wait()
        raise Unavailable(f"{python}: {_last_line(errors) or 'rs-trafilatura did not start'}")
    atexit.register(_stop_worker, proc)
    return proc


def _last_line(stream: IO[bytes]) -> str:
    stream.seek(0)
    lines = stream.read().decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else ""


def _stop_worker(proc: subprocess.Popen) -> None:
    proc.stdin.close()  # the worker ends at the end of its input
    proc.wait()


def rs_trafilatura(markdown: bool = False) -> Extract:
    """rs-trafilatura's text with its defaults, or its Markdown with links
    and images on (tables are on by default)."""
    ask = rs_trafilatura_pipe(markdown)
    return unwrapped(lambda data: ask(data).text)


# Name -> setup (imports, stoplists) that returns the extractor.
PEERS: dict[str, Callable[[], Extract]] = {
    "trafilatura": trafilatura,
    "trafilatura+comments": trafilatura_comments,
    "readability": readability,
    "justext": justext,
    "resiliparse": resiliparse,
}

# benchmarks.structure's peers: each tool's output that keeps the most structure.
STRUCTURED_PEERS: dict[str, Callable[[], Extract]] = {
    "trafilatura (markdown)": trafilatura_markdown,
    "resiliparse (text)": lambda: resiliparse(list_bullets=True, preserve_formatting=True),
    # Optional: skipped, with one line, where its venv is not made.
    "rs-trafilatura (markdown)": lambda: rs_trafilatura(markdown=True),
}
