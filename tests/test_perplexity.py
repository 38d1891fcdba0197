"""Specification of the perplexity model: our Kneser-Ney trainer, our ARPA
reader scoring what it writes, the shipped default model, the paper's
filter, and `victor lm` with the round trip a user makes (train a model,
learn a CRF with the feature, clean). Everything here runs without KenLM,
which must be compiled; where KenLM is installed, it is checked to score as
our reader does."""

from __future__ import annotations

import gzip
import importlib.util
import math
import random
import subprocess
import sys

import pytest
from front_door_support import victor_main

from victor.cleaner import Cleaner
from victor.cli import main
from victor.model import load as load_model
from victor.errors import VictorError
from victor.perplexity.ngram import BOS, EOS, read_arpa, sentence_words, text_paragraphs, train
from victor.perplexity import DEFAULT_LIMIT, DEFAULT_MODEL, PerplexityFilter, PerplexityModel
from victor.reading.text import sentences, words

from features_support import perplexity_config
from repo_data import CLEANEVAL, DRAGNET, ROOT

TRAINING_GOLD = sorted(CLEANEVAL.glob("*.txt"), key=lambda p: int(p.stem))[:8]

# Well-formed English that no training page contains: the perplexity paper.
PAPER = [
    "However, isolating relevant content from web pages is far from trivial.",
    "Web crawling is a widely used technique to obtain textual collections for multiple purposes"
    " in the fields of Natural Language Processing (NLP) and Information Retrieval (IR).",
]
# Navigation of a training page (data/cleaneval/12.html), outside its gold.
MENUS = [
    "Virtual Exhibits || Storytelling || Lesson Plans || Music Exchange || Online Resources",
    "ARTSEDGE: Ireland Online: Share: Storytelling Online",
]
NAV_BAR = "Home | About | Login | Register | FAQ"


def random_letters(seed: int = 0) -> str:
    rng = random.Random(seed)
    return " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 8))) for _ in range(8))


def held_out_sentences() -> list[str]:
    """Real sentences the small model did not see: a Dragnet article (with
    names the CleanEval pages never mention) and junk."""
    article = text_paragraphs(DRAGNET / "100.txt")
    return [s for p in article for s in sentences(p)][:6] + PAPER + [NAV_BAR, random_letters()]


@pytest.fixture(scope="module")
def small_corpus() -> list[list[str]]:
    return list(sentence_words(p for path in TRAINING_GOLD for p in text_paragraphs(path)))


@pytest.fixture(scope="module")
def default_model() -> PerplexityModel:
    """The shipped model as the pure-Python engine reads it: what every
    installation can run."""
    return PerplexityModel.load(engine="python")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`victor lm ARGS`, its function in this process (front_door_support.victor_main)."""
    return victor_main("lm", *args, cwd=ROOT)


# --- the trainer, and the engines reading what it writes ------------------------------

ORDERS = pytest.mark.parametrize(
    ("order", "min_count", "suffix"), [(2, 1, ".arpa"), (3, 1, ".arpa"), (2, 2, ".arpa.gz"), (3, 2, ".arpa.gz")]
)


@ORDERS
def test_the_arpa_file_scores_every_word_as_the_trainer_computes_it(small_corpus, tmp_path, order, min_count,
                                                                     suffix):
    model = train(small_corpus, order, min_count)
    path = tmp_path / f"lm{suffix}"
    model.write_arpa(path)
    read = read_arpa(path)

    held_out = held_out_sentences()
    unseen = {w for s in held_out for w in words(s) if (w,) not in model.log10_probs}
    assert len(unseen) > 10, "the check must cover words the model never saw"
    for sentence in held_out:
        tokens = words(sentence)
        history = [BOS]
        for word in [*tokens, EOS]:
            # ARPA keeps six decimals: the back-offs of a trigram add up to three.
            assert read.log10_prob(history, word) == pytest.approx(model.log10_prob(history, word), abs=2e-6)
            history.append(word)
        # A sentence's score is its words' scores after <s>, its end included.
        expected = sum(read.log10_prob([BOS, *tokens[:i]], w) for i, w in enumerate([*tokens, EOS]))
        assert read.log10_sentence(tokens) == pytest.approx(expected, abs=1e-9)


@ORDERS
def test_kenlm_scores_every_word_as_the_trainer_computes_it(small_corpus, tmp_path, order, min_count, suffix):
    pytest.importorskip("kenlm", reason="KenLM is an extra (pip install '.[kenlm]' in Victor's clone)")
    model = train(small_corpus, order, min_count)
    path = tmp_path / f"lm{suffix}"
    model.write_arpa(path)
    lm = PerplexityModel.load(path, engine="kenlm").lm

    held_out = held_out_sentences()
    unseen = {w for s in held_out for w in words(s) if (w,) not in model.log10_probs}
    assert len(unseen) > 10, "the check must cover words the model never saw"
    for sentence in held_out:
        tokens = words(sentence)
        history = [BOS]
        for word, (kenlm_log10, _, _) in zip([*tokens, EOS], lm.full_scores(" ".join(tokens))):
            assert model.log10_prob(history, word) == pytest.approx(kenlm_log10, abs=2e-6)
            history.append(word)


def test_every_context_spreads_exactly_all_probability_over_the_vocabulary(small_corpus):
    model = train(small_corpus, order=3, min_count=2)
    vocabulary = [g[0] for g in model.log10_probs if len(g) == 1 and g[0] != BOS]
    trigram_contexts = sorted(c for c in model.log10_backoffs if len(c) == 2)[:3]
    for context in [(BOS,), ("the",), ("of", "the"), (BOS, "the"), *trigram_contexts, ("qwxz",)]:
        total = sum(10 ** model.log10_prob(context, w) for w in vocabulary)
        assert total == pytest.approx(1.0, abs=1e-9), context


def test_pruning_keeps_only_ngrams_seen_often_enough(small_corpus):
    full, pruned = train(small_corpus, 3, 1), train(small_corpus, 3, 2)
    assert len(pruned.log10_probs) < len(full.log10_probs)
    assert {g for g in full.log10_probs if len(g) == 1} == {g for g in pruned.log10_probs if len(g) == 1}


def test_too_little_text_is_a_one_line_error_naming_it(small_corpus):
    with pytest.raises(VictorError, match="one-sentence.txt: too little text") as error:
        train(small_corpus[:1], 2, source="one-sentence.txt")
    assert "\n" not in str(error.value)


def test_cleaneval_gold_trains_without_its_url_line_and_segment_markers():
    paragraphs = text_paragraphs(CLEANEVAL / "1.txt")
    assert not any(p.startswith("URL:") or "<p>" in p or "<l>" in p for p in paragraphs)
    # A segment that the transcriber broke over two lines is one paragraph.
    assert (
        "If you feel it's time to start taking action and get your property sold FAST"
        " and for TOP DOLLAR; here's a good place to start." in paragraphs
    )


def test_train_command_writes_a_model_that_loads(tmp_path):
    output = tmp_path / "lm.arpa"
    assert main(["lm", "train", "--order", "3", "-o", str(output), *map(str, TRAINING_GOLD)]) == 0
    assert PerplexityModel.load(output).lm.order == 3


def test_train_command_keeps_a_model_that_exists_and_leaves_nothing_on_failure(tmp_path, capsys):
    output = tmp_path / "lm.arpa.gz"
    output.write_bytes(b"mine")
    assert main(["lm", "train", "-o", str(output), *map(str, TRAINING_GOLD)]) == 2
    assert output.read_bytes() == b"mine"
    assert "exists; give --overwrite" in capsys.readouterr().err
    assert main(["lm", "train", "--overwrite", "-o", str(output), str(TRAINING_GOLD[0])]) == 2
    err = capsys.readouterr().err
    assert "too little text" in err and err.count("\n") == 1
    assert output.read_bytes() == b"mine" and list(tmp_path.iterdir()) == [output]
    assert main(["lm", "train", "--overwrite", "-o", str(output), *map(str, TRAINING_GOLD)]) == 0
    assert PerplexityModel.load(output).lm.order == 2


def test_a_language_model_from_victor_lm_is_learnt_with_and_cleaned_with(tmp_path, capsys):
    """The round trip from an install: a model of a corpus made here, a
    config that selects the feature with it, a CRF learnt with it, and
    pages cleaned by that CRF alone, which scores with the same model."""
    corpus = tmp_path / "corpus.txt"
    gold = sorted(CLEANEVAL.glob("*.txt"), key=lambda p: int(p.stem))[10:40]
    corpus.write_text("\n".join(p for path in gold for p in text_paragraphs(path)), encoding="utf-8")
    lm = tmp_path / "lm.arpa.gz"
    assert main(["lm", "train", "-o", str(lm), str(corpus)]) == 0

    config = perplexity_config(tmp_path, "./lm.arpa.gz")
    model = tmp_path / "mine"
    pages = [str(CLEANEVAL / f"{n}.anno") for n in (12, 14, 31, 49)]
    assert main(["learn", "--config", str(config), "-o", str(model), "--max-iterations", "10",
                 "--calibrate", "2", *pages]) == 0
    assert load_model(model).recipe["settings"]["perplexity-model"] == str(lm.resolve())

    alone = Cleaner.from_model(model)
    assert alone.lm.path == lm.resolve() and alone.lm.engine == "python"
    page = CLEANEVAL / "51.html"
    capsys.readouterr()
    assert main(["clean", "--model", str(model), "--format", "table", str(page)]) == 0
    table = capsys.readouterr().out.splitlines()
    column = table[0].split("\t").index("perplexity")
    under_lm = Cleaner(config, model).clean(page.read_bytes()).table().splitlines()
    assert [row.split("\t")[column] for row in table] == [row.split("\t")[column] for row in under_lm]
    assert main(["clean", "--model", str(model), "--format", "text", str(page)]) == 0
    assert len(words(capsys.readouterr().out)) > 100


# --- perplexity of sentences and blocks -----------------------------------------------


def test_cli_rates_english_below_a_navigation_bar_and_random_letters():
    english, nav, letters = (float(run_cli("score", s).stdout) for s in (PAPER[0], NAV_BAR, random_letters()))
    assert english < nav
    assert english < letters


def test_cli_scores_each_line_of_a_file_as_a_sentence(tmp_path, default_model):
    lines = [PAPER[0], NAV_BAR, ""]
    path = tmp_path / "lines.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("score", "--file", str(path))
    assert result.returncode == 0
    scores = [float(x) for x in result.stdout.splitlines()]
    assert scores == [pytest.approx(default_model.score(line), abs=0.05) for line in lines]


def test_perplexity_is_per_token_with_the_end_of_sentence_counted(default_model):
    tokens = words(PAPER[1])
    log10 = sum(default_model.lm.log10_prob([BOS, *tokens[:i]], w) for i, w in enumerate([*tokens, EOS]))
    assert default_model.score(PAPER[1]) == pytest.approx(10 ** (-log10 / (len(tokens) + 1)))


def test_both_engines_give_the_shipped_model_the_same_perplexities(default_model):
    kenlm_model = PerplexityModel.load(engine="kenlm") if importlib.util.find_spec("kenlm") else None
    if kenlm_model is None:
        pytest.skip("KenLM is an extra (pip install '.[kenlm]' in Victor's clone)")
    assert kenlm_model.engine == "kenlm" and default_model.engine == "python"
    for sentence in held_out_sentences():
        assert default_model.score(sentence) == pytest.approx(kenlm_model.score(sentence), rel=1e-5)
        # KenLM's own count: the end of sentence is a token.
        assert kenlm_model.score(sentence) == pytest.approx(kenlm_model.lm.perplexity(" ".join(words(sentence))))


def test_without_kenlm_the_pure_python_engine_is_chosen_and_naming_kenlm_is_one_line():
    probe = ("import sys; sys.modules['kenlm'] = None\n"
             "from victor.perplexity import PerplexityModel, default_engine\n"
             "from victor.errors import VictorError\n"
             "model = PerplexityModel.load()\n"
             "print(default_engine(), model.engine, round(model.score(sys.argv[1])))\n"
             "try:\n    PerplexityModel.load(engine='kenlm')\n"
             "except VictorError as e:\n    print(e)\n")
    proc = subprocess.run([sys.executable, "-c", probe, PAPER[0]], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    engine, loaded, score = proc.stdout.splitlines()[0].split()
    assert (engine, loaded) == ("python", "python")
    assert float(score) == round(PerplexityModel.load(engine="python").score(PAPER[0]))
    assert proc.stdout.splitlines()[1:] == [
        "the perplexity feature needs kenlm, which is not installed: pip install "
        "'victor-cleaner[kenlm]' (Victor's 'kenlm' extra)"]


def test_text_without_words_is_infinitely_perplexing(default_model):
    assert default_model.score("|  » ©") == math.inf
    assert default_model.block_perplexity("") == math.inf


def test_block_perplexity_is_the_mean_over_its_sentences_with_words(default_model):
    block = f"{PAPER[0]} {PAPER[1]} |"
    expected = (default_model.score(PAPER[0]) + default_model.score(PAPER[1])) / 2
    assert default_model.block_perplexity(block) == pytest.approx(expected)
    # Without terminal punctuation the whole block is one sentence.
    assert default_model.block_perplexity(MENUS[0]) == default_model.score(MENUS[0])


# --- loading errors -----------------------------------------------------------------------


def test_a_missing_model_is_a_one_line_error_naming_the_file(tmp_path):
    missing = tmp_path / "nowhere.arpa"
    with pytest.raises(VictorError, match="nowhere.arpa") as error:
        PerplexityModel.load(missing)
    assert "\n" not in str(error.value)
    result = run_cli("score", "--model", str(missing), PAPER[0])
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and str(missing) in result.stderr
    assert f"victor lm train -o {missing}" in result.stderr


def test_a_corrupt_model_is_a_one_line_error_naming_the_file(tmp_path):
    corrupt = tmp_path / "cut-short.arpa.gz"
    corrupt.write_bytes(DEFAULT_MODEL.read_bytes()[:5000])
    with pytest.raises(VictorError, match="cut-short.arpa.gz") as error:
        PerplexityModel.load(corrupt, engine="python")
    assert "\n" not in str(error.value)
    with pytest.raises(VictorError, match="cut-short.arpa.gz"):
        PerplexityModel.load(corrupt)  # whichever engine this machine has
    result = run_cli("score", "--model", str(corrupt), PAPER[0])
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and str(corrupt) in result.stderr


def test_an_arpa_file_cut_short_of_its_sections_is_refused(tmp_path):
    """Whole gzip members can end anywhere in the n-grams: the header's
    counts tell a cut-short model from a small one."""
    text = gzip.decompress(DEFAULT_MODEL.read_bytes()).decode("utf-8")
    short = tmp_path / "short.arpa"
    short.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(VictorError, match=r"short.arpa: not a language model .*cut short"):
        PerplexityModel.load(short, engine="python")


# --- the paper's filter -------------------------------------------------------------------


def test_filter_drops_navigation_and_keeps_prose(default_model):
    page = "\n".join([MENUS[1], f"{PAPER[0]} {MENUS[0]}", NAV_BAR, PAPER[1]])
    assert PerplexityFilter(default_model, DEFAULT_LIMIT).process(page) == f"{PAPER[0]}\n{PAPER[1]}"
