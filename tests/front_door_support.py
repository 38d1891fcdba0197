"""What the front-door tests share: the `victor` command, run as a user
runs it, in a process of its own; or its function (victor.cli.main) called
in the test's process, where what is tested is what the command says and
returns, not the process."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from victor.cli import main, script


def victor_command(*args, cwd: Path, timeout: float = 300,
                   stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """`stdin`: bytes fed to standard input (the output is still text)."""
    if stdin is None:
        return subprocess.run([sys.executable, "-m", "victor", *map(str, args)], cwd=cwd,
                              capture_output=True, text=True, timeout=timeout)
    proc = subprocess.run([sys.executable, "-m", "victor", *map(str, args)], cwd=cwd,
                          capture_output=True, input=stdin, timeout=timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(),
                                       proc.stderr.decode())


def victor_main(*args, cwd: Path, command: str | None = None) -> subprocess.CompletedProcess:
    """What `victor ARGS` (or, with `command`, the script clean.py, learn.py
    or annotate.py running that subcommand with ARGS) returns and writes,
    from victor.cli's own function, which `python -m victor` and the scripts
    exit with, called here in `cwd` with the standard streams caught: for the
    tests of an error's line, an exit status or an output, where a process
    of its own would only add its start (scikit-learn's import alone is
    seconds for `learn`). Tests of the process itself (its exit through the
    shell, Ctrl-C, signals, pipes, standard input, worker processes) run
    victor_command. tests/test_front_door.py holds the scripts and `python -m
    victor` to be this function."""
    out, err = io.StringIO(), io.StringIO()
    argv, here = [str(a) for a in args], os.getcwd()
    saved_argv = sys.argv
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                if command is None:
                    status = main(argv)
                else:
                    sys.argv = [f"{command}.py", *argv]
                    status = script(command)
            except SystemExit as e:  # argparse's usage errors, --help, --version
                # As the interpreter exits: None is 0, a number itself, and
                # anything else is printed and exits 1.
                if e.code is None or isinstance(e.code, int):
                    status = e.code or 0
                else:
                    print(e.code, file=sys.stderr)
                    status = 1
    finally:
        sys.argv = saved_argv
        os.chdir(here)
    return subprocess.CompletedProcess(["victor", *argv], status, out.getvalue(), err.getvalue())
