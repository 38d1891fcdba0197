"""One table of settings (victor/settings.py): each key declared once,
and what reads keys derived from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from victor.config import decoding_settings, load_config, shipped_configs
from victor.errors import VictorError
from victor.model import load as load_model
from victor.settings import DECODING, SETTINGS, TOP_KEYS, markdown

ROOT = Path(__file__).resolve().parent.parent


def test_docs_settings_shows_the_table_as_it_is() -> None:
    assert markdown() in (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")


def test_each_key_is_declared_once_with_a_meaning_and_its_reader() -> None:
    keys = [s.key for s in SETTINGS]
    assert len(keys) == len(set(keys))
    assert all(s.meaning and s.stage.startswith("victor") for s in SETTINGS)


@pytest.mark.parametrize("name", shipped_configs())
def test_every_shipped_model_records_every_decoding_key_that_is_on(name) -> None:
    config = load_config(name)
    recorded = load_model(name).recipe["decoding"]
    assert recorded == decoding_settings(config)
    assert {key for key in DECODING if getattr(config, key.replace("-", "_")) is not None} \
        == set(recorded) - {"second-pass"}


def test_a_key_out_of_its_range_is_refused_in_one_line(tmp_path) -> None:
    for key, value in (("fallback-cap", 1.5), ("repeat-blocks", 0), ("favor", {"speed": 0.5})):
        assert key in TOP_KEYS
        (tmp_path / "c.yaml").write_text(f"base: cleaneval\n{key}: {value}\n", encoding="utf-8")
        with pytest.raises(VictorError, match=f"key '{key}'") as refused:
            load_config(tmp_path / "c.yaml")
        assert "\n" not in str(refused.value)


def test_a_config_holds_each_key_of_the_table_under_its_field() -> None:
    """The stages read a config's fields; the table is the one list of them
    (the base is merged when the file is read)."""
    import dataclasses

    from victor.config import Config
    from victor.settings import field_name, level

    held = {f.name for f in dataclasses.fields(Config)} - {"name", "path", "digest", "raw"}
    assert held == {field_name(s.key) for s in level() if s.kind != "config"}
