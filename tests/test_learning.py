"""Cross-validation that does not flatter: the perplexity feature and the
perplexity filter are measured with language models that never read the
test pages' gold text, and ablation names are checked. Real CleanEval
pages from data/cleaneval."""

from dataclasses import replace
from pathlib import Path

import pytest

from features_support import perplexity_config
from front_door_support import victor_main

from victor.training import crossval, dataset, fold_perplexity, pipeline
from victor.model import save
from victor.cleaner import Cleaner
from victor.config import load_config
from victor.errors import VictorError
from victor.features import select_features
from victor.perplexity.ngram import sentence_words, text_paragraphs
from victor.perplexity import PerplexityModel

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "cleaneval"
# Five short pages of running text (275-475 gold words each).
PAGES = [str(DATA / f"{n}.anno") for n in (12, 14, 31, 49, 51)]


@pytest.fixture(scope="module")
def config():
    base = load_config("cleaneval")
    return replace(base, crf_features=(*base.crf_features, "perplexity"))


@pytest.fixture(scope="module")
def shipped_lm():
    return PerplexityModel.load()


@pytest.fixture(scope="module")
def examples(config, shipped_lm):
    return dataset.load_examples(PAGES, config, shipped_lm)


def first_long_sentence(anno: str) -> str:
    """The first gold sentence of the page with at least eight words."""
    paragraphs = text_paragraphs(Path(anno).with_suffix(".txt"))
    return " ".join(next(s for s in sentence_words(paragraphs) if len(s) >= 8))


# --- --disable --------------------------------------------------------------

def test_disable_drops_a_family_and_named_features(config):
    left = select_features(config, ["duplicate-count", "first-duplicate", "char.*"])
    assert "duplicate-count" not in left and "first-duplicate" not in left
    assert not any(n.startswith("char.") for n in left)
    assert "token.alpha-abs" in left and "perplexity" in left


def test_disabled_features_are_not_computed_for_training(config, shipped_lm):
    [example] = dataset.load_examples(PAGES[:1], config, shipped_lm, ["char.*", "bullet"])
    assert list(example.features[0]) == list(select_features(config, ["char.*", "bullet"]))


@pytest.mark.parametrize("name, message", [
    ("duplicate.*", "--disable duplicate.*: the config selects no feature of that name; "
                    "did you mean first-duplicate?"),
    ("sentences.*", "--disable sentences.*: the config selects no feature of that name; "
                    "did you mean sentence.*?"),
])
def test_disable_refuses_a_name_that_matches_nothing(config, name, message):
    with pytest.raises(VictorError) as err:
        select_features(config, ["bullet", name])
    assert str(err.value) == message


# --- a language model per fold ------------------------------------------------

def test_a_fold_model_has_not_read_the_test_page(examples, tmp_path):
    train, test = examples[:4], examples[4]
    fold = fold_perplexity.fold_language_model(train, tmp_path / "fold.arpa")
    everything = fold_perplexity.fold_language_model(examples, tmp_path / "all.arpa")
    sentence = first_long_sentence(test.name)
    assert fold.score(sentence) > 2 * everything.score(sentence)


def test_the_fold_perplexity_is_the_features_packages_own(config, examples, tmp_path):
    lm = fold_perplexity.fold_language_model(examples[:4], tmp_path / "fold.arpa")
    test = examples[4]
    [rescored] = fold_perplexity.with_perplexity([test], config, lm)
    direct = dataset.load_example(test.name, config, lm)
    assert rescored.features == direct.features
    # The shipped model has read this page's gold: its values are lower.
    assert [f["perplexity"] for f in rescored.features] != [f["perplexity"] for f in test.features]


def test_cross_validation_ignores_the_model_the_pages_were_loaded_with(
        config, examples, tmp_path):
    """Loaded with the shipped model or with one that read every page, the
    folds come out the same: each fold scores with its own model."""
    params = {**config.crf, "max-iterations": 20}
    everything = fold_perplexity.fold_language_model(examples, tmp_path / "all.arpa")
    others = dataset.load_examples(PAGES, config, everything)
    assert others[0].features != examples[0].features
    runs = []
    for loaded in (examples, others):
        workdir = tmp_path / f"run{len(runs)}"
        workdir.mkdir()
        runs.append(crossval.cross_validate(loaded, config, 2, params, str(workdir)))
    assert runs[0] == runs[1]
    assert sorted(p.name for p in (tmp_path / "run0").glob("*.arpa")) == ["fold1.arpa", "fold2.arpa"]


def test_a_disabled_perplexity_needs_no_fold_model(config, shipped_lm, tmp_path):
    params = {**config.crf, "max-iterations": 5}
    without = dataset.load_examples(PAGES, config, shipped_lm, ["perplexity"])
    crossval.cross_validate(without, config, 2, params, str(tmp_path))
    assert not list(tmp_path.glob("*.arpa"))


def test_learn_py_cross_validates_with_the_perplexity_extra_on(tmp_path):
    config = perplexity_config(tmp_path)
    proc = victor_main("--config", config, "--cross-validate", "2", "--max-iterations", "5",
                       *PAGES[:4], cwd=ROOT, command="learn")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-2].startswith("accuracy=")
    assert proc.stdout.splitlines()[-1].startswith("temperature ")


def test_a_model_trained_with_the_perplexity_extra_on_cleans_pages(tmp_path):
    config = perplexity_config(tmp_path)
    model = tmp_path / "ppl"
    run = lambda script, *args: victor_main("--config", config, *args, cwd=ROOT,
                                            command=script.removesuffix(".py"))
    trained = run("learn.py", "-o", model, "--max-iterations", "5", "--calibrate", "0", *PAGES[:4])
    assert trained.returncode == 0, trained.stderr
    cleaned = run("clean.py", "--model", model, "--format", "table", PAGES[4].replace(".anno", ".html"))
    assert cleaned.returncode == 0, cleaned.stderr
    assert "perplexity" in cleaned.stdout.splitlines()[0].split("\t")


def test_a_model_trained_without_some_features_cleans_without_them(tmp_path):
    config = load_config("cleaneval")
    model = tmp_path / "m"
    examples = dataset.load_examples(PAGES[:2], config, None, ["char.*", "bullet"])
    written = save(pipeline.train(examples, config, {"max-iterations": 3}, folds=0,
                                  disabled=["char.*", "bullet"]), model)
    assert written.record["crf"]["disabled"] == ["char.*", "bullet"]
    cleaner = Cleaner(config, model)
    assert cleaner.selected == select_features(config, ["char.*", "bullet"])
    result = cleaner.clean((DATA / "14.html").read_bytes())
    assert result.table().split("\n")[0].split("\t")[1:] == list(cleaner.selected)
