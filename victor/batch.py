"""Cleaning many pages: finding inputs, naming and writing outputs safely,
and carrying on past a bad page.

A batch never loses what a user had: outputs are written to a temporary
file and renamed into place, an existing output is kept (and counted as
done, so an interrupted run resumes) unless `overwrite` is asked for, and
every page that failed is reported with its reason at the end.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from victor.errors import VictorError

FORMATS = {"victor": ".txt", "cleaneval": ".txt", "text": ".txt", "jsonl": ".jsonl",
           "html": ".html", "table": ".tsv"}
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml", ".php", ".asp", ".aspx", ".txt")


@dataclass(slots=True)
class Job:
    source: str  # what messages name: a path or "-"
    output: Path | None  # None: write to standard output


@dataclass
class Report:
    done: int = 0
    skipped: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"{self.done} cleaned, {self.skipped} already done, {len(self.failed)} failed"]
        lines.extend(f"failed: {src}: {why}" for src, why in self.failed)
        return "\n".join(lines)


def discover(inputs: Iterable[str]) -> Iterator[str]:
    """Files as given; folders walked for pages in sorted order; `-` is
    standard input. A missing input is still yielded, so that it is
    reported as failed in its place rather than silently dropped."""
    for item in inputs:
        p = Path(item)
        if item != "-" and p.is_dir():
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for name in sorted(files):
                    if name.lower().endswith(PAGE_SUFFIXES) and not name.startswith("."):
                        yield str(Path(root) / name)
        else:
            yield item


def plan(sources: Iterable[str], outdir: Path | None, fmt: str) -> list[Job]:
    """Each input NAME.html gives OUTDIR/NAME plus the format's suffix;
    two inputs that would share an output name are an error before any work."""
    jobs, seen = [], {}
    for src in sources:
        out = None
        if outdir is not None:
            stem = "stdin" if src == "-" else Path(src).name.rsplit(".", 1)[0]
            out = outdir / (stem + FORMATS[fmt])
            if out in seen:
                raise VictorError(f"{src}: its output {out} would overwrite that of {seen[out]}; "
                                  "clean them into different folders")
            seen[out] = src
        jobs.append(Job(src, out))
    return jobs


def read_input(source: str, max_bytes: int) -> bytes:
    if source == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
    else:
        try:
            with open(source, "rb") as f:
                data = f.read(max_bytes + 1)
        except FileNotFoundError:
            raise VictorError(f"{source}: no such file")
        except IsADirectoryError:
            raise VictorError(f"{source}: is a folder, not a page")
        except OSError as e:
            raise VictorError(f"{source}: cannot read ({e.strerror})")
    if len(data) > max_bytes:
        raise VictorError(f"{source}: larger than the limit of {max_bytes // 1_000_000} MB; "
                          "raise --max-size to clean it")
    return data


def write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file beside the target, then rename: a reader
    (or a rerun after a crash) sees the whole output or none of it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise VictorError(f"{path.parent}: cannot write output there ({e.strerror}); "
                          "choose another folder with -o")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def run(jobs: list[Job], render: Callable[[bytes, str], str], max_bytes: int,
        overwrite: bool = False, on_page: Callable[[Report], None] | None = None) -> Report:
    """Cleans every job in order. A VictorError or any other exception from
    one page is recorded against that page and the batch goes on."""
    report = Report()
    for job in jobs:
        if job.output is not None and not overwrite and job.output.exists():
            report.skipped += 1
        else:
            try:
                text = render(read_input(job.source, max_bytes), job.source)
                if job.output is None:
                    sys.stdout.write(text)
                    sys.stdout.flush()
                else:
                    write_atomic(job.output, text)
                report.done += 1
            except VictorError as e:
                report.failed.append((job.source, str(e).removeprefix(f"{job.source}: ")))
            except Exception as e:  # a page must never stop the batch
                report.failed.append((job.source, f"internal error: {type(e).__name__}: {e}"))
        if on_page is not None:
            on_page(report)
    return report
