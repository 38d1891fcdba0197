"""The CRF's model: training, tagging as CRFsuite tags, and a model file or
its metadata refused, naming it, when it is damaged or belongs elsewhere.
Templates are in test_crf_template.py."""

import json
from pathlib import Path

import itertools

import numpy as np
import pycrfsuite
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from victor import features
from victor.config import load_config
from victor.crf import expand, load_model, load_template, parse_template, train
from victor.model import load as load_folder
from victor.crf.chain import viterbi
from victor.errors import VictorError
from victor.batch.inputs import read_input
from victor.reading.page import read_page

ROOT = Path(__file__).resolve().parents[1]


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
    model = load_folder(config.model).crf
    page = read_page((ROOT / "data" / "cleaneval" / f"{name}.html").read_bytes(), config)
    feature_dicts = features.compute(page, config, None)
    assert same_tagging(model.tag(feature_dicts), crfsuite_tagging(model, feature_dicts))


def test_tagging_gives_crfsuites_labels_and_marginals_on_a_long_modern_page():
    """A WCXB page of many blocks: every round of the tagger's scans."""
    config = load_config("general")
    model = load_folder(config.model).crf
    page = read_page(read_input(str(ROOT / "data" / "wcxb" / "0001.html.gz")), config)
    feature_dicts = features.compute(page, config, None)
    assert len(feature_dicts) > 100
    assert same_tagging(model.tag(feature_dicts), crfsuite_tagging(model, feature_dicts))


def _score(path, scores, transition):
    return scores[0][path[0]] + sum(transition[a][b] + scores[t + 1][b]
                                    for t, (a, b) in enumerate(zip(path, path[1:])))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), min_size=n, max_size=n),
    st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), min_size=3, max_size=3))))
def test_viterbi_finds_a_best_path_of_all_even_among_ties(chain):
    """Small integer scores tie often; the path found scores as the best of
    every label sequence, counted one by one."""
    scores, transition = chain
    path = viterbi(np.array(scores, float), np.array(transition, float))
    best = max(_score(p, scores, transition)
               for p in itertools.product(range(3), repeat=len(scores)))
    assert len(path) == len(scores) and _score(path, scores, transition) == best


@pytest.mark.parametrize("config_name, page_path", [
    ("general", "wcxb/0001.html.gz"), ("article", "dragnet/R28.html"), ("cleaneval", "cleaneval/46.html")])
def test_a_page_scored_from_its_feature_columns_scores_as_from_its_dicts(config_name, page_path):
    config = load_config(config_name)
    model = load_folder(config.model).crf
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
