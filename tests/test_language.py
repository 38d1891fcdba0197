"""The language of the cleaned text (issue 29, item 9): in the jsonl record
beside the declared one, and `--language` / `language=` keep only pages in
the languages asked for, the others skipped rather than failed. The pages
are WCXB's: 4403 is the Indonesian translation of React's docs under a
template that still declares `lang="en"`, 2917 a Bulgarian page that
declares nothing, 0001 an English article."""

from __future__ import annotations

import gzip
import json
import pickle

import pytest
from front_door_support import victor_main
from model_support import shipped_cleaner
from repo_data import DATA

import victor
from victor.errors import OtherLanguage, VictorError
from victor.batch.manifest import MANIFEST

WCXB = DATA / "wcxb"
INDONESIAN, BULGARIAN, ENGLISH = (WCXB / f"{n}.html.gz" for n in ("4403", "2917", "0001"))


def page(path) -> bytes:
    return gzip.decompress(path.read_bytes())


def test_the_record_gives_the_language_of_the_text_beside_the_declared_one():
    records = [json.loads(victor.extract(page(p), output="jsonl"))
               for p in (INDONESIAN, BULGARIAN, ENGLISH)]
    assert [(r["language"], r["text_language"]) for r in records] == [
        ("en", "id"), ("", "bg"), ("en-US", "en")]
    result = shipped_cleaner().clean(page(INDONESIAN))
    assert result.language == "id" == pickle.loads(pickle.dumps(result)).language


def test_the_api_keeps_only_the_languages_asked_for():
    assert victor.extract(page(INDONESIAN), language="id,ms").startswith("Using the Effect Hook")
    assert victor.extract(page(ENGLISH), language=["de", "en"])
    with pytest.raises(OtherLanguage, match=r"^indonesian.html: text in id, not de,en$"):
        victor.extract(page(INDONESIAN), language=["en", "de"], source="indonesian.html")
    with pytest.raises(VictorError, match=r"^language xx: not a language the identifier knows"):
        victor.Cleaner(language="en,xx")


def test_the_command_skips_pages_in_other_languages_without_failing(tmp_path):
    out = tmp_path / "out"
    args = ("clean", "--language", "en", "--format", "jsonl", "-o", out, INDONESIAN, BULGARIAN,
            ENGLISH)
    proc = victor_main(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # Issue 64: the skipped pages are named, with the language found.
    assert proc.stderr.splitlines()[-3:] == [
        "1 cleaned, 0 already done, 0 failed, 2 skipped (text in another language)",
        f"skipped: {INDONESIAN}: text in id, not en", f"skipped: {BULGARIAN}: text in bg, not en"]
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "0001.jsonl"]
    # A rerun with the same settings cleans none of them again.
    again = victor_main(*args, cwd=tmp_path)
    assert again.stderr.splitlines() == ["0 cleaned, 3 already done, 0 failed"]
    bad = victor_main("clean", "--language", "english", ENGLISH, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.startswith("error: language english: not a language")
