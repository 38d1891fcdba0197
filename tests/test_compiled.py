"""The compiled core (victor/compiled/) is the pure-Python path made fast:
each twin gives what its pure function gives, and a page cleaned through
either path has the same features, labels, probabilities and outputs.
The sample here keeps the suite short; `python3 tests/compiled_support.py
--all` runs every page of data/ with every shipped config."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from compiled_support import first_difference, fingerprints_in_process
from front_door_support import victor_command
from repo_data import CLEANEVAL, DRAGNET, ROOT, WCXB

from victor import compiled
from victor.batch.inputs import read_input
from victor.config import load_config, shipped_configs
from victor.crf import tagger, weight_table
from victor.features import context
from victor.features.families import semantic
from victor.reading import blocks, depth, parser
from victor.reading.encoding import decode
from victor.reading.page import read_page

RUNS_COMPILED = not compiled.disabled() and compiled.path().startswith("compiled")
needs_compiled = pytest.mark.skipif(not RUNS_COMPILED, reason=compiled.path())

# Every 97th page of each collection: pages of every size, language and age.
SAMPLE = [p for folder in (CLEANEVAL, DRAGNET, WCXB)
          for p in sorted(folder.glob("*.html*"))[::97]]
# And a page the article config reads as one block, whose one row of scores
# numpy adds up in another order than a page's rows.
SAMPLE.append(WCXB / "4147.html.gz")


def test_the_twins_are_the_compiled_modules_beside_the_package():
    assert sorted(compiled.MODULES) == sorted(
        p.stem for p in (ROOT / "victor" / "compiled").glob("_*.pyx"))


def test_version_names_the_path_that_runs(tmp_path):
    proc = victor_command("--version", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.strip().endswith(compiled.path())


def test_the_environment_variable_selects_the_pure_path(tmp_path):
    env = {**os.environ, "VICTOR_NO_EXTENSIONS": "1"}
    proc = subprocess.run([sys.executable, "-m", "victor", "--version"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert "pure Python (VICTOR_NO_EXTENSIONS is set)" in proc.stdout
    script = ("from victor.reading import blocks; "
              "print(blocks.split_blocks is blocks.split_blocks_py)")
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.stdout.strip() == "True"


@needs_compiled
def test_twins_replace_their_pure_functions():
    assert blocks.split_blocks is not blocks.split_blocks_py
    assert context.paths is not context.paths_py
    assert parser._from_lexbor is not parser._from_lexbor_py
    assert tagger.summed is not tagger.summed_py
    assert depth.cuts is not depth.cuts_py
    assert weight_table.bag_rows is not weight_table.bag_rows_py


def _key(block):
    return (block.id, block.text, tuple(map(id, block.containers)), block.splits,
            block.div_group, block.td_group, block.start, block.stop, block.box, block.linked)


@needs_compiled
@pytest.mark.parametrize("page", SAMPLE, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_twin_gives_what_its_pure_function_gives(page):
    data = read_input(str(page))
    text = decode(data, None)[0]
    for limit in (None, 4):  # a limit the page passes, and one it does not
        tree, reference = parser._from_lexbor(text, limit), parser._from_lexbor_py(text, limit)
        assert (tree is None) == (reference is None)
        if tree is not None:
            assert parser.flatten([tree])[0] == parser.flatten([reference])[0]
        if limit is not None:
            assert depth.cuts(text, limit) == depth.cuts_py(text, limit)
    body = read_page(data, load_config("article")).body
    made, reference = blocks.split_blocks(body), blocks.split_blocks_py(body)
    assert [_key(b) for b in made[0]] == [_key(b) for b in reference[0]]
    assert made[1] == reference[1]
    for class_words in (False, True):
        for own_bits in (None, semantic.element_bits):
            assert (context.paths(made[0], class_words, own_bits)
                    == context.paths_py(made[0], class_words, own_bits))


@needs_compiled
@pytest.mark.skipif(sys.platform == "win32", reason="lexbor's functions are not exported there")
def test_the_parser_twin_reads_lexbor_itself():
    from victor.compiled import _parser

    assert _parser.READS_LEXBOR


@needs_compiled
@pytest.mark.parametrize("html", [
    "<html lang><body><p class=x>Hi <b>there</b><!-- note --></p><td nowrap>cell</body>",
    "<!DOCTYPE html><svg viewBox='0 0 1 1'><foreignObject><p>x</p></foreignObject></svg>"
    "<math><mi>y</mi></math><use href='/a' xlink:href='/b'></use>",
    "<template><p>t</p></template><x-Card Data-ID=7>custom</x-Card>\udc80\xe9 <a href='\xff'>",
    "", "plain text", "<div>" * 40,
])
def test_the_parser_twin_builds_the_same_tree_from_odd_markup(html):
    for depth in (None, 3):
        tree, reference = parser._from_lexbor(html, depth), parser._from_lexbor_py(html, depth)
        assert (tree is None) == (reference is None)
        if tree is not None:
            assert parser.flatten([tree])[0] == parser.flatten([reference])[0]


@needs_compiled
@pytest.mark.parametrize("html", [
    "<div><DIV><Section>x</div></div></section><p><li><br><blockquote>deep</BLOCKQUOTE>",
    "<!-- <div><div> --><div><!--><div><!---><div></div></div></div><!-- open",
    "<div><script type=x><div></div><div></SCRIPT ><div><style>a>b{}</style></div>",
    "<div><textarea><div></textareas></textarea><scripts><div></scripts>",
    "<div><\u017fcript><div></div><scr\u0131pt><div><d\u0131v><div></div></div>",
    "<div>< div><1div><!x><?x><div/><svg><path/><div a='>'>x</div></div>",
    "<div><div><div><div", "<div>\u3000<div\u3000class=x><div\x00><div/ >",
])
def test_the_depth_twin_finds_the_tags_the_regex_finds(html):
    for limit in (1, 2, 3):
        assert depth.cuts(html, limit) == depth.cuts_py(html, limit)


def test_split_blocks_twin_splits_on_every_tag_alike():
    html = ("<html><body><div><p>One <b>two</b><br>three</p>"
            "<p>x<span class='math'>y</span>z</p><td>cell</td></div><a>link</a></body></html>")
    body = read_page(html, load_config("general")).body
    made, reference = blocks.split_blocks(body), blocks.split_blocks_py(body)
    assert [_key(b) for b in made[0]] == [_key(b) for b in reference[0]]
    assert [b.text for b in made[0]] == ["One", "two", "three", "x", "y", "z", "cell", "link"]


@pytest.fixture(scope="module")
def both_paths() -> tuple[dict[str, list[dict]], dict[str, list[dict]]]:
    """Every shipped config's fingerprints of the sample through the
    compiled path and through the pure one, each path in one fresh process."""
    configs = shipped_configs()
    return (fingerprints_in_process(configs, SAMPLE, pure=False),
            fingerprints_in_process(configs, SAMPLE, pure=True))


@needs_compiled
@pytest.mark.parametrize("config", shipped_configs())
def test_both_paths_clean_the_sample_alike(config, both_paths):
    made, reference = both_paths
    assert first_difference(SAMPLE, made[config], reference[config]) is None
