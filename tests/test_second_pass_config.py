"""A config's `second-pass:` key (victor/config/second_pass.py): read once
with the config, refused in one line naming the config file when a value is
wrong, and LightGBM needed only by a model that has trees; a model's trees
file that is no LightGBM model is one line too."""

from __future__ import annotations

import subprocess
import sys

import pytest

from model_support import model_copy
from repo_data import ROOT
from victor.config import load_config
from victor.errors import VictorError
from victor.decoding import bars

# A config of the user's: the general config's features, with a second
# pass whose settings the tests vary (its training settings the general
# config's: a mapping merges over its base's).
HEAD = "base: general\ntemplate: general\n"
GOOD = "second-pass:\n  keep: 0.35\n  add: 0.3\n  early-stop: 4\n"
FLOOR = "second-pass:\n  keep: 0.6\n  add: 0.6\n  lowest-page-bar: 0.2\n  early-stop: 4\n"


def written(tmp_path, text: str, name: str = "mine.yaml"):
    path = tmp_path / name
    path.write_text(HEAD + text, encoding="utf-8")
    return path


def test_the_key_is_read_with_the_config(tmp_path) -> None:
    second = load_config(written(tmp_path, GOOD)).second_pass
    assert second is not None
    assert (second.keep, second.add, second.early_stop) == (0.35, 0.3, 4.0)
    assert (second.rounds, second.trees) == (100, load_config("general").second_pass.trees)
    # --favor's bars and the page floor come from the base config unless
    # the config names its own.
    assert second.favor == load_config("general").second_pass.favor
    assert second.lowest_page_bar == load_config("general").second_pass.lowest_page_bar
    unfloored = load_config(written(tmp_path, GOOD + "  lowest-page-bar: null\n", "bare.yaml"))
    q, texts = [0.9, 0.32, 0.1], ["a b", "c d e", "f"]
    assert bars(unfloored.second_pass, None, q, texts) == (0.35, 0.3)
    favored = load_config(written(tmp_path, GOOD + "  favor: {precision: 0.6}\n")).second_pass
    assert bars(favored, "precision", q, texts) == (0.6, 0.6)


def test_a_lowest_page_bar_lets_each_page_lower_the_bars_to_its_own(tmp_path) -> None:
    """With `lowest-page-bar`, each page may lower keep and add to where its
    expected word F1 is highest: a page whose few likely words sit among
    many middling ones keeps the middling ones too, a page whose content
    is certain keeps the config's bars, and no bar goes under the floor."""
    second = load_config(written(tmp_path, FLOOR)).second_pass
    assert second.lowest_page_bar == 0.2
    words = ["w " * 10, "w " * 100, "w " * 100, "w " * 100, "w " * 50]
    middling = bars(second, None, [0.9, 0.3, 0.3, 0.3, 0.01], words)
    assert middling == (0.3, 0.3)
    certain = bars(second, None, [0.99, 0.95, 0.02, 0.02, 0.01], words)
    assert certain == (0.6, 0.6)
    hopeless = bars(second, None, [0.12, 0.1, 0.05, 0.02, 0.01], words)
    assert min(hopeless) >= 0.2
    # A sea of boilerplate where early stopping leaves it (0.12, under the
    # floor) does not pull the bar down onto the middling blocks.
    sea = bars(second, None, [0.9, 0.3, 0.12], ["w " * 10, "w " * 100, "w " * 5000])
    assert sea == (0.3, 0.3)
    # --favor's fixed bars still win over the page's.
    assert bars(second, "precision", [0.9, 0.3, 0.3, 0.3, 0.01], words) == (0.6, 0.6)


def test_a_config_without_the_key_or_with_null_has_no_second_pass(tmp_path) -> None:
    assert load_config("cleaneval").second_pass is None
    assert load_config("general").second_pass is not None
    assert load_config(written(tmp_path, "second-pass: null\n")).second_pass is None


KEYS = "  keep: 0.35\n  add: 0.3\n"


@pytest.mark.parametrize("text, key, why", [
    ("second-pass: [0.35, 0.3]", "second-pass",
     "must be a mapping of its keys (docs/settings.md), or null, not list"),
    ("second-pass:\n  keep: 1.5\n  add: 0.3\n", "second-pass.keep",
     "must be a probability between 0 and 1"),
    ("second-pass:\n  keep: 0.35\n  add: yes\n", "second-pass.add",
     "must be a probability between 0 and 1, not bool"),
    ("second-pass:\n" + KEYS + "  lowest-page-bar: 0.32\n", "second-pass.lowest-page-bar",
     "must be no higher than keep and add"),
    ("second-pass:\n" + KEYS + "  article-bars: {above: 0.9, keep: 0.5, add: 0.4, "
     "lowest-page-bar: 0.45}\n", "second-pass.article-bars.lowest-page-bar",
     "must be no higher than keep and add"),
    ("second-pass:\n" + KEYS + "  article-bars: {keep: 0.5, add: 0.4}\n",
     "second-pass.article-bars.above", "missing; a config (with its base) must give it"),
    ("second-pass:\n" + KEYS + "  early-stop: -4\n", "second-pass.early-stop",
     "must be a positive margin, or null"),
    ("second-pass:\n" + KEYS + "  early-stop-every: 0\n", "second-pass.early-stop-every",
     "must be a whole number, at least 1, or null"),
    ("second-pass:\n" + KEYS + "  early-stop-every: null\n", "second-pass.early-stop",
     "needs early-stop-every set too"),
    ("second-pass:\n" + KEYS + "  depth: 3\n", "second-pass.depth",
     "unknown key; known keys: keep, add, lowest-page-bar, article-bars, comment-sections, review-sections, first-pass-stays, page-type-share, early-stop, early-stop-every, favor, rounds, seeds, page-type-seeds, left-out, trees"),
    ("second-pass:\n" + KEYS + "  page-type-share: 1.5\n", "second-pass.page-type-share",
     "must be a share between 0 and 1, or null"),
    ("second-pass:\n" + KEYS + "  page-type-seeds: -1\n", "second-pass.page-type-seeds",
     "must be a whole number, 0 or more, or null"),
    ("second-pass:\n" + KEYS + "  page-type-seeds: 0\n  page-type-share: 0.2\n",
     "second-pass.page-type-share", "needs page-type-seeds set too"),
    ("second-pass:\n" + KEYS + "  first-pass-stays: 2\n", "second-pass.first-pass-stays",
     "must be a probability between 0 and 1, or null"),
    ("second-pass:\n" + KEYS + "  rounds: 0\n", "second-pass.rounds",
     "must be a whole number, at least 1"),
    ("second-pass:\n" + KEYS + "  trees: {num_leaves: [31]}\n", "second-pass.trees",
     "must be a mapping of LightGBM's parameter names to numbers or names"),
    ("second-pass:\n" + KEYS + "  trees: {objective: binary, seed: 3}\n", "second-pass.trees",
     "each booster's seed is its number: give no seed"),
    ("second-pass:\n" + KEYS + "  favor: 0.6\n", "second-pass.favor",
     "must be a mapping of precision and recall to probabilities, or null, not float"),
    ("second-pass:\n" + KEYS + "  favor: {speed: 0.6}\n", "second-pass.favor",
     "unknown setting 'speed'; known: precision, recall"),
    ("second-pass:\n" + KEYS + "  favor: {recall: -1}\n", "second-pass.favor",
     "recall must be a probability between 0 and 1"),
    ("second-pass:\n" + KEYS + "  left-out: [class-words, 3]\n", "second-pass.left-out",
     "item 2 must be a name"),
])
def test_a_bad_value_is_refused_in_one_line_naming_the_file(tmp_path, text: str, key: str,
                                                           why: str) -> None:
    """Each key is checked by its kind and by how it bears on its
    neighbours, as the one table (victor/settings.py) declares them."""
    path = written(tmp_path, text)
    with pytest.raises(VictorError) as e:
        load_config(path)
    assert str(e.value) == f"{path}: key '{key}': {why}"


def test_without_lightgbm_a_model_with_trees_stops_in_one_line() -> None:
    """LightGBM is imported when a model has trees, and then only: without
    it the cleaneval model cleans, and the general one stops with one line
    saying how to install it."""
    probe = ("import sys; sys.modules['lightgbm'] = None\n"
             "from victor.cleaner import Cleaner\n"
             "from victor.errors import VictorError\n"
             "print(len(Cleaner('cleaneval').clean(open('data/cleaneval/1.html', 'rb').read()).labels) > 0)\n"
             "try:\n    Cleaner('general')\n"
             "except VictorError as e:\n    print(e)\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.stdout.splitlines() == [
        "True",
        "the config's second pass needs lightgbm, which is not installed: pip install "
        "victor-cleaner (Victor's dependencies)"]


def test_a_trees_file_that_is_no_lightgbm_model_is_one_line(tmp_path) -> None:
    """Even with its size and hash recorded: the record says the file is
    the one written, not that it holds trees."""
    from victor.cleaner import Cleaner

    folder = model_copy(tmp_path / "m", replaced={"second-pass": b"tree of life\n"})
    with pytest.raises(VictorError) as e:
        Cleaner(model=folder)
    assert str(e.value).startswith(f"{folder / 'second-pass.file'}: not a LightGBM model (")
    assert "\n" not in str(e.value)


def test_a_model_of_several_boosters_gives_their_mean(tmp_path) -> None:
    """The shipped trees are boosters of several seeds, one after another in
    one file, the page-type boosters last; each page's probabilities are the
    plain boosters' mean, with the page-type boosters' at their share. Cut
    into models of one plain booster each (and the page-type ones), they
    give the parts of that mean."""
    import numpy as np

    from victor.cleaner import Cleaner
    from victor.model import part_bytes
    from victor.second_pass import probabilities, split_models

    shipped = Cleaner("general")
    parts = split_models(part_bytes(shipped.trained, "second-pass").decode("utf-8"))
    plain = len(shipped.second_pass.boosters)
    assert plain > 1 and len(parts) > plain
    result = shipped.label(shipped.read((ROOT / "data" / "dragnet" / "R28.html").read_bytes()))
    each = []
    for i, part in enumerate(parts[:plain]):
        one = Cleaner(model=model_copy(tmp_path / f"one{i}",
                                       replaced={"second-pass": "".join([part, *parts[plain:]])
                                                 .encode()}))
        each.append(probabilities(one.second_pass, *first_pass(result)))
    assert np.allclose(probabilities(shipped.second_pass, *first_pass(result)),
                       np.mean(each, axis=0))
    assert not np.allclose(each[0], each[1])


def first_pass(result):
    """What the trees read of a labelled page."""
    return result.columns, result.page.blocks, result.marginals, result.labels, result.page_type
