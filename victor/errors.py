"""One exception type for everything a user can cause.

Scripts catch it and print its message as a single line, so every message
must name the file (or key) at fault and say what to do about it.
"""


from __future__ import annotations

import importlib
import os
from types import ModuleType


class VictorError(Exception):
    """A problem with the user's input, config, model or output location."""


class OtherLanguage(VictorError):
    """A page whose text is in none of the languages asked for
    (`--language`, `language=`): skipped, which is not a failure."""


# The words for a page with nothing to clean, the same from the command and
# the API. An empty page is most likely a failed download: reported, so that
# it is noticed and a rerun tries it again.
EMPTY_PAGE = "empty page, nothing to clean"
NO_TEXT = "no text on the page (only markup, scripts or whitespace), nothing to clean"


DISTRIBUTION = "victor-cleaner"  # pyproject.toml's name

# What a page without a name is called: standard input on the command line,
# and the default `source` of the Python API.
UNNAMED = "-"


def about(source: str, message: str) -> str:
    """`message` about the page `source`, named at its start as every
    message names its file; an unnamed page is not named: a Python caller
    knows which page it passed, and read `-: empty page` as noise."""
    return message if source in (UNNAMED, "") else f"{source}: {message}"


def import_extra(module: str, extra: str | None, purpose: str) -> ModuleType:
    """A module imported only when used: of an optional part (pyproject.toml's
    extras), or (`extra` None) a dependency that only some configs need. A
    missing one is a one-line error saying what brings it, not an
    ImportError traceback."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise VictorError(f"{purpose} needs {module.split('.')[0]}, which is not "
                          f"installed: {install_command(extra)}") from None


def install_command(extra: str | None) -> str:
    """The command that brings what is missing. No package is published
    under Victor's name, but pip resolves `victor-cleaner[warc]` against
    the Victor that is installed (from a clone or a wheel, editable or not)
    and adds the extra's packages, or the missing dependencies without an
    extra; only a checkout used without installing needs the folder's form."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        distribution(DISTRIBUTION)
    except PackageNotFoundError:
        target = f"'.[{extra}]'" if extra else "."
        return f"pip install {target} in Victor's source folder"
    target = f"'{DISTRIBUTION}[{extra}]'" if extra else DISTRIBUTION
    what = f"Victor's {extra!r} extra" if extra else "Victor's dependencies"
    return f"pip install {target} ({what})"


def read_utf8(path: str | os.PathLike, what: str = "file") -> str:
    """The text of a UTF-8 file the user named; any failure to read it is
    one VictorError naming the file, the kind of file it should be, and why."""
    from pathlib import Path

    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise VictorError(f"{path}: no such {what}") from None
    except UnicodeDecodeError as e:
        raise VictorError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise VictorError(f"{path}: cannot read ({e.strerror})") from None
