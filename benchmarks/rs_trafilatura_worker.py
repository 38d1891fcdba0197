"""rs-trafilatura's end of benchmarks.peers' pipe, run by the Python of a
venv that has it (its wheels need Python 3.12; the project's may be older):

    VENV/bin/python -I benchmarks/rs_trafilatura_worker.py text|markdown

One process cleans every page of a run, so that its start and imports are
paid once, as they are for the peers that run in the benchmark's own
process. It imports nothing of Victor's: the venv has only rs-trafilatura.

Protocol, both ways on the standard streams, after a first line
`ready VERSION` from here: a page is its length (4 bytes, big-endian) and
its bytes; an answer is HEAD (whether the page was cleaned, the seconds
of wall clock and CPU the extraction took, timed here so that the pipe is
not counted, and this process's peak resident memory in MB), then the
text in UTF-8, or the error's one line."""

from __future__ import annotations

import resource
import struct
import sys
import time

HEAD = struct.Struct(">?dddI")
LENGTH = struct.Struct(">I")


def extract_with(markdown: bool):
    """Its Markdown with links and images on (tables are on by default), or
    its text with its defaults."""
    import rs_trafilatura

    if markdown:
        return lambda page: rs_trafilatura.extract_bytes(
            page, output_markdown=True, include_links=True, include_images=True
        ).content_markdown or ""
    return lambda page: rs_trafilatura.extract_bytes(page).main_content or ""


def serve(markdown: bool) -> int:
    import rs_trafilatura

    extract = extract_with(markdown)
    pages, answers = sys.stdin.buffer, sys.stdout.buffer
    answers.write(f"ready {rs_trafilatura.__version__}\n".encode())
    answers.flush()
    while True:
        head = pages.read(LENGTH.size)
        if len(head) < LENGTH.size:  # the benchmark is done
            return 0
        page = pages.read(LENGTH.unpack(head)[0])
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            text, ok = extract(page), True
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # a Rust panic arrives as a BaseException
            text, ok = f"{type(e).__name__}: {e}".splitlines()[0], False
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        body = text.encode("utf-8", "replace")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
        answers.write(HEAD.pack(ok, wall, cpu, peak, len(body)))
        answers.write(body)
        answers.flush()


if __name__ == "__main__":
    if sys.argv[1:] not in (["text"], ["markdown"]):
        sys.exit("usage: rs_trafilatura_worker.py text|markdown")
    sys.exit(serve(sys.argv[1] == "markdown"))
