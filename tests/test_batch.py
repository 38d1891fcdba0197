"""Cleaning many pages: the same outputs in the same order with any number
of processes, nothing half-written after a kill, and a rerun that finishes
what an interrupted run left. What the terminal shows is in
test_batch_terminal.py."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from batch_support import clean_py, contents, wait_for_outputs
from front_door_support import victor_main
from repo_data import CLEANEVAL as CLEANEVAL_DIR, DRAGNET as DRAGNET_DIR, ROOT, pages

from victor import batch
from victor.errors import VictorError
from victor.files import make_folder
from victor.batch.inputs import discover
from victor.batch.jobs import plan
from victor.batch.manifest import MANIFEST
from victor.batch.workers import RunOptions

CLEANEVAL = pages(CLEANEVAL_DIR)[:10]
# Thirty real news pages, about two seconds of work for one process.
DRAGNET = pages(DRAGNET_DIR)[:30]


@pytest.fixture(scope="module")
def reference(settings, tmp_path_factory):
    """What an uninterrupted run writes for the Dragnet pages."""
    folder = tmp_path_factory.mktemp("reference")
    run(settings, DRAGNET, folder)
    return folder


def run(settings, files, outdir=None, workers=1, fmt="cleaneval"):
    """CleanEval's format, as clean.py writes it: each page's URL line says
    which page comes where."""
    text: list[str] = []
    jobs = plan([str(f) for f in files], outdir and str(outdir), fmt)
    report = batch.run(jobs, settings, workers, text.append)
    return report, "".join(text)


def test_two_processes_write_the_same_text_in_the_same_order(settings):
    one, text1 = run(settings, CLEANEVAL)
    two, text2 = run(settings, CLEANEVAL, workers=2)
    assert text2 == text1
    assert (one.done, two.done) == (10, 10)
    # In input order: each page's URL line comes in the order of the files.
    urls = [line for line in text2.splitlines() if line.startswith("URL: ")]
    assert len(urls) == 10


def test_two_processes_write_the_same_files(settings, tmp_path):
    run(settings, CLEANEVAL, tmp_path / "one", fmt="jsonl")
    report, stdout = run(settings, CLEANEVAL, tmp_path / "two", workers=2, fmt="jsonl")
    assert stdout == "" and report.done == 10
    assert contents(tmp_path / "two") == contents(tmp_path / "one")
    assert sorted(contents(tmp_path / "one")) == sorted(f"{p.stem}.jsonl" for p in CLEANEVAL)


def test_existing_outputs_are_kept_unless_overwrite(settings, tmp_path):
    pages = CLEANEVAL[:2]
    kept = tmp_path / f"{pages[0].stem}.txt"
    kept.write_text("a person's edits\n", encoding="utf-8")
    report, _ = run(settings, pages, tmp_path)
    assert (report.done, report.skipped) == (1, 1)
    assert kept.read_text(encoding="utf-8") == "a person's edits\n"
    jobs = plan([str(p) for p in pages], str(tmp_path), "cleaneval")
    again = batch.run(jobs, RunOptions(settings.config, settings.model, overwrite=True), 2)
    assert (again.done, again.skipped) == (2, 0)
    assert kept.read_text(encoding="utf-8").startswith("URL: ")


def test_a_bad_input_is_reported_and_the_rest_is_cleaned_in_order(settings, tmp_path):
    missing = tmp_path / "gone.html"
    files = [CLEANEVAL[0], missing, CLEANEVAL[1]]
    report, text = run(settings, files, workers=2)
    assert report.done == 2
    assert report.failed == [(str(missing), "no such file")]
    assert text == run(settings, [CLEANEVAL[0], CLEANEVAL[1]])[1]
    assert "1 failed" in report.summary() and f"failed: {missing}: no such file" in report.summary()


def test_a_killed_batch_leaves_whole_outputs_and_a_rerun_finishes_it(settings, reference,
                                                                     tmp_path):
    out = tmp_path / "out"
    proc = clean_py(settings, "-j", "2", "-o", out, *DRAGNET,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_outputs(out, 4)
    workers = _children(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # Its workers notice and stop rather than wait for work forever.
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers)
    partial = contents(out)
    assert 4 <= len(partial) < len(DRAGNET), "the kill came too late to test anything"
    # What is there is whole: exactly what an uninterrupted run writes.
    assert all(text == (reference / name).read_text(encoding="utf-8")
               for name, text in partial.items())
    # Anything else is a hidden temporary file, never an output, or the
    # record of what made the folder.
    assert all(p.name.startswith(".") and p.name.endswith(".tmp") or p.name == MANIFEST
               for p in out.iterdir() if p.name not in partial)

    rerun = clean_py(settings, "-j", "2", "-o", out, *DRAGNET,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, stderr
    assert stdout == ""
    cleaned, already = map(int, re.match(r"(\d+) cleaned, (\d+) already done", stderr).groups())
    assert already >= len(partial) and cleaned + already == len(DRAGNET)
    assert contents(out) == contents(reference)
    assert "\r" not in stderr  # no progress bar when standard error is no terminal
    # The killed run's temporary files are gone with the rerun (issue 46).
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_worker_that_dies_costs_no_page(settings, reference, tmp_path):
    """Killed by the system (out of memory, say): its chunks go to a fresh
    pool of workers and the batch finishes as if nothing happened."""
    proc = clean_py(settings, "-j", "2", "-o", tmp_path, *DRAGNET,
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_for_outputs(tmp_path, 4)
    os.kill(_children(proc.pid)[0], signal.SIGKILL)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    assert stderr.startswith(f"{len(DRAGNET)} cleaned, 0 already done, 0 failed")
    assert contents(tmp_path) == contents(reference)


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_outputs_can_go_to_any_fsspec_url(settings, tmp_path):
    fsspec = pytest.importorskip("fsspec")
    run(settings, CLEANEVAL[:3], tmp_path / "plain")
    urls = [f"file://{page}" for page in CLEANEVAL[:3]]  # inputs may be URLs too
    report, _ = run(settings, urls, f"file://{tmp_path}/url", workers=2)
    assert report.done == 3 and contents(tmp_path / "url") == contents(tmp_path / "plain")
    memory = fsspec.filesystem("memory")  # one per process: this one only
    try:
        assert run(settings, CLEANEVAL[:3], "memory://victor-test/out")[0].done == 3
        written = {p.rsplit("/", 1)[1]: memory.cat(p).decode()
                   for p in memory.ls("/victor-test/out", detail=False)}
        assert written == contents(tmp_path / "plain")
        assert run(settings, CLEANEVAL[:3], "memory://victor-test/out")[0].skipped == 3
    finally:
        memory.rm("/victor-test", recursive=True)


def test_a_folder_without_pages_and_an_unwritable_output_folder_stop_before_any_work(tmp_path):
    with pytest.raises(VictorError, match="no pages or WARC files found in"):
        discover([str(CLEANEVAL[0]), str(tmp_path)])
    with pytest.raises(VictorError, match=r"cannot write output there \(Not a directory\)"):
        make_folder(str(CLEANEVAL[0] / "out"))


def test_a_reader_that_stops_early_stops_the_batch_quietly(settings):
    # More text than a pipe holds, so that the writer meets the closed end.
    proc = clean_py(settings, "-j", "2", "--format", "jsonl", *DRAGNET, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b'{"source": ')
    proc.stdout.close()  # as `| head -1` does
    assert proc.wait(timeout=60) == 141
    assert b"Traceback" not in proc.stderr.read()


def test_a_worker_cleans_the_largest_training_page_in_under_500_mb():
    """Issue #6: the largest page of the training data (Dragnet T55, 900 kB)
    through clean.py in one worker process, with the shipped model."""
    largest = max((p for d in (CLEANEVAL_DIR, DRAGNET_DIR) for p in pages(d)),
                  key=lambda p: p.stat().st_size)
    probe = ("import resource, subprocess, sys; "
             "subprocess.run([sys.executable, 'clean.py', '--format', 'jsonl', sys.argv[1]], "
             "check=True, stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)")
    out = subprocess.run([sys.executable, "-c", probe, str(largest)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True)
    assert int(out.stdout) < 500


def test_a_folder_gives_its_pages_not_their_gold_text_and_a_rerun_finds_them_done(tmp_path):
    """Issue 29: data/cleaneval holds NAME.html beside its gold NAME.txt;
    only the 58 pages are cleaned, and the same command again has nothing
    left to do."""
    command = ("clean", "-o", tmp_path / "out", CLEANEVAL_DIR)
    first = victor_main(*command, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stderr.splitlines()[-2:] == [
        "58 cleaned, 0 already done, 0 failed",
        "passed over in the folders: 58 .anno, 1 .md, 58 .txt (not page names)"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(
        [MANIFEST, *(f"{p.stem}.txt" for p in pages(CLEANEVAL_DIR))])
    again = victor_main(*command, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines()[-2] == "0 cleaned, 58 already done, 0 failed"


def test_a_file_named_on_the_command_line_is_cleaned_whatever_its_suffix(tmp_path):
    page = tmp_path / "saved.txt"
    page.write_bytes((CLEANEVAL_DIR / "1.html").read_bytes())
    named = victor_main("clean", "--format", "text", page, cwd=tmp_path)
    assert named.returncode == 0, named.stderr
    expected = victor_main("clean", "--format", "text", CLEANEVAL_DIR / "1.html", cwd=tmp_path)
    assert named.stdout == expected.stdout and named.stdout.strip()
    # In a folder, the same file is not taken for a page.
    with pytest.raises(VictorError, match=r"no pages or WARC files found in .*\.html "):
        discover([str(tmp_path)])


def test_an_output_folder_that_takes_no_file_is_refused_before_any_page_is_cleaned(tmp_path):
    """Issue 29: 40 of 40 pages failed with 'Permission denied' after all
    of them had been cleaned. Root writes anywhere a mode allows nothing,
    so root is shown a folder the kernel refuses even to root."""
    if os.geteuid() != 0:
        folder = tmp_path / "read-only"
        folder.mkdir(mode=0o555)
    else:
        folder = Path("/sys/kernel")  # nothing is written there: the probe fails
        if not folder.is_dir() or os.access(folder, os.W_OK) and _writable(folder):
            pytest.skip("no folder here that refuses root")
    proc = victor_main("clean", "-o", folder, *DRAGNET, cwd=tmp_path)
    # Exit status 2 and this one line: no page was tried (a batch ends with its summary).
    assert proc.returncode == 2
    assert proc.stderr == (f"error: {folder}: cannot write output there (Permission denied); "
                           "choose another folder with -o\n")


def _writable(folder: Path) -> bool:
    try:
        make_folder(str(folder))
        return True
    except VictorError:
        return False
