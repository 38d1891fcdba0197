"""Victor in a real datatrove pipeline, as FineWeb runs Trafilatura:
datatrove's WarcReader reads a small crawl built from pages of data/,
Victor cleans each page in datatrove's extraction child process, and
datatrove's JsonlWriter writes the documents. Each document's text is what
`victor.extract` gives for the same page."""

from __future__ import annotations

import json
import pickle

from batch_support import two_crawls
from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.readers import WarcReader
from datatrove.pipeline.writers import JsonlWriter
from repo_data import CLEANEVAL, WCXB

import victor
from victor.batch.inputs import read_input
from victor.integrations.datatrove import Victor


def test_a_datatrove_pipeline_writes_what_extract_gives(tmp_path):
    pages = two_crawls(tmp_path / "crawl")
    extractor = Victor(output="markdown", favor="precision")
    LocalPipelineExecutor(
        [WarcReader(str(tmp_path / "crawl")), extractor,
         JsonlWriter(str(tmp_path / "out"), compression=None)],
        tasks=2, workers=2, logging_dir=str(tmp_path / "logs")).run()

    docs = [json.loads(line) for rank in ("00000", "00001")
            for line in (tmp_path / "out" / f"{rank}.jsonl").read_text().splitlines()]
    assert sorted(doc["metadata"]["url"] for doc in docs) == sorted(pages)
    html = [read_input(str(pages[doc["metadata"]["url"]])) for doc in docs]
    assert [doc["text"] for doc in docs] == [
        victor.extract(page, output="markdown", favor="precision") for page in html]
    # The option reached the child: a news listing (WCXB 0147) keeps more without it.
    unfavored = [victor.extract(page, output="markdown") for page in html]
    assert any(doc["text"] != text for doc, text in zip(docs, unfavored))
    # Each page was cleaned in datatrove's child process, none timed out or failed.
    stats = json.loads((tmp_path / "logs" / "stats.json").read_text())
    victor_stats = next(s for s in stats if s["name"] == repr(extractor))["stats"]
    assert victor_stats["extracted"] == victor_stats["forwarded"] == 4
    assert not {"timeout", "broken_process", "clean_error", "dropped"} & set(victor_stats)


def test_the_extractor_pickles_without_its_model():
    """datatrove sends its pipeline to worker processes pickled: the
    extractor travels as its options, and the process it arrives in loads
    its own model on first use."""
    html = read_input(str(CLEANEVAL / "3.html")).decode("utf-8")
    extractor = Victor(config="cleaneval", output="text")
    cleaned = extractor.extract(html)  # this process's Cleaner is now loaded
    sent = pickle.dumps(extractor)
    assert len(sent) < 10_000
    assert pickle.loads(sent).extract(html) == cleaned == victor.extract(html, "cleaneval")


def test_nothing_to_keep_is_an_empty_text_which_datatrove_drops():
    """datatrove warms its child up with an empty text; a page in none of
    the languages asked for is dropped, not failed."""
    indonesian = read_input(str(WCXB / "4403.html.gz")).decode("utf-8")  # React's docs translated
    assert Victor().extract("") == ""
    assert Victor(language="en").extract(indonesian) == ""
    assert Victor(language=["en", "id"]).extract(indonesian) == victor.extract(indonesian)
