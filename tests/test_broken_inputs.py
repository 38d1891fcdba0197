"""Broken inputs other than pages, through the scripts: a damaged or
mismatched model, a config or template with a mistake, an input that
cannot be read, an output folder that cannot be written. Each gives one
line on standard error that names the file and says what to do, and an
exit status that is not 0; a traceback only with --debug. The scripts'
function is called in the test's process (tests/test_front_door.py holds
it to be what the script's process gives), the traceback's test runs the
script.

(Tests run as root, so no file is unreadable by its permissions: a
missing file, a folder and a path through a regular file stand in.)
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from batch_support import model_for_tests
from front_door_support import victor_main
from repo_data import CLEANEVAL, ROOT

from victor.config import CONFIG_DIR
from victor.batch.manifest import MANIFEST

PAGE = CLEANEVAL / "36.html"
ANNOTATION = CLEANEVAL / "36.anno"
CONFIG = CONFIG_DIR / "cleaneval.yaml"


def run(script: str, *args) -> subprocess.CompletedProcess:
    """What the script (clean.py or learn.py) writes and returns, its
    function called in this process (front_door_support.victor_main)."""
    return victor_main(*args, cwd=ROOT, command=script.removesuffix(".py"))


def run_in_a_process(script: str, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / script), *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def one_line_error(proc: subprocess.CompletedProcess, pattern: str) -> None:
    """Exit status 2 and the error as the last and only error line."""
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, proc.stderr
    assert re.fullmatch(f"error: {pattern}", errors[0]), errors[0]


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    return Path(model_for_tests(tmp_path_factory.mktemp("model")))


def copy_model(model: Path, folder: Path) -> Path:
    target = folder / "copy"
    shutil.copytree(model, target)
    return target


def edited_config(folder: Path, old: str, new: str) -> Path:
    text = CONFIG.read_text(encoding="utf-8")
    assert old in text
    path = folder / "cleaneval.yaml"  # the same name: a model checks it
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


# --- the model ------------------------------------------------------------

def test_a_truncated_model_file(model, tmp_path):
    copy = copy_model(model, tmp_path)
    crf = copy / "crf.crfsuite"
    size = crf.stat().st_size
    crf.write_bytes(crf.read_bytes()[:1000])
    one_line_error(run("clean.py", "--model", copy, PAGE),
                   f"{crf}: 1000 bytes, not the {size} its record {copy}/model.json gives: "
                   "truncated or replaced; restore it or retrain")


def test_a_corrupt_model_file(model, tmp_path):
    copy = copy_model(model, tmp_path)
    crf = copy / "crf.crfsuite"
    data = bytearray(crf.read_bytes())
    data[len(data) // 2] ^= 0xFF
    crf.write_bytes(bytes(data))
    one_line_error(run("clean.py", "--model", copy, PAGE),
                   f"{crf}: its sha256 is not the one its record {copy}/model.json gives: "
                   "changed or replaced; restore it or retrain")


def test_a_model_without_its_record(model, tmp_path):
    copy = copy_model(model, tmp_path)
    (copy / "model.json").unlink()
    one_line_error(run("clean.py", "--model", copy, PAGE),
                   f"{copy}/model.json: not found: {copy} is no Victor model folder")


def test_a_model_whose_record_decodes_otherwise_than_the_config(model, tmp_path):
    """The record is what cleaning follows: a config that says otherwise
    is refused, and the model alone cleans."""
    copy = copy_model(model, tmp_path)
    record = json.loads((copy / "model.json").read_text(encoding="utf-8"))
    record["recipe"]["decoding"]["keep-above"] = 0.5
    (copy / "model.json").write_text(json.dumps(record), encoding="utf-8")
    one_line_error(run("clean.py", "--config", "cleaneval", "--model", copy, PAGE),
                   f"{CONFIG}: key 'keep-above' is 0.3 here but 0.5 in the model {copy}; "
                   "cleaning follows the model's record: .*")
    alone = run("clean.py", "--model", copy, PAGE)
    assert alone.returncode == 0 and alone.stdout.strip(), alone.stderr


def test_a_folder_given_as_the_model(tmp_path):
    one_line_error(run("clean.py", "--model", tmp_path, PAGE),
                   f"{tmp_path}/model.json: not found: {tmp_path} is no Victor model folder")


def test_a_crf_file_given_as_the_model(model):
    one_line_error(run("clean.py", "--model", model / "crf.crfsuite", PAGE),
                   f"{model}/crf.crfsuite: a file, not a model folder .*")


def test_debug_shows_the_traceback(model, tmp_path):
    copy = copy_model(model, tmp_path)
    (copy / "crf.crfsuite").write_bytes(b"")
    proc = run_in_a_process("clean.py", "--debug", "--model", copy, PAGE)
    assert proc.returncode == 2
    assert "Traceback" in proc.stderr and proc.stderr.rstrip().splitlines()[-1].startswith(
        f"error: {copy}/crf.crfsuite: 0 bytes, not the")


# --- the config and the template ------------------------------------------

def test_a_config_with_an_unknown_key(model, tmp_path):
    config = edited_config(tmp_path, "parser: lexbor", "parser: lexbor\nparsr: lxml")
    one_line_error(run("clean.py", "--config", config, "--model", model, PAGE),
                   f"{config}: key 'parsr': unknown key; known keys: base, parser, .*")


@pytest.mark.parametrize("old, new, key, why", [
    ("parser: lexbor", "parser: 3", "parser", "must be a name, not int"),
    ("  split.p: [0, 1, 2, 3]", "  split.p: [0, one, 2]", "values.split.p",
     "must be a non-empty ascending list of numbers"),
    ("  words-before: 10", "  words-before: ten", "scales.words-before",
     "must be a whole number of steps, at least 1"),
    ("keep-above: 0.3", "keep-above: 1.5", "keep-above",
     "must be a probability between 0 and 1, or null"),
    ("keep-above: 0.3", "keep-above: yes", "keep-above",
     "must be a probability between 0 and 1, or null, not bool"),
    ("keep-above: 0.3", "keep-above: 0.3\nfallback-share: 2", "fallback-share",
     "must be a share between 0 and 1"),
    ("keep-above: 0.3", "keep-above: 0.3\nfallback-share: null", "fallback-share",
     "must be a share between 0 and 1, not NoneType"),
    ("keep-above: 0.3", "keep-above: 0.3\nlist-bar: 1.2", "list-bar",
     "must be a probability between 0 and 1, or null"),
    ("keep-above: 0.3", "keep-above: 0.3\nrepeat-words: 0", "repeat-words",
     "must be a number of words, at least 1, or null"),
])
def test_a_config_with_a_wrong_typed_value(model, tmp_path, old, new, key, why):
    config = edited_config(tmp_path, old, new)
    one_line_error(run("clean.py", "--config", config, "--model", model, PAGE),
                   f"{config}: key '{re.escape(key)}': {why}")


def test_a_config_that_is_not_yaml(model, tmp_path):
    config = edited_config(tmp_path, "parser: lexbor", "parser: [lexbor")
    one_line_error(run("clean.py", "--config", config, "--model", model, PAGE),
                   f"{config}: line \\d+ not valid YAML: .*")


def test_a_missing_config(model, tmp_path):
    one_line_error(run("clean.py", "--config", tmp_path / "nope.yaml", "--model", model, PAGE),
                   f"{tmp_path}/nope.yaml: cannot read config \\(No such file or directory\\); "
                   "known configs: .*")


def test_a_malformed_template(tmp_path):
    template = tmp_path / "broken.tpl"
    template.write_text("container.*[0]\nchar.alpha-abs[0..-2]\n", encoding="utf-8")
    config = edited_config(tmp_path, "template: cleaneval", f"template: {template}")
    one_line_error(run("learn.py", "--config", config, "-o", tmp_path / "m", ANNOTATION),
                   f"{template} line 2: offset range '0..-2' runs backwards")


# --- inputs and outputs ---------------------------------------------------

def test_a_missing_input_is_reported_and_the_rest_cleaned(model, tmp_path):
    missing = tmp_path / "gone.html"
    proc = run("clean.py", "--model", model, "-o", tmp_path / "out", missing, PAGE)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    # As it happened, then in the summary's list.
    assert proc.stderr.splitlines() == [f"failed: {missing}: no such file",
                                        "1 cleaned, 0 already done, 1 failed",
                                        f"failed: {missing}: no such file"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [MANIFEST, "36.txt"]


def test_an_input_under_a_regular_file_cannot_be_read(model, tmp_path):
    bad = PAGE / "page.html"
    proc = run("clean.py", "--model", model, bad)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert f"failed: {bad}: cannot read (Not a directory)" in proc.stderr.splitlines()


def test_a_folder_without_pages(model, tmp_path):
    one_line_error(run("clean.py", "--model", model, tmp_path),
                   f"no pages or WARC files found in {tmp_path} \\(a folder is walked for "
                   r"\.html .*\); name other files one by one")


def test_an_output_folder_under_a_regular_file(model, tmp_path):
    out = PAGE / "out"
    one_line_error(run("clean.py", "--model", model, "-o", out, PAGE, PAGE.with_name("31.html")),
                   f"{out}: cannot write output there \\(Not a directory\\); "
                   "choose another folder with -o")


def test_a_missing_annotation_file(tmp_path):
    missing = tmp_path / "gone.anno"
    one_line_error(run("learn.py", "-o", tmp_path / "m.crfsuite", missing),
                   f"{missing}: no such annotation file")


def test_a_model_that_cannot_be_written(tmp_path):
    out = PAGE / "m.crfsuite"
    one_line_error(run("learn.py", "--max-iterations", "1", "-o", out, ANNOTATION),
                   f"{out}: cannot write model \\({PAGE} is a file, not a folder\\)")
