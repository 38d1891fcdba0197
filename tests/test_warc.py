"""Crawl input: the HTML pages of a WARC file become one JSON line each,
cleaned exactly as the same pages cleaned one by one."""

from __future__ import annotations

import gzip
import json
import resource
import subprocess
import sys

import pytest
from batch_support import crawl_warc, model_for_tests
from repo_data import CLEANEVAL, ROOT

from victor import batch
from victor.batch import crawl
from victor.cleaner import Cleaner
from victor.errors import VictorError
from victor.batch.jobs import plan
from victor.batch.manifest import MANIFEST
from victor.batch.workers import RunOptions


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    folder = tmp_path_factory.mktemp("warc")
    model = model_for_tests(folder)
    warc = folder / "crawl.warc.gz"
    pages = crawl_warc(warc)
    return RunOptions("cleaneval", model), warc, pages


def run(settings, warc, outdir=None, workers=1):
    lines: list[str] = []
    jobs = plan([str(warc)], outdir, None)
    report = batch.run(jobs, settings, workers, lines.append)
    return report, "".join(lines)


def test_records_are_read_in_order_with_their_url_and_charset(setup):
    _, warc, pages = setup
    with open(warc, "rb") as f:
        recs = list(crawl.records(f, "crawl.warc.gz"))
    html = [r for r in recs if r.html]
    assert [r.url for r in html] == [url for url, _, _ in pages]
    assert [r.encoding for r in html] == ["utf-8", "iso-8859-1", None, "utf-8"]
    # The gzip-encoded response comes out as the page's own bytes.
    assert [r.data for r in html] == [file.read_bytes() for _, file, _ in pages]
    # warcinfo, four requests, four metadata records and an image.
    assert len(recs) - len(html) == 10
    assert all(r.source.startswith("crawl.warc.gz#urn:uuid:") for r in html)


def test_one_json_line_per_html_page_same_as_cleaning_pages_one_by_one(setup):
    settings, warc, pages = setup
    report, text = run(settings, warc)
    records = [json.loads(line) for line in text.splitlines()]
    assert (report.done, report.not_html, report.failed) == (4, 10, [])
    assert [r["url"] for r in records] == [url for url, _, _ in pages]
    cleaner = Cleaner("cleaneval", settings.model)
    for record, (url, file, charset) in zip(records, pages):
        alone = cleaner.clean(file.read_bytes(), url=url, encoding=charset)
        assert record["text"] == alone.text().strip()
        assert [b["label"] for b in record["blocks"]] == alone.labels


def test_single_byte_page_is_decoded_with_the_http_charset(setup):
    settings, warc, _ = setup
    _, text = run(settings, warc)
    gamasutra = json.loads(text.splitlines()[1])
    # R826.html writes an en dash as the single byte 0x96.
    assert "Design Axioms for Game UI \u2013 Part II" in " ".join(
        b["text"] for b in gamasutra["blocks"])


def test_warc_output_is_one_jsonl_file_named_after_it_and_kept_on_rerun(setup, tmp_path):
    settings, warc, _ = setup
    report, stdout = run(settings, warc, str(tmp_path))
    assert stdout == "" and report.done == 4
    assert [p.name for p in tmp_path.iterdir()] == ["crawl.jsonl"]
    _, expected = run(settings, warc)
    assert (tmp_path / "crawl.jsonl").read_text(encoding="utf-8") == expected
    again, _ = run(settings, warc, str(tmp_path))
    assert (again.done, again.skipped) == (0, 1)


def test_two_processes_give_the_same_lines(setup):
    settings, warc, _ = setup
    assert run(settings, warc, workers=2)[1] == run(settings, warc)[1]


@pytest.mark.parametrize("compressed", [True, False])
def test_a_warc_cut_short_fails_and_writes_nothing(setup, tmp_path, compressed):
    settings, warc, _ = setup
    data = warc.read_bytes() if compressed else gzip.decompress(warc.read_bytes())
    cut = tmp_path / ("cut.warc.gz" if compressed else "cut.warc")
    cut.write_bytes(data[: len(data) * 2 // 3])
    out = tmp_path / "out"
    report, _ = run(settings, cut, str(out))
    assert [(src, "cut short" in why) for src, why in report.failed] == [(str(cut), True)]
    assert list(out.iterdir()) == []


def test_warc_files_are_only_cleaned_to_json_lines(setup):
    _, warc, _ = setup
    with pytest.raises(VictorError, match="JSON lines"):
        plan([str(warc)], None, "text")
    assert plan([str(warc)], "out", "jsonl")[0].output == "out/crawl.jsonl"


def test_an_output_that_cannot_be_written_fails_alone(setup, tmp_path):
    """A full disk, stood in for by a limit on file size: the WARC file's
    output fails and is not left behind, the small page's is written."""
    settings, warc, _ = setup
    page = CLEANEVAL / "1.html"
    limit = 20_000

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = subprocess.run([sys.executable, str(ROOT / "clean.py"), "--model", settings.model,
                           "--format", "jsonl", "-o", str(tmp_path), str(warc), str(page)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          preexec_fn=small_files)
    assert proc.returncode == 1, proc.stderr
    assert f"failed: {warc}: {tmp_path}/crawl.jsonl: cannot write (File too large)" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "1.jsonl"]
