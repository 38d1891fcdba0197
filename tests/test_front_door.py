"""The front door: the command and its subcommands, the package data an
install carries, web addresses refused, and tests and README that keep to
the clone. The API and outputs are in test_front_door_outputs.py, safe
defaults and one-line errors in test_front_door_safety.py."""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from front_door_support import victor_command, victor_main
from repo_data import ROOT

import victor
from victor.cleaner import Cleaner, extract
from victor.config import CONFIG_DIR, DEFAULT_CONFIG, MODEL_DIR, TEMPLATE_DIR, load_config
from victor.errors import VictorError, import_extra


# --- the command -----------------------------------------------------------

def test_version_is_the_package_version(tmp_path):
    proc = victor_command("--version", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.startswith(f"victor {victor.__version__}, ")
    assert importlib.metadata.version("victor-cleaner") == victor.__version__


def test_the_console_command_is_declared_with_its_subcommands(tmp_path):
    (entry,) = [e for e in importlib.metadata.entry_points(group="console_scripts")
                if e.name == "victor"]
    assert entry.value == "victor.cli:main"
    proc = victor_command("--help", cwd=tmp_path)
    assert all(name in proc.stdout for name in ("clean", "learn", "annotate"))


def test_clean_from_another_folder_prints_the_pages_text(cleaneval, tmp_path):
    page = cleaneval / "1.html"
    proc = victor_command("clean", "--format", "text", page, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == Cleaner().clean(page.read_bytes()).text()
    # The default (general) config keeps the gold's headings
    # (data/cleaneval/1.txt). (Its second pass drops the page's opening
    # paragraph, which the gold keeps and the first pass kept.)
    assert "72% of homeowners are dissatisfied" in proc.stdout
    assert "The Major Reason: Poor Communication" in proc.stdout


def test_the_scripts_are_the_command(cleaneval, tmp_path):
    page = cleaneval / "1.html"
    script = subprocess.run([sys.executable, str(ROOT / "clean.py"), page], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert script.returncode == 0
    # clean.py, the original tool's script, writes CleanEval's format unless told.
    assert script.stdout == victor_command("clean", "--format", "cleaneval", page,
                                           cwd=tmp_path).stdout


def test_the_command_in_a_process_of_its_own_is_its_function_called_in_this_one(cleaneval,
                                                                                 tmp_path):
    """The tests that call victor_main (tests/front_door_support.py) in their
    own process see what the command gives a user: the same exit status
    and standard streams for a page cleaned, a page that fails and a usage
    error, from `python -m victor` and from a script."""
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    statuses = []
    for args in (("clean", "--format", "text", cleaneval / "1.html"), ("clean", empty),
                 ("clean", "--threshold", "2", empty), ("clean", "--format", "nope", empty)):
        process, function = victor_command(*args, cwd=tmp_path), victor_main(*args, cwd=tmp_path)
        assert (function.returncode, function.stdout, function.stderr) == (
            process.returncode, process.stdout, process.stderr)
        statuses.append(process.returncode)
    assert statuses == [0, 1, 2, 2]  # cleaned, failed, refused, argparse's usage error
    script = subprocess.run([sys.executable, str(ROOT / "clean.py"), "--threshold", "2", empty],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    function = victor_main("--threshold", "2", empty, cwd=tmp_path, command="clean")
    assert script.returncode == 2
    assert (function.returncode, function.stdout, function.stderr) == (
        script.returncode, script.stdout, script.stderr)


# --- package data ------------------------------------------------------------

def test_configs_templates_and_models_are_package_data():
    package = Path(str(importlib.resources.files("victor")))
    assert CONFIG_DIR == package / "configs"
    config = load_config(DEFAULT_CONFIG)
    assert config.template.parent == TEMPLATE_DIR == package / "templates"
    assert config.model.parent == MODEL_DIR == package / "models"
    # Every shipped file, in the model folders too, is matched by
    # pyproject.toml's package-data (globbed as setuptools globs them), so
    # that `pip install .` (not only an editable install) carries it.
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "tool"]["setuptools"]["package-data"]["victor"]
    packaged = {path for p in patterns for path in package.glob(p)}
    for folder in (CONFIG_DIR, TEMPLATE_DIR, MODEL_DIR):
        for file in folder.rglob("*"):
            if file.is_file() and "__pycache__" not in file.parts:
                assert file in packaged, file.relative_to(package)
    assert {"general", "cleaneval", "article"} <= {p.parent.name for p in packaged
                                                  if p.name == "model.json"}
    assert (package / "py.typed").is_file()


def test_every_package_of_victor_is_installed_not_only_the_ones_listed_by_hand():
    import setuptools

    find = tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "tool"]["setuptools"]["packages"]["find"]
    installed = set(setuptools.find_packages(str(ROOT), include=find["include"]))
    on_disk = {".".join(init.parent.relative_to(ROOT).parts)
               for init in (ROOT / "victor").rglob("__init__.py")}
    assert "victor.crf" in on_disk and on_disk <= installed


def test_the_code_and_the_shipped_pages_name_their_licences():
    """Issue 46: no LICENSE, no licence in pyproject.toml, nothing on the
    data's terms; a corpus builder could not adopt Victor."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    # The built package says so too (CI installs it from this checkout).
    assert importlib.metadata.metadata("victor-cleaner")["License-Expression"] == "MIT"
    terms = (ROOT / "data/README.md").read_text(encoding="utf-8")
    for folder, licence in (("wcxb", "CC-BY-4.0"), ("cleaneval", "No explicit licence"),
                            ("dragnet", "No explicit licence")):
        (row,) = [line for line in terms.splitlines() if line.startswith(f"| `{folder}/`")]
        assert licence in row
        assert (ROOT / "data" / folder).is_dir()
    assert "Foley (2026)" in terms


def test_an_unknown_config_names_the_shipped_ones():
    with pytest.raises(VictorError, match=r"known configs: .*cleaneval"):
        load_config("no-such-config")


def test_a_missing_extra_is_named_in_one_line():
    # KenLM's case, where the pure-Python engine stands in unless KenLM is
    # named: tests/test_perplexity.py.
    """Issue 46: a pip-installed user was told to run pip "in Victor's
    clone", which they do not have. pip resolves the extra against the
    installed Victor (checked with `pip install --dry-run` on a Victor
    installed without extras: it would install FastWARC)."""
    with pytest.raises(VictorError) as missing:
        import_extra("no_such_module_for_victor", "warc", "reading WARC files")
    assert str(missing.value) == (
        "reading WARC files needs no_such_module_for_victor, which is not installed: "
        "pip install 'victor-cleaner[warc]' (Victor's 'warc' extra)")


def test_a_checkout_used_without_installing_is_told_the_folders_form(monkeypatch):
    import importlib.metadata as metadata

    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", not_installed)
    with pytest.raises(VictorError, match=r": pip install '\.\[dask\]' in Victor's source "
                                          r"folder$"):
        import_extra("no_such_module_for_victor", "dask", "--dask")


# --- URL inputs ---------------------------------------------------------------------

def test_web_addresses_are_refused_and_the_batch_goes_on(cleaneval, tmp_path):
    url = "https://example.com/page.html"
    proc = victor_main("clean", "--format", "text", url, cleaneval / "1.html", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.startswith(f"==> {cleaneval / '1.html'} <==\n")
    assert "72% of homeowners" in proc.stdout
    assert proc.stderr.splitlines()[-1] == (
        f"failed: {url}: Victor does not download pages; save the page first "
        "(curl -o page.html URL) and clean the file")


# --- the tests and the README -------------------------------------------------------

def test_tests_read_no_files_beside_the_clone():
    outside = re.compile(r"""parents\[2\]|\.\./shared|ROOT\.parent|["']/work/""")
    for file in sorted((ROOT / "tests").rglob("*.py")):
        hits = [line for line in file.read_text(encoding="utf-8").splitlines()
                if outside.search(line)]
        if file.name == "test_front_door.py":
            hits = hits[1:]  # the pattern above
        assert not hits, f"{file}: {hits}"


def test_the_extras_are_named_as_a_clone_installs_them():
    """Issue 29: no package is published as victor-cleaner, so the README's
    `pip install 'victor-cleaner[warc]'` found no such distribution."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for extra in ("warc", "dask", "kenlm", "all"):
        assert f"pip install '.[{extra}]'" in readme
    # The installed form (issue 46) only where Victor is installed already.
    assert readme.count("pip install 'victor-cleaner[") == readme.count(
        "with Victor installed, `pip install 'victor-cleaner[")


def test_readme_starts_with_the_two_commands_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [c for c in re.findall(r"^    (python3 .+)$", readme, re.M)
                if " -m venv " not in c][:2]
    assert commands[0].startswith("python3 -m pip install -e '.[test]' && ")
    assert commands[1] == "python3 -m pytest -q"
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8").splitlines()
    assert commands[0].split(" && ")[0].replace(" -e", " -q -e") in ci
    assert commands[1] in ci


def test_the_readme_opens_with_a_users_install_and_first_clean_that_work(cleaneval, tmp_path):
    """Issue 46: the first command installed pytest, hypothesis, Dask and
    FastWARC; a user wants `pip install .` and a first clean, and to know
    which Python. (`pip install .` itself was run in a fresh venv by hand:
    docs/scale.md's first section; CI installs the test extra.)"""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    user = lines.index("    pip install .")
    assert user < lines.index(next(line for line in lines if line.startswith("    python3 ")
                                   and " -m venv " not in line))
    # Issue 64: in a virtual environment, which the line before makes.
    assert lines[user - 1] == "    python3 -m venv .venv && . .venv/bin/activate"
    first = lines[user + 1].split()
    assert first[:2] == ["victor", "clean"]
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert f"Python {requires.removeprefix('>=')} or later" in readme
    # The first clean, as written, from the clone's folder.
    proc = victor_command(*first[1:], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == extract((cleaneval / "1.html").read_bytes()) and proc.stdout.strip()


def test_the_guides_use_the_installed_command_and_state_what_it_does():
    """docs/scale.md and docs/robustness.md said `python clean.py`, which a
    pip-installed user does not have; scale.md said redirected standard
    error shows only the summary (failures show as they happen)."""
    for doc in ("scale.md", "robustness.md"):
        text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
        assert not re.search(r"python3? clean\.py|^    clean\.py|`clean\.py -", text, re.M), doc
    scale = (ROOT / "docs/scale.md").read_text(encoding="utf-8")
    assert "Redirected, it shows\nnothing but the summary" not in scale
    assert "each failed page's line as it happens" in scale


def test_the_readme_states_each_default_format_as_they_are(cleaneval, tmp_path):
    page = cleaneval / "1.html"
    default = victor_main("clean", page, cwd=tmp_path).stdout
    # Issue 64: text is the one default of `victor clean` and extract().
    assert default == victor_main("clean", "--format", "text", page, cwd=tmp_path).stdout
    assert extract(page.read_bytes()) == default
    assert isinstance(json.loads(extract(page.read_bytes(), output="jsonl")), dict)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`text` (the default of `victor clean` and `extract()`" in readme
    assert "# a JSON string" in readme
