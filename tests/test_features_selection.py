"""Feature values of snippets of real pages (thesis chapter 4), worked out by
hand: which features a config switches on (perplexity only when asked), the
feature table, and a config's errors naming file and key. The snippets are
in features_support.py. Most use conftest's `exact` config, whose values
read as counted."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from features_support import SIDEBAR, SIDEBAR_TEXTS, rows

from victor.config import CONFIG_DIR, Config, load_config
from victor.errors import VictorError
from victor.features import KINDS, compute, select_features, table
from victor.features.context import COUNT, RATIO
from victor.reading.page import read_page


class FakeModel:
    """A language model stand-in: perplexity is the length of the text."""

    def block_perplexity(self, text: str) -> float:
        return float(len(text))


class NoModel:
    def __getattr__(self, name: str) -> None:
        raise AssertionError("the language model was used while the perplexity feature is not selected")


def test_perplexity_is_asked_of_the_model_only_when_switched_on(
        exact: Config, tmp_path: Path) -> None:
    assert "perplexity" not in rows(SIDEBAR, exact)[0][1]
    page = read_page(SIDEBAR.encode(), exact)
    compute(page, exact, NoModel())
    raw = dict(exact.raw, **{"crf-features": ["perplexity"]})
    path = tmp_path / "lm.yaml"
    path.write_text(yaml.safe_dump(raw))
    config = load_config(path)
    assert [f["perplexity"] for f in compute(page, config, FakeModel())] == [
        str(len(t)) for t in SIDEBAR_TEXTS]
    with pytest.raises(VictorError, match="perplexity feature is selected"):
        compute(page, config)


def test_table_has_a_header_and_a_row_a_block(config: Config) -> None:
    page = read_page(SIDEBAR.encode(), config)
    lines = table(page, compute(page, config)).splitlines()
    header = lines[0].split("\t")
    # The features the config selects, in the table's order (not
    # perplexity, nor the general config's).
    assert header == ["id", *select_features(config)]
    assert "perplexity" not in header and "title.in-title" not in header
    assert len(lines) == 1 + len(SIDEBAR_TEXTS)
    assert [line.split("\t")[0] for line in lines[1:]] == [str(i) for i in range(9)]
    assert all(len(line.split("\t")) == len(header) for line in lines)


def test_a_page_without_text_has_no_rows(config: Config) -> None:
    # data/cleaneval/42.html, line 244: a float-clearing break.
    page = read_page(b'<br style="clear: both;" />', config)
    assert compute(page, config) == []
    assert table(page, []) == "id\n"


def test_cleaneval_config_selects_what_it_discretises(config: Config) -> None:
    selected = select_features(config)
    assert "perplexity" not in selected and "container.p" in selected
    for name in selected:
        if KINDS[name] == COUNT:
            assert name in config.values
        elif KINDS[name] == RATIO:
            assert name in config.scales


@pytest.mark.parametrize("change, message", [
    ({"crf-features": ["container.p", "char.alpha"]},
     "key 'crf-features': unknown feature 'char.alpha'; did you mean char.alpha-rel?"),
    ({"crf-features": ["colour.*"]}, "unknown feature 'colour.*'"),
    ({"extras": {"css": True}}, "key 'extras': unknown key"),
    ({"values": {"split.br": [0, 1], "position": [0, 1]}},
     "key 'values.position': not a feature discretised by values"),
    ({"crf-features": ["split.*"], "values": {"split.p": [0, 1]}},
     "key 'values.split.br': missing"),
    ({"crf-features": ["regexp.url"], "regexp": {"date": ["[0-9]"]}},
     "key 'regexp.url': missing"),
])
def test_config_errors_name_the_file_and_key(
        change: dict, message: str, tmp_path: Path) -> None:
    raw = yaml.safe_load((CONFIG_DIR / "cleaneval.yaml").read_text())
    raw.update(change)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(raw))
    with pytest.raises(VictorError) as e:
        select_features(load_config(path))
    assert str(e.value).startswith(f"{path}: ")
    assert message in str(e.value)
    assert "\n" not in str(e.value)
