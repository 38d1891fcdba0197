"""The annotation tool in a real terminal: `annotate.py` run in a tmux
terminal of its own and its screen read back, and its help.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repo_data import ROOT
from victor.annotation import UNLABELLED, load_annotation


class Tmux:
    """A tmux server of our own (its own socket), so the test touches no
    session of the person running it."""

    def __init__(self, tmp_path: Path) -> None:
        self.socket = f"victor-test-{os.getpid()}"
        self.conf = tmp_path / "tmux.conf"
        # Keep the pane after the tool exits, so a failure can show its screen.
        self.conf.write_text("set -g remain-on-exit on\n")

    def __call__(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, "-f", str(self.conf), *args],
                              check=True, capture_output=True, text=True).stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "anno")

    def wait_for(self, what: str, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if what in screen or time.monotonic() > end:
                assert what in screen, f"{what!r} not on the screen:\n{screen}"
                return screen
            time.sleep(0.1)


@pytest.mark.skipif(shutil.which("tmux") is None,
                    reason="tmux is not installed (apt-get install tmux): the test runs annotate.py in a real terminal")
def test_annotate_in_a_real_terminal(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    tmux = Tmux(tmp_path)
    # The shell that tmux runs the command in writes the tool's exit status:
    # tmux's own #{pane_dead_status} stays empty at times (tmux 3.3a leaves
    # the exited tool a zombie, unreaped, once the pane has closed).
    status = tmp_path / "status"
    command = " ".join([sys.executable, str(ROOT / "annotate.py"), "--config", "cleaneval",
                        str(page), str(anno), "; echo $? >", str(status)])
    env = {**os.environ, "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    subprocess.run(["tmux", "-L", tmux.socket, "-f", str(tmux.conf), "new-session", "-d",
                    "-s", "anno", "-x", "100", "-y", "30", command], check=True, env=env)
    try:
        screen = tmux.wait_for("q quit")
        assert "p paragraph  h header  l list item  c continuation  o other" in screen
        assert "j/k block  PgUp/PgDn page  g/G top/end  n unlabelled  u undo  s save" in screen
        assert "block 1 of 161" in screen
        tmux("send-keys", "-t", "anno", "o", "h", "Down", "p")
        screen = tmux.wait_for("block 5 of 161")
        assert "[o] Las Vegas Realtor" in screen and "[h] Las Vegas Real Estate" in screen
        assert "[p] |" in screen
        tmux("send-keys", "-t", "anno", "C-s")
        tmux.wait_for(f"saved {anno}")
        tmux("send-keys", "-t", "anno", "q")
        end = time.monotonic() + 60  # generous: a loaded machine is slow, not wrong
        while not status.exists() or not status.read_text().endswith("\n"):
            assert time.monotonic() < end, "annotate.py did not quit:\n" + tmux.screen()
            time.sleep(0.1)
        assert status.read_text() == "0\n"
    finally:
        subprocess.run(["tmux", "-L", tmux.socket, "kill-server"], capture_output=True)
    assert load_annotation(anno).labels[:5] == ["o", "h", UNLABELLED, "p", UNLABELLED]


def test_annotate_help_lists_the_keys_and_what_a_continuation_is(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "victor", "annotate", "--help"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0
    for key in ("p  paragraph", "c  continuation  text that goes on the paragraph",
                "u          undo", "?          show this help", "docs/annotate.md"):
        assert key in proc.stdout


@pytest.mark.skipif(shutil.which("tmux") is None,
                    reason="tmux is not installed (apt-get install tmux): the test runs annotate.py in a real terminal")
def test_the_help_key_and_a_status_line_that_fits_100_columns(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    tmux = Tmux(tmp_path)
    command = " ".join([sys.executable, str(ROOT / "annotate.py"), "--config", "cleaneval",
                        str(page), str(anno)])
    env = {**os.environ, "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    subprocess.run(["tmux", "-L", tmux.socket, "-f", str(tmux.conf), "new-session", "-d",
                    "-s", "anno", "-x", "100", "-y", "30", command], check=True, env=env)
    try:
        screen = tmux.wait_for("? help")
        tmux("send-keys", "-t", "anno", "?")
        screen = tmux.wait_for("any key goes back")
        assert "c  continuation  text that goes on the paragraph" in screen
        tmux("send-keys", "-t", "anno", "j")  # goes back, and moves nothing
        tmux.wait_for("block 1 of 161")
        # Block 2's status is 108 columns: every part shows, none cut.
        tmux("send-keys", "-t", "anno", "j")
        screen = tmux.wait_for("block 2 of 161")
        assert "in tr > td > a > img  after <tr> <td> <a> <img>" in screen
    finally:
        subprocess.run(["tmux", "-L", tmux.socket, "kill-server"], capture_output=True)
