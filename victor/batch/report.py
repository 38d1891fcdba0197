"""What a batch tells its user: the counts of a run, and the headers that
keep pages apart on standard output."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from victor.batch.inputs import PassedOver
from victor.batch.jobs import Job
from victor.output import FORMATS, page_header


@dataclass
class Report:
    done: int = 0  # pages cleaned
    skipped: int = 0  # outputs that were there already
    not_html: int = 0  # WARC records that are not HTML pages
    other_language: int = 0  # pages skipped: their text in none of the languages asked for
    other_languages: list[tuple[str, str]] = field(default_factory=list)  # (page, its language)
    failed: list[tuple[str, str]] = field(default_factory=list)
    interrupted: bool = False
    # Files of the walked folders not cleaned (victor.batch.inputs.discover).
    passed_over: PassedOver = field(default_factory=PassedOver)
    temporaries_removed: int = 0  # left by a run killed outright (files.remove_temporaries)
    # Whether the outputs are files a rerun finds (-o), so that it goes on
    # where an interrupted run stopped; standard output's pages are gone.
    resumable: bool = True
    stopped: str = ""  # why the batch stopped before its end (a full disk), in one line

    def add(self, other: Report) -> None:
        self.done += other.done
        self.skipped += other.skipped
        self.not_html += other.not_html
        self.other_language += other.other_language
        self.other_languages.extend(other.other_languages)
        self.failed.extend(other.failed)
        self.interrupted |= other.interrupted
        self.stopped = self.stopped or other.stopped

    def summary(self) -> str:
        head = f"{self.done} cleaned, {self.skipped} already done, {len(self.failed)} failed"
        if self.other_language:
            head += f", {self.other_language} skipped (text in another language)"
        if self.not_html:
            head += (f", {self.not_html} WARC record{'s' * (self.not_html != 1)} skipped "
                     "(not HTML)")
        lines = [head, *self.passed_over.lines()]
        if self.temporaries_removed:
            n = self.temporaries_removed
            lines.append(f"removed {n} temporary file{'s' if n != 1 else ''} that a killed run "
                         "left")
        lines.extend(f"skipped: {src}: {why}" for src, why in self.other_languages)
        lines.extend(f"failed: {src}: {why}" for src, why in self.failed)
        if self.stopped:
            lines.append(f"stopped: {self.stopped}")
        if self.interrupted:
            lines.append("interrupted: run the same command again to finish the rest"
                         if self.resumable else
                         "interrupted: the pages after those written were not cleaned (a run "
                         "with -o OUTDIR can be resumed; one to standard output cannot)")
        return "\n".join(lines)


class StdoutPages:
    """Standard output's side of a batch: when several pages of a format
    whose pages would run together (text, Markdown) go there, each is
    headed by a line naming it. Pages come in input order."""

    def __init__(self, jobs: list[Job], write: Callable[[str], None]):
        self.write = write
        self.headed = sum(1 for job in jobs if job.output is None and FORMATS[job.fmt].headed) > 1
        self.first = True

    def sink(self, job: Job) -> Callable[[str], None]:
        """Where the text of `job`'s page goes."""
        if not self.headed or not FORMATS[job.fmt].headed:
            return self.write

        def write(text: str) -> None:
            self.write(page_header(job.source, self.first) + text)
            self.first = False

        return write
