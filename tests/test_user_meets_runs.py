"""What a new user met running `victor` (issue 64): `-j` bound by the
pages and the cores, limits that are usage errors, runs that can be
resumed, and the front door's defaults."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from front_door_support import victor_command, victor_main
from repo_data import CLEANEVAL, DRAGNET, pages

from victor import extract


def test_jobs_are_bound_by_the_pages_and_the_cores(tmp_path):
    """`-j 10000` on one page started thousands of processes and had not
    finished after 120 s."""
    started = time.monotonic()
    proc = victor_command("clean", "-j", "10000", "--format", "text", CLEANEVAL / "1.html",
                          cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 60
    assert proc.stderr.splitlines() == ["note: -j 10000: 1 process, one a page"]
    assert proc.stdout.strip()


def test_ctrl_c_with_pages_on_standard_output_promises_no_resume(tmp_path):
    """After Ctrl-C, "run the same command again to finish the rest" was
    said to a run writing to standard output, which cannot go on where it
    stopped."""
    proc = subprocess.Popen([sys.executable, "-m", "victor", "clean", "--format", "text",
                             *pages(DRAGNET)[:200]], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    proc.stdout.readline()  # the first page is out
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert stderr.rstrip().endswith("interrupted: the pages after those written were not "
                                    "cleaned (a run with -o OUTDIR can be resumed; one to "
                                    "standard output cannot)")


def test_a_gzipped_page_on_standard_input_is_read(tmp_path):
    page = CLEANEVAL / "1.html"
    plain = victor_main("clean", "--format", "text", page, cwd=tmp_path)
    zipped = victor_command("clean", "--format", "text", "-", cwd=tmp_path,
                            stdin=gzip.compress(page.read_bytes()))
    assert zipped.returncode == 0, zipped.stderr
    assert zipped.stdout == plain.stdout and plain.stdout.strip()


def test_the_same_file_named_twice_is_cleaned_once(tmp_path):
    page = CLEANEVAL / "1.html"
    proc = victor_main("clean", "-o", tmp_path / "out", page, page, DRAGNET / "100.html",
                       cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "2 cleaned, 0 already done, 0 failed\n"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()
                  if not p.name.startswith(".")) == ["1.txt", "100.txt"]


@pytest.mark.parametrize("head", ['<base href="https://ex.com/a/">',
                                  '<link rel="canonical" href="https://ex.com/a/b.html">',
                                  '<meta property="og:url" content="https://ex.com/a/b.html">'])
def test_links_are_absolute_from_the_pages_own_address(head):
    page = (f"<html><head>{head}</head><body><p>Words of the page with <a href='c.html'>a "
            "link</a> and <a href='/d'>another</a> in them.</p></body></html>")
    md = extract(page, output="markdown")
    assert "(https://ex.com/a/c.html)" in md and "(https://ex.com/d)" in md


def test_a_folder_that_cannot_be_read_says_so(tmp_path):
    """It said "no pages or WARC files found". Root reads any folder a
    mode allows nothing, so root is shown one the kernel refuses it."""
    if os.geteuid() != 0:
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o000)
    else:
        folder = Path("/proc/1/map_files")
        if os.access(folder, os.R_OK) and _listable(folder):
            pytest.skip("no folder here that refuses root")
    proc = victor_main("clean", folder, cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == f"error: cannot read the folder {folder}: permission denied\n"


def _listable(folder: Path) -> bool:
    try:
        os.listdir(folder)
    except OSError:
        return False
    return True


def test_a_full_disk_stops_the_batch_in_one_line(tmp_path):
    """A full disk printed 193 failures, each twice. A small tmpfs is the
    full disk, where this machine lets the test mount one."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(disk)],
                      capture_output=True).returncode != 0:
        pytest.skip("no tmpfs to fill here")
    try:
        proc = victor_command("clean", "-o", disk / "out", *pages(DRAGNET)[:60], cwd=tmp_path)
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert not [line for line in lines if line.startswith("failed:")]
    assert len([line for line in lines if "No space left on device" in line]) == 1
    assert lines[-1].startswith("stopped: ") and lines[-1].endswith(
        "the batch stopped there: free some space and run the same command again")
