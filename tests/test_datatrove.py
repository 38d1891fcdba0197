"""Victor in a real datatrove pipeline, as FineWeb runs Trafilatura:
datatrove's WarcReader reads a small crawl built from pages of data/,
Victor cleans each page in datatrove's extraction child process, and
datatrove's JsonlWriter writes the documents. Each document's text is what
`victor.extract` gives for the same page."""

from __future__ import annotations

import gzip
import json
import pickle
from pathlib import Path

from batch_support import request, response
from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.readers import WarcReader
from datatrove.pipeline.writers import JsonlWriter
from repo_data import CLEANEVAL, WCXB

import victor
from victor.integrations.datatrove import Victor

# Two WARC files, so that two datatrove tasks each clean one in a process of
# their own. CleanEval 22 is in ISO-8859-1 (datatrove decodes it with
# cchardet, Victor the same page from its bytes).
CRAWLS = {
    "a.warc.gz": [(WCXB / "0415.html.gz", "https://ashvardanian.com/posts/stringzilla-4-5/"),
                  (CLEANEVAL / "22.html", "http://books.guardian.co.uk/departments/generalfiction/")],
    "b.warc.gz": [(WCXB / "0002.html.gz", "https://www.scratchculinary.com/fall-trends"),
                  (CLEANEVAL / "3.html", "http://www.example.org/3")],
}


def page_bytes(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def build_crawl(folder: Path) -> dict[str, Path]:
    """The crawls as Common Crawl stores them (request and response records,
    each gzipped on its own), with an image among the responses, which
    datatrove's reader leaves out. Returns each page's file by its URL."""
    folder.mkdir()
    pages = {}
    for name, crawl in CRAWLS.items():
        parts = []
        for file, url in crawl:
            parts += [request(url), response(url, page_bytes(file), "text/html")]
            pages[url] = file
        parts.append(response("https://www.example.org/logo.gif",
                              b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "image/gif"))
        (folder / name).write_bytes(b"".join(parts))
    return pages


def test_a_datatrove_pipeline_writes_what_extract_gives(tmp_path):
    pages = build_crawl(tmp_path / "crawl")
    extractor = Victor(output="markdown", favor="precision")
    LocalPipelineExecutor(
        [WarcReader(str(tmp_path / "crawl")), extractor,
         JsonlWriter(str(tmp_path / "out"), compression=None)],
        tasks=2, workers=2, logging_dir=str(tmp_path / "logs")).run()

    docs = [json.loads(line) for rank in ("00000", "00001")
            for line in (tmp_path / "out" / f"{rank}.jsonl").read_text().splitlines()]
    assert sorted(doc["metadata"]["url"] for doc in docs) == sorted(pages)
    for doc in docs:
        page = page_bytes(pages[doc["metadata"]["url"]])
        assert doc["text"] == victor.extract(page, output="markdown", favor="precision")
    # The option reached the child: three of the pages lose a line or two without it.
    unfavored = [victor.extract(page_bytes(pages[doc["metadata"]["url"]]), output="markdown")
                 for doc in docs]
    assert sum(doc["text"] != text for doc, text in zip(docs, unfavored)) == 3
    # Each page was cleaned in datatrove's child process, none timed out or failed.
    stats = json.loads((tmp_path / "logs" / "stats.json").read_text())
    victor_stats = next(s for s in stats if s["name"] == repr(extractor))["stats"]
    assert victor_stats["extracted"] == victor_stats["forwarded"] == 4
    assert not {"timeout", "broken_process", "clean_error", "dropped"} & set(victor_stats)


def test_the_extractor_pickles_without_its_model():
    """datatrove sends its pipeline to worker processes pickled: the
    extractor travels as its options, and the process it arrives in loads
    its own model on first use."""
    html = page_bytes(CLEANEVAL / "3.html").decode("utf-8")
    extractor = Victor(config="cleaneval", output="text")
    cleaned = extractor.extract(html)  # this process's Cleaner is now loaded
    sent = pickle.dumps(extractor)
    assert len(sent) < 10_000
    assert pickle.loads(sent).extract(html) == cleaned == victor.extract(html, "cleaneval")


def test_nothing_to_keep_is_an_empty_text_which_datatrove_drops():
    """datatrove warms its child up with an empty text; a page in none of
    the languages asked for is dropped, not failed."""
    indonesian = page_bytes(WCXB / "4403.html.gz").decode("utf-8")  # React's docs translated
    assert Victor().extract("") == ""
    assert Victor(language="en").extract(indonesian) == ""
    assert Victor(language=["en", "id"]).extract(indonesian) == victor.extract(indonesian)
