"""What a batch shows on the terminal: a progress bar, a failure as it
happens, an honest count after Ctrl-C, and the summary alone with --quiet."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess

import pytest
from batch_support import clean_py, contents, wait_for_outputs
from repo_data import CLEANEVAL as CLEANEVAL_DIR, DRAGNET as DRAGNET_DIR, pages

from victor.batch import Report
from victor.cli.clean import progress_line

CLEANEVAL = pages(CLEANEVAL_DIR)[:10]


def on_a_terminal(settings, *args) -> bytes:
    """What clean.py shows on its standard error when that is a terminal."""
    leader, follower = pty.openpty()
    proc = clean_py(settings, *args, stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        try:
            chunk = os.read(leader, 4096) if ready else b""
        except OSError:  # the terminal closed with the process
            chunk = b""
        if not chunk:
            break
        seen += chunk
    proc.wait()
    os.close(leader)
    return seen


def test_a_progress_bar_on_a_terminal(settings, tmp_path):
    shown = on_a_terminal(settings, "-o", tmp_path, *CLEANEVAL[:6]).decode()
    assert "pages/s" in shown and "errors" in shown and "left" in shown and "\r" in shown
    assert shown.rstrip().endswith("6 cleaned, 0 already done, 0 failed")


def test_progress_line_says_pages_rate_errors_and_time_left():
    report = Report(done=10, failed=[("a.html", "no such file")])
    assert progress_line(report, 0.25, 2.0) == (
        "[#####...............]  25%  10 pages  5.0 pages/s  1 errors  0:00:06 left")
    assert progress_line(report, None, 2.0) == "10 pages  5.0 pages/s  1 errors"


def as_on_a_terminal() -> None:
    """Ctrl-C as a terminal delivers it, however the tests were started: a
    shell runs a background job with SIGINT ignored, and the child would
    inherit that and never stop."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failure_shows_when_it_happens_and_ctrl_c_counts_what_is_on_disk(settings, tmp_path,
                                                                           jobs):
    """Issue 29: a failed page showed only in the final list, and after
    Ctrl-C the summary said 19 cleaned with 35 outputs on disk."""
    missing = tmp_path / "gone.html"
    out = tmp_path / "out"
    proc = clean_py(settings, "-j", jobs, "-o", out, missing, *pages(DRAGNET_DIR)[:300],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                    preexec_fn=as_on_a_terminal)
    assert proc.stderr.readline() == f"failed: {missing}: no such file\n"
    assert proc.poll() is None  # while the batch goes on
    wait_for_outputs(out, 12)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    on_disk = len(contents(out))
    assert 12 <= on_disk < 300
    assert f"\n{on_disk} cleaned, 0 already done, 1 failed\n" in f"\n{stderr}"
    assert stderr.rstrip().endswith("interrupted: run the same command again to finish the rest")


def test_quiet_keeps_the_terminal_to_the_summary(settings, tmp_path):
    shown = on_a_terminal(settings, "--quiet", "-o", tmp_path, *CLEANEVAL[:6])
    assert shown.decode().replace("\r\n", "\n") == "6 cleaned, 0 already done, 0 failed\n"
