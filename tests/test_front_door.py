"""What a new user meets first (issue #16): the `victor` command, the
`extract()` API, safe defaults, the Markdown and JSON-lines outputs, the
package data, and tests and README that work in a bare clone."""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import inspect
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from repo_data import ROOT

import victor
from victor import output
from victor.reading.text import words
from victor.cleaner import Cleaner, extract
from victor.config import CONFIG_DIR, DEFAULT_CONFIG, MODEL_DIR, TEMPLATE_DIR, load_config
from victor.reading.encoding import decode
from victor.errors import EMPTY_PAGE, NO_TEXT, VictorError, import_extra
from victor.reading.page import read_page

HOSTILE = ROOT / "tests" / "hostile"


def victor_command(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "victor", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


# --- the command -----------------------------------------------------------

def test_version_is_the_package_version(tmp_path):
    proc = victor_command("--version", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"victor {victor.__version__}"
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
    # The default (general) model keeps the gold's opening paragraph and
    # its first heading (data/cleaneval/1.txt).
    assert "If you feel it's time to start taking action" in proc.stdout
    assert "72% of homeowners are dissatisfied" in proc.stdout


def test_the_scripts_are_the_command(cleaneval, tmp_path):
    page = cleaneval / "1.html"
    script = subprocess.run([sys.executable, str(ROOT / "clean.py"), page], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert script.returncode == 0
    assert script.stdout == victor_command("clean", page, cwd=tmp_path).stdout


# --- package data ------------------------------------------------------------

def test_configs_templates_and_models_are_package_data():
    package = Path(str(importlib.resources.files("victor")))
    assert CONFIG_DIR == package / "configs"
    config = load_config(DEFAULT_CONFIG)
    assert config.template.parent == TEMPLATE_DIR == package / "templates"
    assert config.model.parent == MODEL_DIR == package / "models"
    # Every shipped file is matched by pyproject.toml's package-data, so
    # that `pip install .` (not only an editable install) carries it.
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "tool"]["setuptools"]["package-data"]["victor"]
    for folder in (CONFIG_DIR, TEMPLATE_DIR, MODEL_DIR):
        for file in folder.iterdir():
            relative = file.relative_to(package)
            assert any(relative.match(p) for p in patterns), relative
    assert (package / "py.typed").is_file()


def test_every_package_of_victor_is_installed_not_only_the_ones_listed_by_hand():
    import setuptools

    find = tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "tool"]["setuptools"]["packages"]["find"]
    installed = set(setuptools.find_packages(str(ROOT), include=find["include"]))
    on_disk = {".".join(init.parent.relative_to(ROOT).parts)
               for init in (ROOT / "victor").rglob("__init__.py")}
    assert "victor.crf" in on_disk and on_disk <= installed


def test_an_unknown_config_names_the_shipped_ones():
    with pytest.raises(VictorError, match=r"known configs: .*cleaneval"):
        load_config("no-such-config")


def test_a_missing_extra_is_named_in_one_line():
    # KenLM's case, where the pure-Python engine stands in unless KenLM is
    # named: tests/test_perplexity.py.
    with pytest.raises(VictorError, match=r"pip install '\.\[warc\]' in Victor's clone"):
        import_extra("no_such_module_for_victor", "warc", "reading WARC files")


# --- the API ---------------------------------------------------------------------

def test_extract_takes_text_or_bytes_and_returns_the_same_text(cleaneval):
    for name in ("1.html", "21.html"):  # 21: ISO-8859-1, declared by its <text> wrapper
        data = (cleaneval / name).read_bytes()
        text, _ = decode(data)
        assert extract(text) == extract(data) == Cleaner().clean(data).text()
        assert isinstance(extract(text), str)
    assert extract(text, output="cleaneval") == Cleaner().clean(data).cleaneval()


def test_extract_is_importable_from_the_package_and_typed():
    assert victor.extract is extract
    hints = inspect.get_annotations(extract, eval_str=True)
    assert hints["html"] == bytes | str and hints["return"] is str
    assert extract.__doc__ and Cleaner.__doc__ and Cleaner.clean.__doc__


def test_extract_refuses_an_unknown_format():
    with pytest.raises(VictorError, match="unknown output format 'pdf'"):
        extract("<p>Some text.</p>", output="pdf")


# --- safe defaults -------------------------------------------------------------------

def learn(*args, cwd: Path) -> subprocess.CompletedProcess:
    return victor_command("learn", "--max-iterations", "1", *args, cwd=cwd)


def test_the_formats_are_one_list(cleaneval, tmp_path):
    """output.FORMATS is the one list of formats: Result renders each of
    them by its name, and `--format` offers exactly them."""
    result = Cleaner().clean((cleaneval / "1.html").read_bytes())
    for fmt in output.FORMATS:
        assert result.render(fmt) == getattr(result, fmt)()
    usage = victor_command("clean", "--help", cwd=tmp_path).stdout
    assert "--format {" + ",".join(output.FORMATS) + "}" in usage


def test_learn_does_not_write_over_the_shipped_model_unless_told(cleaneval, tmp_path):
    shipped = load_config("cleaneval").model
    before = shipped.read_bytes()
    proc = learn("--config", "cleaneval", cleaneval / "1.anno", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == (f"error: {shipped}: a model shipped with Victor; write yours "
                           "elsewhere with -o FILE, or give --replace-shipped-model to "
                           "replace it\n")
    assert shipped.read_bytes() == before


def test_learn_keeps_an_existing_model_without_overwrite(cleaneval, tmp_path):
    model = tmp_path / "mine.crfsuite"
    assert learn("-o", model, cleaneval / "1.anno", cwd=tmp_path).returncode == 0
    before = model.read_bytes()
    proc = learn("-o", model, cleaneval / "10.anno", cwd=tmp_path)
    assert proc.returncode == 2 and "exists; give --overwrite" in proc.stderr
    assert model.read_bytes() == before
    assert learn("-o", model, "--overwrite", cleaneval / "10.anno", cwd=tmp_path).returncode == 0


def test_learn_makes_no_folders(cleaneval, tmp_path):
    proc = learn("-o", tmp_path / "no" / "such" / "m.crfsuite", cleaneval / "1.anno",
                 cwd=tmp_path)
    assert proc.returncode == 2 and "make it first" in proc.stderr
    assert not (tmp_path / "no").exists()


def test_no_output_replaces_an_input(cleaneval, tmp_path):
    page = tmp_path / "1.html"
    page.write_bytes((cleaneval / "1.html").read_bytes())
    proc = victor_command("clean", "--format", "html", "--overwrite", "-o", tmp_path, page,
                          cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == (f"error: {page}: its output {page} would replace the input "
                           f"{page}; choose another folder with -o\n")
    assert page.read_bytes() == (cleaneval / "1.html").read_bytes()


@pytest.mark.parametrize("threshold", ["2", "-0.1", "nan"])
def test_threshold_must_be_a_probability(cleaneval, tmp_path, threshold):
    proc = victor_command("clean", "--threshold", threshold, cleaneval / "1.html", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"error: threshold {float(threshold):g}: must lie between 0 and 1 "
                           "(a probability that a block is content)\n")


# --- outputs ----------------------------------------------------------------------

def test_markdown_has_headings_list_items_and_joined_paragraphs(cleaneval):
    """Markdown and the CleanEval format are read off the same kept tree:
    the same words in the same order, and a heading in one is a heading
    in the other."""
    result = Cleaner("cleaneval").clean((cleaneval / "1.html").read_bytes())
    markdown = result.markdown()
    segments = [(line[1], line[3:]) for line in result.cleaneval().splitlines()[1:]]
    unlinked = re.sub(r"(?m)^\s*\d+\. ", "", re.sub(r"\]\([^)]*\)", "]", markdown))
    unlinked = unlinked.replace("*", "")  # "**A**dvertise" is one word
    assert words(unlinked) == words(" ".join(text for _, text in segments))
    headings = [words(line) for line in unlinked.splitlines() if line.startswith("#")]
    assert headings == [words(text) for kind, text in segments if kind == "h"]
    assert "## **Your Home Will Sell**\n\n- Fast\n- For Top Dollar\n" in markdown


def test_markdown_headings_take_their_level_and_syntax_in_text_stays_text():
    page = read_page(b"<h3>Top 10 things</h3><p>1. Eat <b>well</b>, then sleep.</p>"
                     b"<p># not a heading</p><ul><li>- a dash</li><li>two</li></ul>",
                     load_config("cleaneval"))
    assert [b.text for b in page.blocks] == [
        "Top 10 things", "1. Eat", "well", ", then sleep.", "# not a heading", "- a dash", "two"]
    tree = output.kept_tree(page.body, page.blocks, ["h", "p", "c", "c", "p", "l", "l"])
    assert output.markdown(tree) == (
        "### Top 10 things\n\n1\\. Eat **well**, then sleep.\n\n\\# not a heading\n\n"
        "- \\- a dash\n- two\n")


def test_jsonl_carries_the_metadata_the_page_declares(dragnet):
    record = json.loads(extract((dragnet / "143.html").read_bytes(), output="jsonl"))
    assert record["site_name"] == "msnbc.com"
    assert record["date"] == "2012-07-24T00:26:15"
    assert record["language"] == "en"
    assert record["description"].startswith("A $2.2 million expedition")
    assert record["canonical_url"].startswith("http://www.msnbc.msn.com/id/48294366/")
    assert list(record)[:3] == ["source", "url", "title"]


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_pages_on_standard_output_are_headed_by_their_names(cleaneval, tmp_path, fmt):
    pages = [cleaneval / "1.html", cleaneval / "10.html"]
    proc = victor_command("clean", "--format", fmt, *pages, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    one, two = (Cleaner().clean(p.read_bytes()).render(fmt) for p in pages)
    assert proc.stdout == f"==> {pages[0]} <==\n{one}\n==> {pages[1]} <==\n{two}"
    # One page alone is printed as it is.
    assert victor_command("clean", "--format", fmt, pages[0], cwd=tmp_path).stdout == one


def test_jsonl_on_standard_output_is_one_object_a_line(cleaneval, tmp_path):
    proc = victor_command("clean", "--format", "jsonl", cleaneval / "1.html",
                          cleaneval / "10.html", cwd=tmp_path)
    lines = proc.stdout.splitlines()
    assert len(lines) == 2 and [json.loads(line)["source"] for line in lines] == [
        str(cleaneval / "1.html"), str(cleaneval / "10.html")]


# --- URL inputs ---------------------------------------------------------------------

def test_web_addresses_are_refused_and_the_batch_goes_on(cleaneval, tmp_path):
    url = "https://example.com/page.html"
    proc = victor_command("clean", "--format", "text", url, cleaneval / "1.html", cwd=tmp_path)
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
    assert "pip install 'victor-cleaner[" not in readme


def test_readme_starts_with_the_two_commands_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^    (python3 .+)$", readme, re.M)[:2]
    assert commands[0].startswith("python3 -m pip install -e '.[test]' && ")
    assert commands[1] == "python3 -m pytest -q"
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8").splitlines()
    assert commands[0].split(" && ")[0].replace(" -e", " -q -e") in ci
    assert ci[-1] == commands[1]


@pytest.mark.parametrize("page", [None, 1, ["<p>text</p>"]])
def test_extract_refuses_what_is_no_page_in_one_line(page):
    """Issue 29: these failed inside the code with an AttributeError."""
    with pytest.raises(TypeError, match=r"^-: a page is str or bytes, not \w+$"):
        victor.extract(page)


@pytest.mark.parametrize("name, content", [
    ("zero.html", b""),
    ("whitespace.html", (HOSTILE / "whitespace.html").read_bytes()),
    ("empty-body.html", b"<!DOCTYPE html><html><head></head><body>\n</body></html>"),
    ("scripts.html", (HOSTILE / "script-only.html").read_bytes())])
def test_a_page_without_text_is_the_same_error_in_the_command_and_the_api(tmp_path, name, content):
    page = tmp_path / name
    page.write_bytes(content)
    proc = subprocess.run([sys.executable, "-m", "victor", "clean", str(page)],
                          capture_output=True, text=True, cwd=tmp_path)
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
    proc = victor_command("clean", "--threshold", "0.99", page, cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    why = re.fullmatch(rf"failed: {re.escape(str(page))}: (threshold 0.99 kept no block "
                       r"\(the likeliest is content at 0\.\d\d\); lower it)",
                       proc.stderr.splitlines()[-1]).group(1)
    with pytest.raises(VictorError, match=re.escape(why)):
        extract(page.read_bytes(), threshold=0.99, source=str(page))
    assert extract(page.read_bytes(), threshold=0.5).strip()


def test_learn_given_a_page_or_a_half_labelled_file_says_what_to_do(tmp_path):
    page = ROOT / "data/cleaneval/1.html"
    proc = victor_command("learn", "-o", tmp_path / "m.crfsuite", page, cwd=tmp_path)
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
    proc = victor_command("learn", "-o", tmp_path / "m.crfsuite", half, cwd=tmp_path)
    assert proc.returncode == 2 and "annotate.py" not in proc.stderr
    assert proc.stderr.rstrip().endswith(f"finish them with: victor annotate {tmp_path / '1.html'} {half}")


def test_the_readme_states_each_default_format_as_they_are(cleaneval, tmp_path):
    page = cleaneval / "1.html"
    default = victor_command("clean", page, cwd=tmp_path).stdout
    assert default == victor_command("clean", "--format", "cleaneval", page, cwd=tmp_path).stdout
    assert extract(page.read_bytes()) == victor_command("clean", "--format", "text", page,
                                                        cwd=tmp_path).stdout
    assert isinstance(json.loads(extract(page.read_bytes(), output="jsonl")), dict)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(the default of `victor clean`; `extract()` gives `text` unless told)" in readme
    assert "# a JSON string" in readme
