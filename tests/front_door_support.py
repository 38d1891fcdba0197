"""What the front-door tests share: the `victor` command, run as a user
runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def victor_command(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "victor", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
