"""The front door's safe defaults: nothing written over a shipped model, an
existing model or an input unless told, probabilities checked, and a
page or a training file that cannot be used said so in one line."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from front_door_support import victor_main
from repo_data import ROOT

import victor
from victor import output
from victor.cleaner import Cleaner, extract
from victor.config import load_config
from victor.errors import EMPTY_PAGE, NO_TEXT, VictorError

HOSTILE = ROOT / "tests" / "hostile"


# --- safe defaults -------------------------------------------------------------------

def learn(*args, cwd: Path) -> subprocess.CompletedProcess:
    return victor_main("learn", "--max-iterations", "1", *args, cwd=cwd)


def test_the_formats_are_one_list(cleaneval, tmp_path):
    """output.FORMATS is the one list of formats: Result renders each of
    them by its name, and `--format` offers exactly them."""
    result = Cleaner().clean((cleaneval / "1.html").read_bytes())
    for fmt in output.FORMATS:
        assert result.render(fmt) == getattr(result, fmt)()
    usage = victor_main("clean", "--help", cwd=tmp_path).stdout
    assert "--format {" + ",".join(output.FORMATS) + "}" in usage


def test_learn_does_not_write_over_the_shipped_model_unless_told(cleaneval, tmp_path):
    shipped = load_config("cleaneval").model
    before = (shipped / "model.json").read_bytes()
    proc = learn("--config", "cleaneval", cleaneval / "1.anno", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == (f"error: {shipped}: a model shipped with Victor; write yours "
                           "elsewhere with -o FOLDER, or give --replace-shipped-model to "
                           "replace it\n")
    assert (shipped / "model.json").read_bytes() == before


def test_learn_keeps_an_existing_model_without_overwrite(cleaneval, tmp_path):
    model = tmp_path / "mine"
    mine = ("--config", "cleaneval", "--calibrate", "0", "--max-iterations", "5", "-o", model)
    assert learn(*mine, cleaneval / "1.anno", cwd=tmp_path).returncode == 0
    before = (model / "model.json").read_bytes()
    proc = learn(*mine, cleaneval / "10.anno", cwd=tmp_path)
    assert proc.returncode == 2 and "exists; give --overwrite" in proc.stderr
    assert (model / "model.json").read_bytes() == before
    assert learn(*mine, "--overwrite", cleaneval / "10.anno", cwd=tmp_path).returncode == 0
    assert (model / "model.json").read_bytes() != before
    assert [p.name for p in tmp_path.iterdir()] == ["mine"]  # nothing left beside it


def test_learn_writes_no_model_over_what_is_not_one(cleaneval, tmp_path):
    """--overwrite replaces a model, never a folder of something else."""
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    proc = learn("--config", "cleaneval", "--calibrate", "0", "-o", folder, "--overwrite",
                 cleaneval / "1.anno", cwd=tmp_path)
    assert proc.returncode == 2 and "is no Victor model folder" in proc.stderr
    assert (folder / "keep.txt").read_text() == "mine"


def test_learn_makes_the_models_folders_once_it_has_a_model(cleaneval, tmp_path):
    """Issue 64: `victor learn -o models/mine` refused where models/ did
    not exist, where `victor clean -o` makes its folders. A run that fails
    leaves none behind."""
    failed = learn("-o", tmp_path / "no" / "such" / "m", tmp_path / "missing.anno", cwd=tmp_path)
    assert failed.returncode != 0 and not (tmp_path / "no").exists()
    proc = learn("--config", "cleaneval", "--calibrate", "0", "-o", tmp_path / "models" / "mine",
                 cleaneval / "1.anno", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "models" / "mine" / "model.json").is_file()


def test_no_output_replaces_an_input(cleaneval, tmp_path):
    page = tmp_path / "1.html"
    page.write_bytes((cleaneval / "1.html").read_bytes())
    proc = victor_main("clean", "--format", "html", "--overwrite", "-o", tmp_path, page,
                       cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == (f"error: {page}: its output {page} would replace the input "
                           f"{page}; choose another folder with -o\n")
    assert page.read_bytes() == (cleaneval / "1.html").read_bytes()


@pytest.mark.parametrize("threshold", ["2", "-0.1", "nan"])
def test_threshold_must_be_a_probability(cleaneval, tmp_path, threshold):
    proc = victor_main("clean", "--threshold", threshold, cleaneval / "1.html", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"error: threshold {float(threshold):g}: must lie between 0 and 1 "
                           "(a probability that a block is content)\n")


@pytest.mark.parametrize("option, value, why", [
    ("--max-size", "-1", "--max-size -1: the largest page must be more than 0 MB"),
    ("--max-size", "0", "--max-size 0: the largest page must be more than 0 MB"),
    ("--timeout", "-5", "--timeout -5: give the seconds a page may take, at most 86400 (a day), "
                        "or 0 for no limit"),
    # Issue 64: 1e10 failed every page with OverflowError.
    ("--timeout", "1e10", "--timeout 1e+10: give the seconds a page may take, at most 86400 "
                          "(a day), or 0 for no limit"),
    ("--jobs", "-3", "--jobs -3: give the number of processes, or 0 for one a core"),
    ("--language", "", "language '': give ISO 639 codes, as 'en' or 'en,de'"),
    ("--url", "example.com", "--url 'example.com': give a whole address, as "
                             "https://example.com/news/ or https://example.com/page.html"),
    # Issue 64: an address without a host was taken.
    ("--url", "http://", "--url 'http://': give a whole address, as "
                         "https://example.com/news/ or https://example.com/page.html")])
def test_a_bad_limit_or_language_is_a_usage_error_before_any_work(cleaneval, tmp_path, option,
                                                                  value, why):
    """Issue 46: --max-size -1 and --timeout -5 failed every page with an
    internal error (exit 1); --jobs -3 and --language '' were taken."""
    proc = victor_main("clean", option, value, "-o", tmp_path / "out", cleaneval / "1.html",
                       cwd=tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", f"error: {why}\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name, content", [
    ("zero.html", b""),
    ("whitespace.html", (HOSTILE / "whitespace.html").read_bytes()),
    ("empty-body.html", b"<!DOCTYPE html><html><head></head><body>\n</body></html>"),
    ("scripts.html", (HOSTILE / "script-only.html").read_bytes())])
def test_a_page_without_text_is_the_same_error_in_the_command_and_the_api(tmp_path, name, content):
    page = tmp_path / name
    page.write_bytes(content)
    proc = victor_main("clean", page, cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    why = EMPTY_PAGE if not content else NO_TEXT
    assert proc.stderr.splitlines()[-1] == f"failed: {page}: {why}"
    for data in (content, content.decode("utf-8", errors="replace")):
        with pytest.raises(victor.VictorError) as error:
            victor.extract(data, source=str(page))
        assert str(error.value) == f"{page}: {why}"


def test_a_threshold_that_keeps_no_block_says_so(tmp_path):
    """Issue 29: --threshold 0.99 gave an empty page, exit 0, no word."""
    page = ROOT / "data/cleaneval/1.html"
    proc = victor_main("clean", "--threshold", "0.99", page, cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    why = re.fullmatch(rf"failed: {re.escape(str(page))}: (threshold 0.99 kept no block "
                       r"\(the likeliest is content at 0\.\d\d\); lower it)",
                       proc.stderr.splitlines()[-1]).group(1)
    with pytest.raises(VictorError, match=re.escape(why)):
        extract(page.read_bytes(), threshold=0.99, source=str(page))
    assert extract(page.read_bytes(), threshold=0.5).strip()


def test_learn_given_a_page_or_a_half_labelled_file_says_what_to_do(tmp_path):
    page = ROOT / "data/cleaneval/1.html"
    proc = victor_main("learn", "-o", tmp_path / "m.crfsuite", page, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == (f"error: {page}:1: not a Victor annotation file (an HTML page; a .anno "
                           "file starts with 'victor-annotation 1'; make one with victor "
                           "annotate)\n")
    half = tmp_path / "1.anno"
    (tmp_path / "1.html").write_bytes(page.read_bytes())
    lines = (ROOT / "data/cleaneval/1.anno").read_text(encoding="utf-8").splitlines(True)
    body = lines.index("\n") + 1
    lines[body + 3] = "?" + lines[body + 3][1:]  # one block left unlabelled
    half.write_text("".join(lines), encoding="utf-8")
    proc = victor_main("learn", "-o", tmp_path / "m.crfsuite", half, cwd=tmp_path)
    assert proc.returncode == 2 and "annotate.py" not in proc.stderr
    assert proc.stderr.rstrip().endswith(f"finish them with: victor annotate {tmp_path / '1.html'} {half}")


def test_cross_validating_one_page_says_it_needs_pages_of_as_many_sites(cleaneval, tmp_path):
    """Issue 46: one page with --cross-validate 3 said 'needs between 2 and
    1 folds'."""
    for name in ("3.html", "3.anno"):
        shutil.copy(cleaneval / name, tmp_path)
    proc = learn("--config", "cleaneval", "--cross-validate", "3", tmp_path / "3.anno",
                 cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == ("error: --cross-validate 3: needs pages from at least 3 web sites "
                           "(a fold holds out whole sites); 1 annotated page given\n")
    one = learn("--config", "cleaneval", "--cross-validate", "1", tmp_path / "3.anno",
                cwd=tmp_path)
    assert one.stderr == "error: --cross-validate 1: give 2 folds or more\n"


def test_an_output_folder_that_is_a_file_is_said_plainly(cleaneval, tmp_path):
    """Issue 46: -o naming a file said '(File exists)'."""
    taken = tmp_path / "out.txt"
    taken.write_text("a user's notes\n")
    proc = victor_main("clean", "-o", taken, cleaneval / "1.html", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (f"error: {taken}: is a file, not a folder; name a folder for the "
                           "outputs with -o\n")
    assert taken.read_text() == "a user's notes\n"
