"""What the front-door tests share: the `victor` command, run as a user
runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


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
