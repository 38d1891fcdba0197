"""The compiled core (victor/compiled/) is the pure-Python path made fast:
each twin gives what its pure function gives, and a page cleaned through
either path has the same features, labels, probabilities and outputs.
The sample here keeps the suite short; `python3 tests/compiled_support.py
--all` runs every page of data/ with every shipped config."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

from compiled_support import first_difference, fingerprints_in_process
from front_door_support import victor_command
from repo_data import CLEANEVAL, DRAGNET, ROOT, WCXB

from victor import boosters, compiled, features, second_pass
from victor.batch.inputs import read_input
from victor.cleaner import Cleaner
from victor.config import load_config, shipped_configs
from victor.crf import chain, tagger, weight_table
from victor.features import context
from victor.features.families import candidate, semantic
from victor.features.selection import select_features
from victor.labels import LABELS
from victor.output import render
from victor.output import tree as kept
from victor.output.tree import Rendering
from victor.reading import blocks, depth, parser, preclean, swallowed, unseen
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
    assert blocks.by_containers is not blocks.by_containers_py
    assert context.paths is not context.paths_py
    assert context.class_pieces is not context.class_pieces_py
    assert parser._from_lexbor is not parser._from_lexbor_py
    assert tagger.summed is not tagger.summed_py
    assert tagger.static_rows is not tagger.static_rows_py
    assert tagger.combined_rows is not tagger.combined_rows_py
    assert depth.cuts is not depth.cuts_py
    assert weight_table.bag_rows is not weight_table.bag_rows_py
    assert boosters.predict is not boosters.predict_py
    assert kept.kept_tree is not kept.kept_tree_py
    assert render.clean_html is not render.clean_html_py
    assert unseen._rules is not unseen._rules_py
    assert preclean._walk is not preclean._walk_py
    assert candidate.compute is not candidate.compute_py
    assert swallowed._maybe_swallowing is not swallowed._maybe_swallowing_py
    assert chain.viterbi is not chain.viterbi_py


def _chain(above: tuple[str, ...], el) -> tuple[str, ...]:
    """An answer by_containers carries down: the tags of the chain so far."""
    return (*above, el.tag)


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
    assert swallowed._maybe_swallowing(text) == swallowed._maybe_swallowing_py(text)
    # The walk changes the tree in place: each path its own parse.
    walked = []
    for walk in (preclean._walk, preclean._walk_py):
        root = parser.parse(text).root
        declared, styles = [], []
        found = walk(root, load_config("general").tag_delete, declared, styles)
        flat, index = parser.flatten([root, *declared])  # metadata elements are deleted
        walked.append((flat, [index[id(e)] for e in declared], styles, found))
    assert walked[0] == walked[1]
    body = read_page(data, load_config("article")).body
    made, reference = blocks.split_blocks(body), blocks.split_blocks_py(body)
    assert [_key(b) for b in made[0]] == [_key(b) for b in reference[0]]
    assert made[1] == reference[1]
    assert (blocks.by_containers(made[0], _chain, ())
            == blocks.by_containers_py(made[0], _chain, ()))
    for class_words in (False, True):
        for own_bits in (None, semantic.element_bits):
            assert (context.paths(made[0], class_words, own_bits)
                    == context.paths_py(made[0], class_words, own_bits))
    page = read_page(data, load_config("general"))
    if page.blocks:
        config = load_config("general")
        ctx = context.Context(page, config, tuple(select_features(config)), None)
        made_scores, reference_scores = candidate.compute(ctx), candidate.compute_py(ctx)
        assert made_scores["candidate.in-best"] == reference_scores["candidate.in-best"]
        assert list(map(repr, made_scores["candidate.share"])) == list(
            map(repr, reference_scores["candidate.share"]))
    # The kept tree of every label in turn, and of every block kept: the
    # headings, runs and pictures that each mix of labels leaves; and that
    # tree as clean HTML, for the HTML and for Markdown, with and without
    # the links, images and tables a user may leave out.
    for labels in ([LABELS[i % len(LABELS)] for i in range(len(made[0]))],
                   ["p"] * len(made[0])):
        tree = kept.kept_tree(body, made[0], labels, "https://x.org/a/")
        assert (parser.flatten([tree])[0]
                == parser.flatten([kept.kept_tree_py(body, made[0], labels,
                                                     "https://x.org/a/")])[0])
        for options in (Rendering(), Rendering(links=False, images=False, tables=False)):
            for for_markdown in (False, True):
                assert (render.clean_html(tree, options, for_markdown)
                        == render.clean_html_py(tree, options, for_markdown))


@needs_compiled
def test_the_class_words_twin_splits_as_the_pattern_does():
    # Capitals, small letters and what parts them, with letters the
    # pattern does not read (accented, the dotted capital I, the Kelvin
    # sign that lower-cases to k) and the ASCII neighbours of its ranges.
    rng = random.Random(0)
    letters = "aAbZzY-_ 09\u00e9\u00c9\u0130\u212a[`{@"
    for _ in range(20000):
        names = "".join(rng.choice(letters) for _ in range(rng.randrange(14)))
        assert context.class_pieces(names) == context.class_pieces_py(names)
    assert context.class_pieces("ScrollSpy_container2 HTMLParser") == {
        "scroll", "spy", "container", "html", "parser"}


@needs_compiled
@pytest.mark.parametrize("sheet", [
    ".a{display:none}.b , .c{color:red}",
    "@media (min-width:1px){.c{display:block}}.d{e:f}",
    "}}{.a{b}}@supports(x){@media y{.z{display:none}}}.q{r}",
    "{{{", "a{b", "", "\u3000.x\u3000{y}\n@font-face{src:url(x)}",
])
def test_the_style_sheet_twin_finds_the_rules_the_generator_finds(sheet):
    assert unseen._rules(sheet) == list(unseen._rules_py(sheet))


@needs_compiled
def test_the_style_sheet_twin_reads_any_nesting_of_braces_alike():
    rng = random.Random(0)
    pieces = "{}@ a.b;\u3000\u00e9\n"
    for _ in range(20000):
        sheet = "".join(rng.choice(pieces) for _ in range(rng.randrange(16)))
        assert unseen._rules(sheet) == list(unseen._rules_py(sheet))


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
    for limit in (None, 3):
        tree, reference = parser._from_lexbor(html, limit), parser._from_lexbor_py(html, limit)
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


@needs_compiled
def test_the_swallowing_twin_finds_an_open_raw_text_element_as_the_pattern_does():
    # Tags and comments in pieces, in any case, cut anywhere, with the
    # letters a case-blind pattern takes for ASCII ones (the long s, the
    # dotless and the dotted I, the Kelvin sign) and what may end a name.
    rng = random.Random(0)
    pieces = ["<", "</", "<!--", "-->", ">", "/", " ", "\t", "\v", "x", "\u017f", "\u0131",
              "\u0130", "\u212a", *depth.RAW_TEXT.split("|")]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(10)))
        text = "".join(c.upper() if rng.random() < 0.3 else c for c in text)
        assert swallowed._maybe_swallowing(text) == swallowed._maybe_swallowing_py(text)
    assert swallowed._maybe_swallowing("<title>BBC <p>text")
    assert not swallowed._maybe_swallowing("<TITLE>BBC</title ><p>text")
    assert swallowed._maybe_swallowing("<title>BBC</titlevalue> <p>text")


@needs_compiled
def test_the_viterbi_twin_finds_the_labels_the_scan_finds():
    # Chains of every length the scan's rounds reach, of one to six labels,
    # with scores of a few whole numbers (ties everywhere: the lower label
    # wins) and of any value.
    rng = np.random.default_rng(0)
    for trial in range(3000):
        n, labels = int(rng.integers(1, 70)), int(rng.integers(1, 7))
        if trial % 2:
            scores = rng.integers(-2, 3, (n, labels)).astype(float)
            transition = rng.integers(-2, 3, (labels, labels)).astype(float)
        else:
            scores, transition = 5 * rng.normal(size=(n, labels)), rng.normal(size=(labels, labels))
        assert chain.viterbi(scores, transition) == chain.viterbi_py(scores, transition)


@needs_compiled
def test_the_tagger_twins_fill_the_rows_the_pure_functions_fill(monkeypatch):
    # The sample's pages scored by the general model through the twins and
    # through the pure functions, each from a fresh tagger: its first
    # pages meet labels and pairs the table has no rows for yet.
    pages = [read_page(read_input(str(p)), load_config("general")) for p in SAMPLE[:12]]
    scored = []
    for pure in (False, True):
        if pure:
            monkeypatch.setattr(tagger, "static_rows", tagger.static_rows_py)
            monkeypatch.setattr(tagger, "combined_rows", tagger.combined_rows_py)
        cleaner = Cleaner("general")
        columns = [features.columns(page, cleaner.config, cleaner.lm, cleaner.selected)
                   for page in pages if page.blocks]
        scored.append([cleaner.model.column_scores(c).tobytes() for c in columns * 2])
    assert scored[0] == scored[1]


@needs_compiled
def test_the_combinations_twin_leaves_the_same_columns_to_the_caller():
    # One to five blocks, two features of 2 and 3 values, the pairs' rows with
    # gaps (-1): a combination whose pairs all have rows is filled, one
    # with a gap is left, as the pure function leaves it.
    rng = np.random.default_rng(0)
    for _ in range(200):
        n, reach = int(rng.integers(1, 6)), 1
        padded = np.zeros((n + 2 * reach, 2), np.intp, order="F")
        padded[reach:reach + n, 0] = rng.integers(0, 2, n)
        padded[reach:reach + n, 1] = rng.integers(0, 3, n)
        static = {"a": (0, 2), "b": (1, 3)}
        known = [(j, (("a", offset), ("b", 0)), np.where(rng.random(6) < 0.2, -1,
                                                          rng.integers(1, 9, 6)).astype(np.intp))
                 for j, offset in enumerate((-1, 0, 1))]
        made, reference = (np.full((n, 3), -7, np.intp, order="F") for _ in range(2))
        unmet = tagger.combined_rows(made, known, static, padded, reach)
        assert unmet == tagger.combined_rows_py(reference, known, static, padded, reach)
        kept = [j for j in range(3) if j not in unmet]
        assert np.array_equal(made[:, kept], reference[:, kept])


@needs_compiled
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


# The second pass's trees: the compiled walk against LightGBM's own C.

@pytest.fixture(scope="module")
def trees_and_rows():
    """The general model's second-pass boosters and the rows they read on
    the sample's pages (with the page type's columns for those that read
    it), and the prediction options the config gives them."""
    cleaner = Cleaner("general")
    second = cleaner.second_pass
    plain, typed = [], []
    for page in SAMPLE[::3]:
        r = cleaner.clean(read_input(str(page)))
        if not r.labels:
            continue
        x = second_pass.matrix(r.columns, r.page.blocks, r.marginals, r.labels, second.first)
        plain.append(x)
        typed.append(second_pass.with_types(x, r.page_type))
    return ([(b, plain) for b in second.boosters] + [(b, typed) for b in second.typed],
            second.predict_options())


def _same(booster, x, **options) -> None:
    made = boosters.predict(booster, x, options)
    reference = boosters.predict_py(booster, x, options)
    assert made.shape == reference.shape and made.dtype == reference.dtype
    assert np.array_equal(made, reference, equal_nan=True)


@needs_compiled
def test_the_trees_twin_gives_lightgbms_probabilities_on_real_pages(trees_and_rows):
    pairs, options = trees_and_rows
    for booster, pages in pairs:
        assert booster.forest is not None  # the shipped trees are walked here
        for x in pages:
            _same(booster, x, **options)
            _same(booster, x, num_threads=1)  # every tree, no early stopping
            _same(booster, x[:1], **options)  # a page of one block
            _same(booster, x.astype(np.float32), **options)


# A value and its neighbours either side: where a split's `<=` turns.
def _around(v: float) -> list[float]:
    return [np.nextafter(v, -np.inf), v, np.nextafter(v, np.inf)]


ZERO = float(np.float32(1e-35))  # LightGBM's kZeroThreshold
EDGES = [np.nan, 0.0, -0.0, np.inf, -np.inf, 1e-36, -1e-36, *_around(ZERO), *_around(-ZERO)]


def _edge_rows(forest, base: np.ndarray, seed: int = 0) -> np.ndarray:
    """Rows of `base` with one feature of a split set to the split's
    threshold or a neighbour of it, to a value near zero or missing; and
    rows with many features so set at once."""
    rows = []
    for f, t in zip(forest.feature[:forest.leaves[-1]], forest.threshold[:forest.leaves[-1]]):
        for v in _around(t) + EDGES:
            row = base[len(rows) % len(base)].copy()
            row[f] = v
            rows.append(row)
    rng = np.random.default_rng(seed)
    for _ in range(200):
        row = base[rng.integers(len(base))].copy()
        at = rng.random(len(row)) < 0.3
        row[at] = rng.choice(EDGES, at.sum())
        rows.append(row)
    return np.array(rows)


@needs_compiled
def test_the_trees_twin_reads_thresholds_zeros_and_missing_values_as_lightgbm(trees_and_rows):
    pairs, options = trees_and_rows
    for booster, pages in pairs[::2]:
        x = _edge_rows(booster.forest, np.vstack(pages))
        _same(booster, x, **options)
        _same(booster, x, num_threads=1)


def _trained(lightgbm, params: dict, x: np.ndarray, y: np.ndarray, **dataset) -> boosters.Booster:
    model = lightgbm.train({"verbose": -1, "num_threads": 1, "min_data_in_leaf": 5, **params},
                           lightgbm.Dataset(x, y, **dataset), num_boost_round=30)
    return boosters.Booster(model.model_to_string())


@needs_compiled
def test_the_trees_twin_takes_each_missing_type_as_lightgbm_and_leaves_the_rest_to_it():
    lightgbm = pytest.importorskip("lightgbm")
    rng = np.random.default_rng(1)
    x = rng.normal(size=(600, 4))
    x[rng.random(600) < 0.3, 0] = np.nan
    x[rng.random(600) < 0.3, 1] = 0.0
    y = ((np.nan_to_num(x[:, 0], nan=1.0) + (x[:, 1] == 0) + x[:, 2]) > 0.5).astype(float)
    walked = {"NaN": _trained(lightgbm, {"objective": "binary"}, x, y),
              "Zero": _trained(lightgbm, {"objective": "binary", "zero_as_missing": True}, x, y),
              "one leaf": _trained(lightgbm, {"objective": "binary", "min_data_in_leaf": 400},
                                   x, y)}
    missing = {name: set((b.forest.decision.astype(int) >> 2) & 3) for name, b in walked.items()}
    assert 2 in missing["NaN"] and 1 in missing["Zero"]
    assert (walked["one leaf"].forest.leaves == walked["one leaf"].forest.root).any()
    left_to_lightgbm = [
        _trained(lightgbm, {"objective": "binary"}, np.abs(np.round(x * 3)), y,
                 categorical_feature=[2]),
        _trained(lightgbm, {"objective": "multiclass", "num_class": 3}, x, (x[:, 2] > 0) + y),
        _trained(lightgbm, {"objective": "cross_entropy"}, x, y),
        _trained(lightgbm, {"objective": "binary", "boosting": "rf", "bagging_freq": 1,
                            "bagging_fraction": 0.5}, x, y),
    ]
    assert all(b.forest is None for b in left_to_lightgbm)
    rows = np.vstack([x, _edge_rows(walked["NaN"].forest, x),
                      _edge_rows(walked["Zero"].forest, x)])
    for booster in [*walked.values(), *left_to_lightgbm]:
        _same(booster, rows, num_threads=1)
        _same(booster, rows, pred_early_stop=True, pred_early_stop_freq=3,
              pred_early_stop_margin=1.0)
    # Parameters the walk does not read exactly as LightGBM: LightGBM's.
    _same(walked["NaN"], rows, pred_early_stop=True, pred_early_stop_margin=0.3)
    _same(walked["NaN"], rows, predict_disable_shape_check=True)
    with pytest.raises(boosters.BoosterError):
        boosters.predict(walked["NaN"], rows[:, :3], {})


@needs_compiled
def test_the_trees_twin_reads_the_splits_and_leaves_lightgbm_loaded(trees_and_rows):
    lightgbm = pytest.importorskip("lightgbm")
    pairs, _ = trees_and_rows
    for booster, _ in pairs:
        forest = booster.forest
        dumped = lightgbm.Booster(model_str=booster.text()).dump_model()["tree_info"]
        assert len(dumped) == len(forest.root)
        for t, tree in enumerate(dumped):
            level = [tree["tree_structure"]]
            while level:
                node = level.pop()
                if "leaf_value" in node:
                    at = forest.leaves[t] + node.get("leaf_index", 0)
                    assert forest.value[at] == node["leaf_value"]
                else:
                    at = forest.root[t] + node["split_index"]
                    assert forest.threshold[at] == node["threshold"]
                    assert forest.feature[at] == node["split_feature"]
                    level += [node["left_child"], node["right_child"]]


@needs_compiled
def test_a_walked_booster_pickles_with_its_trees(trees_and_rows):
    pairs, options = trees_and_rows
    booster, pages = pairs[0]
    copy = pickle.loads(pickle.dumps(booster))
    assert copy.forest is not None
    assert np.array_equal(copy.predict(pages[0], **options), booster.predict(pages[0], **options))
