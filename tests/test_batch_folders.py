"""What a folder of pages gives: outputs that mirror its tree, pages found by
their names or (without a suffix) by their first bytes, everything else
passed over and counted, and files that are no regular file never opened.
Issue 46, items 1, 4, 5 and the report outputs of item 9."""

from __future__ import annotations

import gzip
import os
import shutil
from pathlib import Path

import pytest
from front_door_support import victor_command, victor_main
from repo_data import CLEANEVAL, DRAGNET, WCXB

from victor.batch.inputs import discover
from victor.batch.jobs import plan
from victor.cleaner import extract
from victor.errors import VictorError


def text_of(page: Path) -> str:
    """The text `victor clean --format text` gives the page."""
    data = page.read_bytes()
    return extract(gzip.decompress(data) if page.suffix == ".gz" else data)


def test_a_mirrored_site_gives_outputs_that_mirror_its_tree(tmp_path):
    """wget and httrack save a site as index.html in every folder, and a page
    may be saved as page.html beside page.htm: each gets its own output."""
    site = tmp_path / "m"
    (site / "a").mkdir(parents=True)
    shutil.copy(CLEANEVAL / "1.html", site / "index.html")
    shutil.copy(CLEANEVAL / "2.html", site / "a" / "index.html")
    shutil.copy(CLEANEVAL / "3.html", site / "page.html")
    shutil.copy(CLEANEVAL / "4.html", site / "page.htm")
    shutil.copy(CLEANEVAL / "5.html", site / "a" / "about.html")
    proc = victor_main("clean", "--format", "text", "-o", "out", "m", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "out"
    made = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()
                  and not p.name.startswith("."))
    assert made == ["a/about.txt", "a/index.txt", "index.txt", "page.htm.txt", "page.html.txt"]
    for output, page in (("index.txt", "index.html"), ("a/index.txt", "a/index.html"),
                         ("page.html.txt", "page.html"), ("page.htm.txt", "page.htm"),
                         ("a/about.txt", "a/about.html")):
        assert (out / output).read_text(encoding="utf-8") == text_of(site / page)
    assert proc.stderr.splitlines()[0] == "5 cleaned, 0 already done, 0 failed"
    again = victor_main("clean", "--format", "text", "-o", "out", "m", cwd=tmp_path)
    assert again.stderr.splitlines()[0] == "0 cleaned, 5 already done, 0 failed"


def test_two_folders_whose_pages_share_a_path_are_still_refused_before_any_work(tmp_path):
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        shutil.copy(CLEANEVAL / "1.html", tmp_path / folder / "index.html")
    found = discover([str(tmp_path / "one"), str(tmp_path / "two")])
    with pytest.raises(VictorError) as refused:
        plan(found.inputs, str(tmp_path / "out"), None)
    assert str(refused.value) == (
        f"{tmp_path / 'two/index.html'}: its output {tmp_path / 'out/index.txt'} would "
        f"overwrite that of {tmp_path / 'one/index.html'}; clean them into different folders")


def test_pages_without_a_suffix_are_found_by_their_first_bytes_and_the_rest_counted(tmp_path):
    """Crawlers save pages as `page1` or `index.php?id=3`: they are pages.
    A suffix-less file that does not begin as HTML, gold text and labels are
    passed over, and the summary says how many and why."""
    saved = tmp_path / "saved"
    saved.mkdir()
    shutil.copy(DRAGNET / "188.html", saved / "page1")
    shutil.copy(DRAGNET / "196.html", saved / "index.php?id=3")
    shutil.copy(DRAGNET / "106.html", saved / "PRODUCT.HTML")
    (saved / "page2").write_bytes(gzip.decompress((WCXB / "0001.html.gz").read_bytes()))
    shutil.copy(DRAGNET / "188.txt", saved / "README")  # text, no suffix: not a page
    shutil.copy(DRAGNET / "188.txt", saved / "188.txt")
    shutil.copy(DRAGNET / "188.anno", saved / "188.anno")
    shutil.copy(DRAGNET / "196.anno", saved / "196.anno")
    proc = victor_main("clean", "--format", "text", "-o", "out", "saved", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if p.name[0] != ".") == [
        "PRODUCT.txt", "index.txt", "page1.txt", "page2.txt"]
    assert (tmp_path / "out/page1.txt").read_text(encoding="utf-8") == text_of(DRAGNET / "188.html")
    assert proc.stderr.splitlines() == [
        "4 cleaned, 0 already done, 0 failed",
        "passed over in the folders: 2 .anno, 1 .txt (not page names); 1 without a suffix "
        "(not HTML in its first bytes)"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_a_folder_is_skipped_never_opened(tmp_path):
    """A FIFO that nothing writes to hung the batch forever (--timeout does
    not cover reading); one named like a page, one without a suffix."""
    folder = tmp_path / "pages"
    folder.mkdir()
    shutil.copy(CLEANEVAL / "1.html", folder / "1.html")
    os.mkfifo(folder / "feed.html")
    os.mkfifo(folder / "feed")
    proc = victor_command("clean", "--format", "text", "-o", "out", "pages", cwd=tmp_path,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        "1 cleaned, 0 already done, 0 failed",
        "skipped: pages/feed: a FIFO (named pipe), not a regular file; never opened",
        "skipped: pages/feed.html: a FIFO (named pipe), not a regular file; never opened"]
    assert (tmp_path / "out/1.txt").read_text(encoding="utf-8") == text_of(CLEANEVAL / "1.html")


def test_outputs_the_next_walk_would_take_for_pages_stay_out_of_the_input_folder(tmp_path):
    """`--format report -o DIR DIR` wrote NAME.report.html among the pages,
    and the next run cleaned them as pages."""
    folder = tmp_path / "pages"
    folder.mkdir()
    shutil.copy(CLEANEVAL / "1.html", folder / "1.html")
    for fmt, out in (("report", "pages"), ("html", "pages/reports")):
        proc = victor_main("clean", "--format", fmt, "-o", out, "pages", cwd=tmp_path)
        assert (proc.returncode, proc.stdout) == (2, "")
        assert proc.stderr == (f"error: {out}: inside the input folder pages, whose next walk "
                               f"would take the .html outputs of --format {fmt} for pages; "
                               "choose a folder outside it with -o\n")
    assert sorted(p.name for p in folder.rglob("*")) == ["1.html"]
    # Outputs whose names no walk takes may go there.
    text = victor_main("clean", "--format", "text", "-o", "pages", "pages", cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    again = victor_main("clean", "--format", "text", "-o", "pages", "pages", cwd=tmp_path)
    assert again.stderr.splitlines()[0] == "0 cleaned, 1 already done, 0 failed"
