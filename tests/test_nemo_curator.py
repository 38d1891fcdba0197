"""Victor as NeMo Curator's HTML extractor algorithm: a page becomes the
list of its paragraphs, which NeMo Curator's pipelines filter paragraph by
paragraph and join with blank lines into the document's text.

The adapter is tested alone everywhere. NeMo Curator's own Common Crawl
stage runs it only where NeMo Curator is installed (`pip install '.[nemo]'`),
which CI's set-up leaves out: it brings CUDA builds of torch (6.4 GB) and
compiles fasttext from source, minutes past the 90 seconds set-up may take."""

from __future__ import annotations

import pickle

import pytest
from batch_support import two_crawls
from repo_data import ROOT, WCXB

import victor
from victor.batch.inputs import read_input
from victor.cleaner import Cleaner
from victor.integrations.nemo_curator import Victor


def test_the_algorithm_gives_the_pages_paragraphs():
    """WCXB 0415: NeMo Curator's stop words and language do not change
    what Victor keeps; a list stays one paragraph, its items a line each."""
    html = read_input(str(WCXB / "0415.html.gz")).decode("utf-8")
    paragraphs = Victor().extract_text(html, frozenset({"the", "of", "and"}), "ENGLISH")
    assert paragraphs == Cleaner().clean(html).paragraphs()
    assert paragraphs == Victor().extract_text(html, frozenset(), "JAPANESE")
    assert "\n\n".join(paragraphs) + "\n" == victor.extract(html)
    assert "- “ISO-8859-1” or “Latin-1” — older Western European sites\n- “Windows-1252”" \
           " — legacy Windows encoding" in paragraphs[paragraphs.index(
               "Today, almost all of the Internet is UTF-8. Its share grew from 50% in 2010 to "
               "98% in 2024. The remaining ~2% is mostly legacy content in:") + 1]


def test_a_page_with_nothing_to_keep_gives_none():
    """A crawl's page of scripts only (the hostile corpus's): NeMo Curator
    leaves the record out."""
    html = (ROOT / "tests" / "hostile" / "script-only.html").read_text(encoding="utf-8")
    assert Victor(config="cleaneval").extract_text(html, frozenset(), "ENGLISH") is None


def test_nemo_curators_common_crawl_stage_extracts_with_victor(tmp_path):
    """NeMo Curator's stage that reads WARC files (its WARC iterator) and
    extracts each record (its Common Crawl extractor, with Victor as the
    algorithm, sent pickled as its executors send stages to workers), over
    the crawl the datatrove test reads. Each record's text is the
    paragraphs Victor keeps, a blank line apart. (The same stage in a whole
    Pipeline run by its Xenna executor gives the same records, but leaves a
    Ray actor running after it: docs/integrations.md.)"""
    extract = pytest.importorskip("nemo_curator.stages.text.download.common_crawl.extract")
    from nemo_curator.stages.text.download.base.iterator import DocumentIterateExtractStage
    from nemo_curator.stages.text.download.common_crawl.warc_iterator import (
        CommonCrawlWarcIterator,
    )
    from nemo_curator.tasks import FileGroupTask

    pages = two_crawls(tmp_path / "crawl")
    algorithm = pickle.loads(pickle.dumps(Victor()))
    stage = DocumentIterateExtractStage(
        iterator=CommonCrawlWarcIterator(),
        extractor=extract.CommonCrawlHTMLExtractor(algorithm=algorithm))
    files = sorted(str(p) for p in (tmp_path / "crawl").iterdir())
    records = stage.process(FileGroupTask(dataset_name="crawl", data=files)).to_pandas()
    assert sorted(records["url"]) == sorted(pages)
    for record in records.to_dict("records"):
        assert record["language"] == "ENGLISH"
        assert record["text"] + "\n" == victor.extract(read_input(str(pages[record["url"]])))
