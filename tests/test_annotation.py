"""Annotations: the .anno format, re-attaching labels to a page's blocks,
export and statistics, and the annotate.py command line. Labels from gold
text are in test_annotation_gold.py."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from front_door_support import victor_main
from annotation_support import labels_by_text, page_of
from repo_data import CLEANEVAL, DRAGNET, ROOT

from victor.annotation import (Annotation, attach, export, label_stats, load_annotation,
                               load_training_page, save_annotation)
from victor.errors import VictorError


# --- the format ---------------------------------------------------------


def test_round_trip_keeps_labels_texts_and_header(tmp_path):
    a = load_annotation(CLEANEVAL / "1.anno")
    assert a.url == "http://1-las-vegas-real-estate.com/homes/sellers/list_today/"
    assert a.config == "general"
    assert Path(a.source).resolve() == (CLEANEVAL / "1.html").resolve()
    save_annotation(tmp_path / "1.anno", a)
    b = load_annotation(tmp_path / "1.anno")
    assert (b.labels, b.texts, b.url, b.config) == (a.labels, a.texts, a.url, a.config)
    # The page is named relative to the new file's folder and still found.
    assert Path(b.source).resolve() == (CLEANEVAL / "1.html").resolve()
    assert not (tmp_path / "1.html").exists()


def test_file_is_one_label_a_line_after_a_header(tmp_path):
    save_annotation(tmp_path / "x.anno", Annotation(str(tmp_path / "x.html"), "http://x.org/", ["p", "c", "o"],
                                                    ["See", "our website", "Home"], "cleaneval"))
    assert (tmp_path / "x.anno").read_text() == (
        "victor-annotation 1\nsource: x.html\nurl: http://x.org/\nconfig: cleaneval\n\n"
        "p\tSee\nc\tour website\no\tHome\n")


def test_save_leaves_no_temporary_file_and_refuses_bad_labels(tmp_path):
    target = tmp_path / "x.anno"
    with pytest.raises(VictorError, match="label 'x'"):
        save_annotation(target, Annotation("x.html", "", ["x"], ["text"]))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("body, line, reason", [
    ("nonsense\n", 1, "not a Victor annotation"),
    ("victor-annotation 1\nsource: 1.html\nurl:\nconfig: c\n\np\tFine\nx\tBad label\n", 7, "label"),
    ("victor-annotation 1\nsource: 1.html\nurl:\nconfig: c\n\np No tab here\n", 6, "tab"),
    ("victor-annotation 1\nsource: 1.html\nurl:\nconfig: c\n\np\tTwo  spaces\n", 6, "single spaces"),
    ("victor-annotation 1\nsource: 1.html\ncolour: red\n\n", 3, "KEY"),
    ("victor-annotation 1\nsource: 1.html\nurl:\n\n", 4, "'config:'"),
])
def test_malformed_file_is_a_one_line_error_with_file_and_line(tmp_path, body, line, reason):
    path = tmp_path / "bad.anno"
    path.write_text(body)
    with pytest.raises(VictorError) as e:
        load_annotation(path)
    message = str(e.value)
    assert message.startswith(f"{path}:{line}: ") and reason in message and "\n" not in message


# --- re-attaching labels ------------------------------------------------


def test_labels_attach_to_the_unchanged_page(config):
    page, labels = load_training_page(CLEANEVAL / "1.anno", config)
    assert len(labels) == len(page.blocks)
    assert labels_by_text([b.text for b in page.blocks], labels)["Your Home Will Sell"] == "h"


def test_new_block_on_the_page_is_reported_not_guessed(config):
    data = (CLEANEVAL / "1.html").read_bytes().replace(
        b"<body", b"<p>A paragraph added later</p><body", 1)
    page = page_of(CLEANEVAL / "1.html", config, data)
    with pytest.raises(VictorError) as e:
        attach(load_annotation(CLEANEVAL / "1.anno"), page, "1.anno")
    message = str(e.value)
    assert message.startswith("1.anno: ") and "block 0 'A paragraph added later'" in message
    assert "\n" not in message


def test_labels_follow_their_text_when_a_boilerplate_block_goes(config):
    # A menu item (labelled o) removed from the page: every later label
    # moves up one block with its text.
    data = (CLEANEVAL / "1.html").read_bytes()
    assert data.count(b">Las Vegas Index<") == 1
    page = page_of(CLEANEVAL / "1.html", config, data.replace(b">Las Vegas Index<", b"><", 1))
    anno = load_annotation(CLEANEVAL / "1.anno")
    labels = attach(anno, page, "1.anno")
    assert len(labels) == len(anno.labels) - 1
    assert labels_by_text([b.text for b in page.blocks], labels) == {
        t: label for t, label in zip(anno.texts, anno.labels) if t != "Las Vegas Index"}


def test_annotation_of_another_page_is_one_line_error(config):
    page = page_of(CLEANEVAL / "2.html", config)
    with pytest.raises(VictorError) as e:
        attach(load_annotation(CLEANEVAL / "1.anno"), page, "1.anno")
    assert str(e.value).startswith("1.anno: annotates ") and "\n" not in str(e.value)


def test_annotation_of_another_page_without_urls_is_one_line_error(config):
    page = page_of(DRAGNET / "100.html", config)
    anno = load_annotation(DRAGNET / "106.anno")
    with pytest.raises(VictorError, match=r"^106.anno: annotates .*106.html, not .*100.html: only"):
        attach(anno, page, "106.anno")


# --- export and statistics ----------------------------------------------


def test_export_cleaneval_has_url_line_and_segment_markers():
    text = export(load_annotation(CLEANEVAL / "1.anno"), "cleaneval")
    lines = text.splitlines()
    assert lines[0] == "URL: http://1-las-vegas-real-estate.com/homes/sellers/list_today/"
    assert lines[1] == ("<p>If you feel it's time to start taking action and get your property "
                        "sold FAST and for TOP DOLLAR; here's a good place to start.")
    assert "<h>Your Home Will Sell" in lines and "<l>For Top Dollar" in lines


def test_export_text_is_paragraphs():
    text = export(load_annotation(CLEANEVAL / "1.anno"), "text")
    assert text.startswith("If you feel it's time")
    assert "\n\nYour Home Will Sell\n\nFast\n\n" in text


def test_stats_table():
    counts = Counter(load_annotation(CLEANEVAL / "1.anno").labels)
    table = label_stats(counts)
    assert table.splitlines()[0].split() == ["label", "count", "share"]
    content = sum(counts[k] for k in "phlc")
    assert f"total (content)  {content:>7}" in table
    assert f"other (noise)    {counts['o']:>7}" in table


# --- the command line ---------------------------------------------------


def annotate(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """annotate.py's function in this process (front_door_support.victor_main)."""
    return victor_main(*args, cwd=cwd, command="annotate")


def test_cli_from_gold_then_export_and_stats(tmp_path):
    out = tmp_path / "47.anno"
    r = annotate("--config", "cleaneval", "--from-gold", str(CLEANEVAL / "47.txt"),
                 str(CLEANEVAL / "47.html"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "recall" in r.stdout and "precision" in r.stdout
    assert load_annotation(out).labels == load_annotation(CLEANEVAL / "47.anno").labels
    r = annotate("--from-gold", str(CLEANEVAL / "47.txt"), str(CLEANEVAL / "47.html"), "-o", str(out))
    assert r.returncode == 0 and "kept" in r.stdout  # a person's corrections are never overwritten
    r = annotate("--export", "cleaneval", str(out))
    assert r.returncode == 0 and r.stdout == export(load_annotation(out), "cleaneval")
    r = annotate("--stats", str(out), str(CLEANEVAL / "1.anno"))
    assert r.returncode == 0 and "2 annotated pages" in r.stdout and "other (noise)" in r.stdout


def test_cli_batch_goes_on_past_a_bad_pair_and_lists_it(tmp_path):
    gold, html = tmp_path / "gold", tmp_path / "html"
    gold.mkdir()
    html.mkdir()
    for name in ("47", "49"):
        shutil.copy(CLEANEVAL / f"{name}.txt", gold)
        shutil.copy(CLEANEVAL / f"{name}.html", html)
    shutil.copy(CLEANEVAL / "2.txt", gold / "1.txt")  # the gold of another page
    shutil.copy(CLEANEVAL / "1.html", html)
    (gold / "5.txt").write_text("URL: http://nowhere/\n<p>No page for this gold\n")
    r = annotate("--from-gold-dir", str(gold), str(html), "-o", str(tmp_path / "out"))
    assert r.returncode == 1
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["47.anno", "49.anno"]
    failed = [line for line in r.stderr.splitlines() if line.startswith("failed: ")]
    assert [line.split(":")[1].strip() for line in failed] == [str(gold / "1.txt"), str(gold / "5.txt")]
    assert "2 pages annotated" in r.stderr


def test_cli_error_is_one_line_and_nonzero(tmp_path):
    r = annotate("--stats", str(tmp_path / "missing.anno"))
    assert r.returncode == 2
    assert r.stderr == f"error: {tmp_path / 'missing.anno'}: no such annotation file\n"


def test_from_gold_without_its_output_says_what_is_missing(tmp_path):
    """Issue 46: it said 'give a page and its .anno file', the full-screen
    tool's usage, to someone labelling from gold."""
    r = annotate("--from-gold", str(CLEANEVAL / "47.txt"), str(CLEANEVAL / "47.html"),
                 cwd=tmp_path)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == ("error: annotate --from-gold: name the .anno file to write with "
                        "-o PAGE.anno (or give PAGE.html PAGE.anno to correct the labels "
                        "by hand)\n")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_or_empty_gold_is_not_reported_as_full_recall(tmp_path):
    """Issue 46: a gold that could not be read gave 'recall 100.00% of 0 gold
    words'. CleanEval page 32's gold is empty on purpose (the whole page is
    boilerplate): its labels are all o, and the line says why."""
    page = tmp_path / "32.html"
    shutil.copy(CLEANEVAL / "32.html", page)
    missing = annotate("--from-gold", str(tmp_path / "32.txt"), str(page), "-o",
                       str(tmp_path / "32.anno"), cwd=tmp_path)
    assert missing.returncode == 1
    assert missing.stderr.splitlines() == [
        "total: 0 pages annotated, 0 kept as they were, 1 failed; no gold text was read",
        f"failed: {tmp_path / '32.txt'}: cannot read gold text (No such file or directory)"]
    empty = annotate("--from-gold", str(CLEANEVAL / "32.txt"), str(page), "-o",
                     str(tmp_path / "32.anno"), cwd=tmp_path)
    assert empty.returncode == 0, empty.stderr
    blocks = len(load_annotation(tmp_path / "32.anno").labels)
    assert set(load_annotation(tmp_path / "32.anno").labels) == {"o"}
    assert empty.stdout.splitlines() == [
        f"{tmp_path / '32.anno'}: the gold is empty (no words): all {blocks} blocks are "
        "boilerplate",
        "total: 1 pages annotated, 0 kept as they were, 0 failed; the gold is empty, "
        "no words to align"]
