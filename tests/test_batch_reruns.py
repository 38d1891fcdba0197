"""A rerun into an output folder: it finishes what was left with the same
settings, refuses other settings (unless --overwrite) rather than mix two
in one corpus, and removes the temporary files a killed run left. Issue 46,
items 2 and 6."""

from __future__ import annotations

import json
import shutil

from batch_support import contents
from front_door_support import victor_command, victor_main
from repo_data import CLEANEVAL

from victor.batch.manifest import MANIFEST
from victor.cleaner import extract
from victor.files import AtomicFile


def test_a_rerun_with_other_settings_is_refused_naming_the_difference(tmp_path):
    """It reported '1 already done' and kept the output of the first
    settings."""
    shutil.copy(CLEANEVAL / "11.html", tmp_path / "p.html")
    first = victor_main("clean", "-o", "out", "p.html", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    made = contents(tmp_path / "out")
    assert list(made) == ["p.txt"]
    recorded = json.loads((tmp_path / "out" / MANIFEST).read_text(encoding="utf-8"))
    assert (recorded["config"], recorded["formats"], recorded["favor"]) == (
        "general", {".txt": "text"}, None)

    other = victor_main("clean", "--config", "cleaneval", "--favor", "precision",
                        "--no-links", "-o", "out", "p.html", cwd=tmp_path)
    assert (other.returncode, other.stdout) == (2, "")
    assert other.stderr == (
        "error: out: its outputs were made with other settings (--config cleaneval, was "
        "general; --favor precision, was none; --no-links); give --overwrite to replace "
        "them, or choose another folder with -o\n")
    language = victor_main("clean", "--language", "en", "--format", "cleaneval", "-o", "out",
                           "p.html", cwd=tmp_path)
    assert language.returncode == 2
    assert "(--format cleaneval, was text; --language en, was none)" in language.stderr
    assert contents(tmp_path / "out") == made

    # The same settings finish the folder; another format's files sit beside.
    same = victor_main("clean", "-o", "out", "p.html", cwd=tmp_path)
    assert same.stderr.splitlines()[0] == "0 cleaned, 1 already done, 0 failed"
    markdown = victor_main("clean", "--format", "markdown", "-o", "out", "p.html",
                           cwd=tmp_path)
    assert markdown.returncode == 0, markdown.stderr
    assert sorted(contents(tmp_path / "out")) == ["p.md", "p.txt"]

    replaced = victor_main("clean", "--config", "cleaneval", "--favor", "precision",
                           "--overwrite", "-o", "out", "p.html", cwd=tmp_path)
    assert replaced.returncode == 0, replaced.stderr
    assert contents(tmp_path / "out")["p.txt"] == extract(
        (tmp_path / "p.html").read_bytes(), "cleaneval", "text", favor="precision",
        source="p.html")
    assert contents(tmp_path / "out")["p.txt"] != made["p.txt"]
    recorded = json.loads((tmp_path / "out" / MANIFEST).read_text(encoding="utf-8"))
    assert (recorded["config"], recorded["favor"]) == ("cleaneval", "precision")


def test_standard_input_into_a_folder_is_held_to_the_same_settings(tmp_path):
    page = (CLEANEVAL / "9.html").read_bytes()
    first = victor_command("clean", "--format", "markdown", "-o", "out", "-", cwd=tmp_path,
                           stdin=page)
    assert first.returncode == 0, first.stderr
    assert list(contents(tmp_path / "out")) == ["stdin.md"]
    other = victor_command("clean", "--format", "markdown", "--no-links", "-o", "out", "-",
                           cwd=tmp_path, stdin=page)
    assert other.returncode == 2
    assert other.stderr.startswith("error: out: its outputs were made with other settings "
                                   "(--no-links)")


def test_a_rerun_removes_the_temporary_files_a_killed_run_left_and_nothing_else(tmp_path):
    """A 9.5 MB `.drag.jsonl.<hex>.tmp` outlived a successful rerun. Only
    Victor's own pattern, beside an output the rerun makes, is removed."""
    for name in ("1.html", "2.html"):
        shutil.copy(CLEANEVAL / name, tmp_path / name)
    out = tmp_path / "out"
    left = AtomicFile(str(out / "2.txt"))  # as a run killed while writing 2.txt leaves it
    left.write("URL: half an outp")
    left._file.flush()
    (leftover,) = [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
    users = [".2.txt.tmp", ".notes.0123456789abcdef0123456789abcdef.tmp", "2.txt.tmp"]
    for name in users:
        (out / name).write_text("a user's file\n")
    again = victor_main("clean", "-o", "out", "1.html", "2.html", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines()[:2] == [
        "2 cleaned, 0 already done, 0 failed",
        "removed 1 temporary file that a killed run left"]
    assert sorted(p.name for p in out.iterdir()) == sorted([MANIFEST, "1.txt", "2.txt", *users])
    assert leftover not in {p.name for p in out.iterdir()}
