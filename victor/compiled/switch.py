"""The switch between the pure-Python functions and their compiled twins:
which twins were built, whether they are wanted, and the function that
runs."""

from __future__ import annotations

import os
from importlib import import_module
from importlib.util import find_spec
from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable)

# The twins built: each module's name under victor/compiled/ (setup.py
# compiles victor/compiled/NAME.pyx for each).
MODULES = ("_blocks", "_candidate", "_chain", "_depth", "_parser", "_paths", "_preclean",
           "_render", "_scores", "_table", "_tree", "_trees", "_unseen")


def disabled() -> bool:
    """Whether VICTOR_NO_EXTENSIONS asks for the pure-Python path."""
    return os.environ.get("VICTOR_NO_EXTENSIONS", "").strip() not in ("", "0")


def _load(module: str):
    """The built twin module, or None where it was not built. A twin that
    was built but fails to import (a pure module it reads renamed) raises:
    falling back then would hide the compiled path's breakage."""
    name = f"victor.compiled.{module}"
    try:
        return import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def twin(pure: F, module: str) -> F:
    """`pure`'s compiled twin of the same name in victor/compiled/`module`,
    or `pure` itself where the twins are disabled or not built."""
    if disabled():
        return pure
    built = _load(module)
    return pure if built is None else getattr(built, pure.__name__)


def path() -> str:
    """Which path runs, for `victor --version`."""
    if disabled():
        return "pure Python (VICTOR_NO_EXTENSIONS is set)"
    missing = [m for m in MODULES if find_spec(f"victor.compiled.{m}") is None]
    if missing:
        return f"pure Python (the compiled core was not built: {', '.join(missing)} missing)"
    return "compiled core (Cython)"
