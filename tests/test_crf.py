import json
from pathlib import Path

import pycrfsuite
import pytest

from victor import features
from victor.config import TEMPLATE_DIR, load_config
from victor.crf import (
    Reference,
    compact_key,
    expand,
    load_model,
    load_template,
    parse_template,
    train,
)
from victor.errors import VictorError
from victor.batch.inputs import read_input
from victor.reading.page import read_page

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- templates


def test_a_template_lists_features_at_offsets_and_their_combinations():
    template = parse_template(
        "# comment line\n"
        "container.*   [-1..1]   # trailing comment\n"
        "position\n"
        "bullet[-2, 0..1, +2]\n"
        "sentence-end[-1] & sentence-begin[0]\n", "t.tpl")
    assert template.lines == (
        (Reference("container.*", (-1, 0, 1)),),
        (Reference("position", (0,)),),
        (Reference("bullet", (-2, 0, 1, 2)),),
        (Reference("sentence-end", (-1,)), Reference("sentence-begin", (0,))),
    )


def test_a_wildcard_matches_every_feature_name_with_its_prefix():
    ref = Reference("split.*", (0,))
    assert ref.matches("split.br") and ref.matches("split.class-block")
    assert not ref.matches("splitter") and not ref.matches("container.p")
    assert Reference("*", (0,)).matches("anything")


def test_the_template_hash_ignores_comments_and_spacing():
    a = parse_template("a[-1..1] & b\n", "a.tpl")
    b = parse_template("# same meaning\n  a [ -1, 0, 1 ]&b[0]  \n", "b.tpl")
    c = parse_template("a[-1..1] & b[1]\n", "c.tpl")
    assert a.digest == b.digest != c.digest


@pytest.mark.parametrize("line, fault", [
    ("bullet[x]", "bad offset 'x'"),
    ("bullet[2..-2]", "offset range '2..-2' runs backwards"),
    ("bullet[]", "bad offset ''"),
    ("cont*iner[0]", "bad feature name 'cont\\*iner'"),
    ("sentence-end[-1] &", "expected FEATURE\\[OFFSETS\\], got ''"),
    ("bullet[0] position", "expected FEATURE\\[OFFSETS\\]"),
])
def test_a_malformed_line_is_reported_with_file_and_line_number(line, fault):
    with pytest.raises(VictorError, match=f"^my.tpl line 3: {fault}"):
        parse_template(f"# header\nposition\n{line}\n", "my.tpl")


def test_an_absent_line_names_values_that_emit_nothing_and_changes_the_hash():
    plain = parse_template("a[0]\n", "t.tpl")
    silent = parse_template("a[0]\n@absent 0  # zeros say nothing\n", "t.tpl")
    assert plain.absent == frozenset() and silent.absent == {"0"}
    assert plain.digest != silent.digest
    assert plain.digest == parse_template("# no directive\na[0]\n", "t.tpl").digest


@pytest.mark.parametrize("line, fault", [
    ("@absent", "@absent names no value"),
    ("@silent 0", "unknown directive '@silent'"),
])
def test_a_malformed_directive_is_reported_with_file_and_line_number(line, fault):
    with pytest.raises(VictorError, match=f"^my.tpl line 2: {fault}"):
        parse_template(f"position\n{line}\n", "my.tpl")


def test_a_template_must_name_something_and_exist(tmp_path):
    with pytest.raises(VictorError, match="^empty.tpl: template names no features"):
        parse_template("# only a comment\n\n", "empty.tpl")
    with pytest.raises(VictorError, match="nope.tpl: template file not found"):
        load_template(tmp_path / "nope.tpl")


def test_the_cleaneval_template_loads():
    template = load_template(TEMPLATE_DIR / "cleaneval.tpl")
    assert any(len(line) > 1 for line in template.lines)


# ---------------------------------------------------------------- expansion


def test_expansion_gives_each_block_its_attribute_strings():
    template = parse_template(
        "a[-1..1]\n"
        "b.*\n"
        "bag\n"
        "a[-1] & b.x[0]\n", "t.tpl")
    page = [
        {"a": "1", "b.x": "y", "b.z": "0", "bag": "nav menu"},
        {"a": "2", "b.x": "n", "bag": ""},
        {"a": "3", "unused": "q"},
    ]
    assert [sorted(attrs) for attrs in expand(template, page)] == [
        sorted(["bias", "__BOS__[-1]", "a[+0]=1", "a[+1]=2", "b.x[+0]=y", "b.z[+0]=0",
                "bag[+0]=nav", "bag[+0]=menu"]),
        sorted(["bias", "a[-1]=1", "a[+0]=2", "a[+1]=3", "b.x[+0]=n", "a[-1]=1|b.x[+0]=n"]),
        sorted(["bias", "__EOS__[+1]", "a[-1]=2", "a[+0]=3"]),
    ]


def test_a_single_feature_at_an_absent_value_emits_nothing_but_combinations_keep_it():
    template = parse_template("a[-1..1]\nb\na[0] & b[0]\n@absent 0\n", "t.tpl")
    page = [{"a": "0", "b": "1"}, {"a": "2", "b": "0"}]
    assert [sorted(attrs) for attrs in expand(template, page)] == [
        sorted(["bias", "__BOS__[-1]", "a[+1]=2", "b[+0]=1", "a[+0]=0|b[+0]=1"]),
        sorted(["bias", "__EOS__[+1]", "a[+0]=2", "a[+0]=2|b[+0]=0"]),
    ]


def test_the_crf_gets_each_attribute_under_a_short_fixed_key():
    template = parse_template("a[-1..1]\nb[0] & a[0]\n", "t.tpl")
    page = [{"a": "1", "b": "x y"}, {"a": "2", "b": "z"}]
    readable = expand(template, page)
    assert expand(template, page, compact=True) == [[compact_key(a) for a in attrs]
                                                    for attrs in readable]
    assert len(compact_key("container.class-header[+1]=1|split.br[+0]=3")) == 11
    assert compact_key("a[+0]=1") != compact_key("a[+0]=2")


def test_a_wildcard_combined_with_itself_pairs_distinct_features_once():
    template = parse_template("c.*[0] & c.*[0]\n", "t.tpl")
    [attrs] = expand(template, [{"c.a": "1", "c.b": "0", "c.c": "1"}])
    assert sorted(attrs) == ["bias", "c.a[+0]=1|c.b[+0]=0", "c.a[+0]=1|c.c[+0]=1",
                             "c.b[+0]=0|c.c[+0]=1"]


def test_a_bag_in_a_combination_gives_one_attribute_per_item():
    template = parse_template("cls[0] & pos[0]\n", "t.tpl")
    [attrs] = expand(template, [{"cls": "nav menu", "pos": "0"}])
    assert sorted(attrs) == ["bias", "cls[+0]=menu|pos[+0]=0", "cls[+0]=nav|pos[+0]=0"]


def test_offsets_reaching_past_both_edges_of_a_short_page_mark_each_edge():
    template = parse_template("a[-2..2]\n", "t.tpl")
    [attrs] = expand(template, [{"a": "1"}])
    assert sorted(attrs) == sorted(["bias", "a[+0]=1", "__BOS__[-2]", "__BOS__[-1]",
                                    "__EOS__[+1]", "__EOS__[+2]"])
    assert expand(template, []) == []


def test_pages_with_different_feature_sets_expand_independently():
    template = parse_template("f.*[0]\n", "t.tpl")
    assert expand(template, [{"f.a": "1"}]) == [["bias", "f.a[+0]=1"]]
    assert expand(template, [{"f.b": "2"}]) == [["bias", "f.b[+0]=2"]]
    # A value first met as a single item and later as a bag in the same column.
    assert sorted(expand(template, [{"f.a": "1"}, {"f.a": "1 2"}])[1]) == \
        ["bias", "f.a[+0]=1", "f.a[+0]=2"]


# ---------------------------------------------------------------- training


LABELLED = [
    # A tiny world: "t" marks text blocks, "n" noise; a "j" split joins a
    # block to the text before it.
    ([{"kind": "t", "split": "p"}, {"kind": "t", "split": "j"}, {"kind": "n", "split": "p"}],
     ["p", "c", "o"]),
    ([{"kind": "n", "split": "p"}, {"kind": "t", "split": "p"}, {"kind": "t", "split": "j"}],
     ["o", "p", "c"]),
    ([{"kind": "h", "split": "p"}, {"kind": "t", "split": "p"}, {"kind": "n", "split": "p"}],
     ["h", "p", "o"]),
] * 4

TINY_TEMPLATE = "kind[-1..1]\nsplit\nkind[-1] & split[0]\n"


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("model")
    template_path = folder / "tiny.tpl"
    template_path.write_text(TINY_TEMPLATE)
    progress = []
    metadata = train([x for x, _ in LABELLED], [y for _, y in LABELLED],
                     load_template(template_path), {"c1": 0.0, "c2": 0.01, "max-iterations": 50},
                     folder / "tiny.crfsuite", {"config": "tiny", "features": ["kind", "split"]},
                     on_iteration=lambda i, loss: progress.append((i, loss)))
    return folder / "tiny.crfsuite", metadata, progress


def test_a_trained_model_tags_blocks_with_labels_and_marginals(trained):
    path, _, _ = trained
    model = load_model(path, expected_config="tiny")
    labels, marginals = model.tag(LABELLED[1][0])
    assert labels == ["o", "p", "c"]
    assert len(marginals) == 3
    for block in marginals:
        assert set(block) == {"p", "c", "o", "h"}
        assert sum(block.values()) == pytest.approx(1.0)
    assert max(marginals[2], key=marginals[2].get) == "c"
    assert model.tag([]) == ([], [])


def crfsuite_tagging(model, feature_dicts):
    """What crfsuite's own tagger makes of a page, to hold ours against."""
    tagger = pycrfsuite.Tagger()
    tagger.open(str(model.path))
    tagger.set(expand(model.template, feature_dicts, compact=True))
    labels = tagger.tag()
    return labels, [{label: tagger.marginal(label, t) for label in model.labels}
                    for t in range(len(feature_dicts))]


def same_tagging(ours, theirs) -> bool:
    return ours[0] == theirs[0] and all(
        abs(a[label] - b[label]) < 1e-9 for a, b in zip(ours[1], theirs[1]) for label in b)


@pytest.mark.parametrize("name", ["1", "33", "46"])
def test_tagging_gives_crfsuites_labels_and_marginals_on_cleaneval_pages(name):
    config = load_config("cleaneval")
    model = load_model(config.model, expected_config=config.name)
    page = read_page((ROOT / "data" / "cleaneval" / f"{name}.html").read_bytes(), config)
    feature_dicts = features.compute(page, config, None)
    assert same_tagging(model.tag(feature_dicts), crfsuite_tagging(model, feature_dicts))


@pytest.mark.parametrize("config_name, page_path", [
    ("general", "wcxb/0001.html.gz"), ("article", "dragnet/R28.html"), ("cleaneval", "cleaneval/46.html")])
def test_a_page_scored_from_its_feature_columns_scores_as_from_its_dicts(config_name, page_path):
    config = load_config(config_name)
    model = load_model(config.model, expected_config=config.name)
    page = read_page(read_input(str(ROOT / "data" / page_path)), config)
    columns = features.columns(page, config, None)
    assert columns.dicts() == features.compute(page, config, None)
    assert (model.column_scores(columns) == model.scores(columns.dicts())).all()


def test_tagging_weighs_bags_combinations_and_unseen_values_as_crfsuite_does(tmp_path):
    pages = [[{"kind": kind, "words": words} for kind, words in page] for page in (
        [("t", "post body"), ("n", "menu"), ("t", "post")],
        [("n", "menu nav"), ("t", "body"), ("t", "")],
    )] * 3
    labels = [["p", "o", "c"], ["o", "p", "c"]] * 3
    template = parse_template("kind[-1..1]\nwords[0]\nwords[0] & kind[-1]\n", "bags.tpl")
    train(pages, labels, template, {"c1": 0.0, "c2": 0.1, "max-iterations": 30},
          tmp_path / "bags.crfsuite", {"config": "bags"})
    model = load_model(tmp_path / "bags.crfsuite")
    unseen = [{"kind": "t", "words": "footer post"}, {"kind": "x", "words": "menu"},
              {"kind": "n"}, {"kind": "t", "words": "body post nav"}]
    for page in pages[:2] + [unseen]:
        assert same_tagging(model.tag(page), crfsuite_tagging(model, page))


def test_training_reports_progress_and_writes_metadata_beside_the_model(trained):
    path, metadata, progress = trained
    assert [i for i, _ in progress] == list(range(1, len(progress) + 1))
    assert all(isinstance(loss, float) for _, loss in progress)
    on_disk = json.loads(path.with_name("tiny.crfsuite.json").read_text())
    assert on_disk == metadata
    assert on_disk["config"] == "tiny" and on_disk["features"] == ["kind", "split"]
    assert on_disk["labels"] == {"c": 8, "h": 4, "o": 12, "p": 12}
    assert on_disk["template"]["sha256"] == parse_template(TINY_TEMPLATE, "x").digest
    assert on_disk["params"]["max_iterations"] == 50
    assert on_disk["iterations"] == len(progress)
    assert "python-crfsuite" in on_disk["versions"]
    assert on_disk["training_seconds"] >= 0
    assert sorted(p.name for p in path.parent.iterdir()) == \
        ["tiny.crfsuite", "tiny.crfsuite.json", "tiny.tpl"]   # no temporary files left


def test_tagging_uses_the_template_recorded_at_training(trained):
    path, _, _ = trained
    (path.parent / "tiny.tpl").write_text("something[0] & else[0]\n")
    assert load_model(path).tag(LABELLED[1][0])[0] == ["o", "p", "c"]


def copy_model(trained, folder: Path) -> Path:
    path, _, _ = trained
    target = folder / "copy.crfsuite"
    target.write_bytes(path.read_bytes())
    target.with_name("copy.crfsuite.json").write_text(
        path.with_name("tiny.crfsuite.json").read_text())
    return target


def test_a_truncated_model_file_is_refused_naming_it(trained, tmp_path):
    path = copy_model(trained, tmp_path)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(VictorError, match=f"^{path}: truncated or corrupt model file"):
        load_model(path)


def test_a_corrupt_model_file_is_refused_naming_it(trained, tmp_path):
    path = copy_model(trained, tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(VictorError, match=f"^{path}: model file does not match its metadata"):
        load_model(path)
    path.write_bytes(b"garbage")
    with pytest.raises(VictorError, match=f"^{path}: truncated or corrupt"):
        load_model(path)


def test_a_model_for_another_config_is_refused_naming_it(trained):
    path, _, _ = trained
    with pytest.raises(VictorError, match=f"^{path}: trained for config 'tiny', not 'cleaneval'"):
        load_model(path, expected_config="cleaneval")


@pytest.mark.parametrize("key, change, fault", [
    ("template", {"text": "kind[0]\n"}, "template text does not match its recorded hash"),
    ("attribute_keys", "readable", "model names its attributes by 'readable'"),
])
def test_altered_metadata_is_refused_naming_it(trained, tmp_path, key, change, fault):
    path = copy_model(trained, tmp_path)
    meta_path = path.with_name("copy.crfsuite.json")
    metadata = json.loads(meta_path.read_text())
    metadata[key] = {**metadata[key], **change} if isinstance(change, dict) else change
    meta_path.write_text(json.dumps(metadata))
    with pytest.raises(VictorError, match=f"^{meta_path}: {fault}"):
        load_model(path)


def test_missing_model_or_metadata_is_refused_naming_the_file(trained, tmp_path):
    with pytest.raises(VictorError, match="none.crfsuite: model file not found"):
        load_model(tmp_path / "none.crfsuite")
    path = copy_model(trained, tmp_path)
    path.with_name("copy.crfsuite.json").unlink()
    with pytest.raises(VictorError, match="copy.crfsuite.json: model metadata not found"):
        load_model(path)
    path.with_name("copy.crfsuite.json").write_text("{not json")
    with pytest.raises(VictorError, match="copy.crfsuite.json: unreadable model metadata"):
        load_model(path)


def test_bad_training_input_is_refused_before_training(tmp_path):
    template = parse_template(TINY_TEMPLATE, "t.tpl")
    pages, labels = [LABELLED[0][0]], [LABELLED[0][1]]
    target = tmp_path / "m.crfsuite"
    with pytest.raises(VictorError, match="unknown parameter 'c3'"):
        train(pages, labels, template, {"c3": 1}, target, {})
    with pytest.raises(VictorError, match="parameter 'c1' must be a number"):
        train(pages, labels, template, {"c1": "lots"}, target, {})
    with pytest.raises(VictorError, match="page 1 has 3 blocks but 2 labels"):
        train(pages, [["p", "c"]], template, {}, target, {})
    with pytest.raises(VictorError, match=r"unknown labels \['x'\]"):
        train(pages, [["p", "c", "x"]], template, {}, target, {})
    assert list(tmp_path.iterdir()) == []
