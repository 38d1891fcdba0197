"""The compiled hot path: typed Cython twins of a few pure-Python functions.

As in yarl, multidict and PyYAML, `pip install` builds the twins (the
`_*.pyx` files beside this one) where a C compiler is found, and the
environment variable VICTOR_NO_EXTENSIONS=1 skips them, at install and at
run time. The pure-Python function stays the reference and the fallback:
a module defines it, then takes its twin with `twin`, and
tests/test_compiled.py holds both to the same outputs. A twin imports the
classes and constants of its pure module, so it is imported through that
module (`twin`), never first.
"""

from victor.compiled.switch import MODULES, disabled, path, twin

__all__ = ["MODULES", "disabled", "path", "twin"]
