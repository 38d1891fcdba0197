"""Writing outputs so that they appear whole or not at all, on local
disks and fsspec stores alike.

A reader, or a rerun after a crash, must never find half an output: every
output is written to a hidden temporary file beside its target and renamed
into place. Paths and URLs (`s3://`, `gs://`) are handled by the same
functions, so a batch does not care where its outputs go.
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping

from victor.errors import VictorError

if TYPE_CHECKING:  # fsspec is imported only for URLs
    from fsspec import AbstractFileSystem


# The hidden temporary file of an output NAME: `.NAME.<32 hex digits>.tmp`.
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.[0-9a-f]{32}\.tmp")


def temporary_name(name: str) -> str:
    return f".{name}.{uuid.uuid4().hex}.tmp"


def hidden_temporary(target: Path) -> tuple[int, Path]:
    """A new hidden file beside `target`, open for writing: renaming it
    over the target is atomic, being on the same filesystem. Not mkstemp:
    its files are private (0600), outputs and models are not."""
    tmp = target.with_name(temporary_name(target.name))
    return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp


def remove_temporaries(targets: Iterable[str]) -> int:
    """Removes the temporary files that a run killed outright (SIGKILL, a
    machine lost) left beside these outputs, and returns how many. Only
    Victor's own, `.NAME.<32 hex digits>.tmp` for an output NAME named
    here: a user's file is never one, and another run writing other
    outputs into the same folder meanwhile keeps its own."""
    names: dict[str, set[str]] = {}
    for target in targets:
        folder, _, name = target.rpartition("/")
        names.setdefault(folder or ".", set()).add(name)
    removed = 0
    for folder, wanted in names.items():
        try:
            if is_url(folder):
                fs, path = filesystem(folder)
                entries = [e.rpartition("/")[2] for e in fs.ls(path, detail=False)]
            else:
                fs, path, entries = None, folder, os.listdir(folder)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as e:
            raise VictorError(f"{folder}: cannot read the output folder ({e.strerror or e})")
        for entry in entries:
            found = _TEMPORARY.fullmatch(entry)
            if found is None or found["name"] not in wanted:
                continue
            try:
                if fs is not None:
                    fs.rm(f"{path.rstrip('/')}/{entry}")
                else:
                    os.unlink(os.path.join(folder, entry))
                removed += 1
            except FileNotFoundError:
                pass  # gone meanwhile
            except OSError as e:
                raise VictorError(f"{folder}/{entry}: cannot remove this temporary file an "
                                  f"earlier run left ({e.strerror or e})")
    return removed


def is_url(name: str) -> bool:
    return "://" in name


def join(folder: str, name: str) -> str:
    """For paths and URLs alike."""
    return f"{folder.rstrip('/')}/{name}"


def filesystem(url: str) -> tuple[AbstractFileSystem, str]:
    """The fsspec filesystem of a URL; fsspec and the driver of its protocol
    (s3fs for s3://, gcsfs for gs://) are needed only for URLs. Web
    addresses are refused: fetching pages well (timeouts, retries, robots
    rules, politeness) is a crawler's job, not a cleaner's."""
    if url.lower().startswith(("http://", "https://")):
        raise VictorError(f"{url}: Victor does not download pages; save the page first "
                          "(curl -o page.html URL) and clean the file")
    try:
        import fsspec

        return fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as e:
        raise VictorError(f"{url}: cannot open this kind of URL ({e}); install fsspec and the "
                          "package its protocol needs")


def make_folder(folder: str) -> None:
    """The output folder, made before any work: one clear error rather than
    the same failure for every page."""
    if not is_url(folder) and os.path.isfile(folder):
        raise VictorError(f"{folder}: is a file, not a folder; name a folder for the outputs "
                          "with -o")
    try:
        if is_url(folder):
            fs, path = filesystem(folder)
            fs.makedirs(path, exist_ok=True)
        else:
            os.makedirs(folder, exist_ok=True)
            # A folder that exists but takes no file (permissions, a read-only
            # disk) was found out only after every page had been cleaned.
            fd, probe = hidden_temporary(Path(folder) / "victor-probe")
            os.close(fd)
            probe.unlink()
    except OSError as e:
        raise VictorError(f"{folder}: cannot write output there ({e.strerror or e}); "
                          "choose another folder with -o")


def output_exists(target: str) -> bool:
    if is_url(target):
        fs, path = filesystem(target)
        return fs.exists(path)
    return os.path.exists(target)


class AtomicFile:
    """An output that appears whole or not at all: written to a hidden
    temporary file beside the target and renamed into place on `commit`.
    On an fsspec filesystem the rename is the filesystem's move (a
    server-side copy on object stores, which also never shows a partial
    object). A process killed outright can leave the hidden `.NAME.*.tmp`
    file behind, never a partial NAME."""

    def __init__(self, target: str):
        self.target = target
        parent, _, name = target.rpartition("/")
        self._fs = None
        self._error: OSError | None = None  # the first failed write (a full disk)
        try:
            if is_url(target):
                self._fs, path = filesystem(target)
                folder = path.rpartition("/")[0]
                self._fs.makedirs(folder, exist_ok=True)
                self._tmp = f"{folder}/{temporary_name(name)}"
                self._file = self._fs.open(self._tmp, "w", encoding="utf-8")
                self._path = path
            else:
                folder = Path(parent or ".")
                folder.mkdir(parents=True, exist_ok=True)
                fd, tmp = hidden_temporary(folder / name)
                self._tmp = str(tmp)
                self._file = os.fdopen(fd, "w", encoding="utf-8")
        except OSError as e:
            raise VictorError(f"{parent or '.'}: cannot write output there "
                              f"({e.strerror or e}); choose another folder with -o")

    def write(self, text: str) -> None:
        """A failure is kept for `commit` to report: the lines of a WARC
        file are written as their pages come back, far from any place
        that could name the output."""
        if self._error is None:
            try:
                self._file.write(text)
            except OSError as e:
                self._error = e

    def commit(self) -> None:
        try:
            if self._error is not None:
                raise self._error
            self._file.close()
            if self._fs is not None:
                self._fs.mv(self._tmp, self._path)
            else:
                os.replace(self._tmp, self.target)
        except OSError as e:
            self.discard()
            raise VictorError(f"{self.target}: cannot write ({e.strerror or e})")

    def discard(self) -> None:
        try:
            self._file.close()
            if self._fs is not None:
                self._fs.rm(self._tmp)
            else:
                os.unlink(self._tmp)
        except OSError:
            pass


def write_atomic(target: str | Path, text: str) -> None:
    """A reader (or a rerun after a crash) sees the whole output or none of it."""
    out = AtomicFile(str(target))
    try:
        out.write(text)
        out.commit()
    except BaseException:
        out.discard()
        raise


def replace_together(files: Mapping[Path, bytes]) -> None:
    """Local files that must match each other (a model and its metadata),
    each renamed into place only once all are written whole: an interrupted
    write leaves the previous ones as they were. Raises OSError."""
    temporaries: list[Path] = []
    try:
        for target, data in files.items():
            fd, tmp = hidden_temporary(target)
            temporaries.append(tmp)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        for target, tmp in zip(files, temporaries):
            os.replace(tmp, target)
    finally:
        for tmp in temporaries:
            tmp.unlink(missing_ok=True)
