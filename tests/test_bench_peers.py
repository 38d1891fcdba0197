"""benchmarks.peers' rs-trafilatura: a peer in a venv of its own (its
wheels need Python 3.12), fed page after page through a pipe by one
process, and skipped, with one line, where the venv is not made."""

from __future__ import annotations

import argparse
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from repo_data import WCXB

from benchmarks import peers, speed, structure
from benchmarks.quality import running
from victor.batch.inputs import read_input


def test_rs_trafilatura_without_its_venv_is_skipped_with_one_line(monkeypatch, tmp_path, capsys):
    missing = tmp_path / "rs312" / "bin" / "python"
    monkeypatch.setenv(peers.RS_TRAFILATURA_PYTHON, str(missing))
    with pytest.raises(peers.Unavailable, match=re.escape(str(missing))):
        peers.rs_trafilatura_pipe(markdown=True)
    monkeypatch.setattr(structure, "STRUCTURED_PEERS",
                        {"rs-trafilatura (markdown)": lambda: peers.rs_trafilatura(True)})
    assert structure.peers_set_up() == {}
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("rs-trafilatura (markdown): skipped: no ")


def test_the_quality_benchmark_runs_without_rs_trafilaturas_venv_and_says_so_once(
        monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(peers.RS_TRAFILATURA_PYTHON, str(tmp_path / "rs312" / "bin" / "python"))
    monkeypatch.setattr(running, "PEERS", {})  # the other peers are the bench extra
    pages = running.pages_of("wcxb-dev", 2)
    with ThreadPoolExecutor(1) as pool:
        texts = running.submit_peers(pool, pages)()
    assert set(texts) == {"keep everything"}
    assert all(texts["keep everything"][p.anno] for p in pages)
    said = [line for line in capsys.readouterr().err.splitlines() if "rs-trafilatura" in line]
    assert len(said) == 1 and said[0].startswith("rs-trafilatura: skipped: no ")


def test_rs_trafilatura_in_its_venv_cleans_page_after_page_and_times_itself():
    try:
        ask = peers.rs_trafilatura_pipe(markdown=True)
    except peers.Unavailable as e:
        pytest.skip(str(e))
    first = ask(read_input(str(WCXB / "0001.html.gz")))
    assert "we keep our finger on the pulse of the nutrition world" in first.text
    assert 0 < first.wall < 10 and first.peak_mb > 0
    again = ask(read_input(str(WCXB / "0383.html.gz")))
    assert "SPECIFIC CHUNK" in again.text


def test_rs_trafilaturas_speed_row_is_timed_in_its_own_process():
    try:
        peers.rs_trafilatura_pipe(markdown=False)
    except peers.Unavailable as e:
        pytest.skip(str(e))
    opts = argparse.Namespace(data=[str(WCXB)], sample=3, repeat=1, min_seconds=0.0)
    row = speed.measure("rs-trafilatura", opts)
    assert row["pages"] == 3 and row["failures"] == []
    assert row["wall"] > 0 and row["cpu"] > 0
    assert row["worker_peak_mb"] > 0  # the worker's, not this process's


def test_a_row_in_processes_cleans_every_page_in_tools_set_up_beforehand():
    opts = argparse.Namespace(data=[str(WCXB)], sample=6, repeat=1, min_seconds=0.0, jobs=2,
                              config="general", model=None)
    row = speed.measure("victor-text-jobs", opts)
    assert row["pages"] == 6 and row["failures"] == []
    assert 0 < row["wall"] and row["cpu"] > 0
    assert row["worker_peak_mb"] > 0  # the cleaners are in the workers


def test_each_round_shows_its_fastest_pass_and_its_first():
    # Victor measured in this process on three pages, as a round's row; a
    # row the round skipped shows as a dash.
    opts = argparse.Namespace(data=[str(WCXB)], sample=3, repeat=2, min_seconds=0.0,
                              config="general", model=None)
    row = speed.measure("victor-text", opts)
    assert row["first"] >= row["wall"] > 0
    line = speed.each_round({"victor-text": [row, {"row": "victor-text", "skipped": "skipped"}]})
    assert line == ("pages/s of each round, fastest pass (first pass): victor-text "
                    f"{3 / row['wall']:.1f} ({3 / row['first']:.1f}) -")
