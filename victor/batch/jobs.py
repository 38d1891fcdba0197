"""A batch's jobs: each input with the name of its output and its format.
An output never replaces an input or another input's output: two that
would are an error before any work.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable
from urllib.parse import quote, urljoin

from victor.batch import crawl
from victor.batch.inputs import GZIP_SUFFIX, Input, file_name, is_page_name, page_stem
from victor.errors import VictorError
from victor.files import is_url, join
from victor.output import DEFAULT_FORMAT, FORMATS


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
    inputs = [i if isinstance(i, Input) else Input(i, file_name(i)) for i in inputs]
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
