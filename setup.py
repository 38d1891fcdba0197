"""The compiled core (victor/compiled/), built where it can be.

Everything else about the package is in pyproject.toml. As yarl and PyYAML
do: the Cython twins are compiled where a C compiler is found;
VICTOR_NO_EXTENSIONS=1 skips them; and where the compiler is missing or
fails, the install goes on with the pure-Python path and says so in one
line (pip shows a build's output with -v; `victor --version` always says
which path runs).
"""

import multiprocessing
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# victor.compiled.MODULES names the same twins; tests/test_compiled.py
# checks that the two lists agree.
MODULES = ("_blocks", "_candidate", "_chain", "_depth", "_parser", "_paths", "_preclean",
           "_render", "_scores", "_table", "_tree", "_trees", "_unseen")


class OptionalBuild(build_ext):
    """build_ext that lets an extension fail: the pure path then runs. The
    twins compile side by side, one a core, unless told (-j)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = True

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler at all (setuptools' DistutilsPlatformError...)
            self._fallback(e)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # CompileError, LinkError, a missing Python.h
            self._fallback(e)

    @staticmethod
    def _fallback(e: Exception) -> None:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"victor: no compiled core ({reason}); installing the pure-Python path",
              file=sys.stderr)


def extensions() -> list:
    if os.environ.get("VICTOR_NO_EXTENSIONS", "").strip() not in ("", "0"):
        print("victor: VICTOR_NO_EXTENSIONS is set; installing the pure-Python path",
              file=sys.stderr)
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:  # a build without build isolation and without Cython
        print("victor: Cython not found; installing the pure-Python path", file=sys.stderr)
        return []
    # Without debugging information (-g0, after Python's own -g): nobody steps
    # through the generated C, and writing it slows every install. Without
    # fused multiply-adds (-ffp-contract=off): GCC and Clang fuse `a += b * c`
    # where the processor has them (ARM's, every one), which rounds once
    # where Python rounds twice, and the twins add as the pure functions do.
    flags = [] if sys.platform == "win32" else ["-g0", "-ffp-contract=off"]
    modules = [Extension(f"victor.compiled.{m}", [f"victor/compiled/{m}.pyx"],
                         extra_compile_args=flags) for m in MODULES]
    # Cython translates the twins side by side too, a core each, where
    # worker processes are forked (a spawned one would run this file
    # again), and one by one where none can be started.
    forked = multiprocessing.get_context().get_start_method() == "fork"
    workers = (os.cpu_count() or 1) if forked else 0
    try:
        return cythonize(modules, language_level=3, quiet=True, nthreads=workers)
    except (OSError, RuntimeError):  # RuntimeError: concurrent.futures' BrokenProcessPool
        if not workers:
            raise
        return cythonize(modules, language_level=3, quiet=True)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuild})
