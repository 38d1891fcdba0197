"""The cluster engine: the same batch on a local Dask cluster of two worker
processes writes exactly what a local run writes."""

from __future__ import annotations

import pytest
from batch_support import crawl_warc, model_for_tests
from repo_data import CLEANEVAL, pages

from victor import batch
from victor.batch.cluster import run_dask
from victor.errors import VictorError
from victor.batch.jobs import plan
from victor.batch.workers import RunOptions

pytest.importorskip("distributed")

PAGES = pages(CLEANEVAL)[:6]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dask")
    warc = folder / "crawl.warc.gz"
    crawl_warc(warc)
    settings = RunOptions("cleaneval", model_for_tests(folder))
    return settings, [str(p) for p in PAGES] + [str(warc)]


@pytest.fixture(scope="module")
def scheduler():
    """A cluster reached by its address, as a real one would be."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as cluster:
        yield cluster.scheduler_address


def test_cluster_workers_write_what_a_local_run_writes(inputs, scheduler, tmp_path):
    settings, files = inputs
    local_out, dask_out = tmp_path / "local", tmp_path / "dask"
    local = batch.run(plan(files, str(local_out), "jsonl"), settings, 1)
    text: list[str] = []
    remote = run_dask(plan(files, str(dask_out), "jsonl"), settings, scheduler,
                      text.append)
    assert text == []
    assert (remote.done, remote.not_html, remote.failed) == (local.done, local.not_html, [])
    assert remote.done == len(PAGES) + 4
    written = {p.name: p.read_bytes() for p in dask_out.iterdir()}
    assert written == {p.name: p.read_bytes() for p in local_out.iterdir()}
    assert len(written) == len(PAGES) + 1
    # Run again: every output is there already and kept.
    again = run_dask(plan(files, str(dask_out), "jsonl"), settings, scheduler, print)
    assert (again.done, again.skipped) == (0, len(files))


def test_standard_output_comes_back_in_input_order(inputs, scheduler):
    """On the module's cluster: a cluster of its own (`local:N`, which
    tests/test_hostile_limits.py's batch starts through the command) would
    only start two more worker processes."""
    settings, files = inputs
    local: list[str] = []
    batch.run(plan(files, None, None), settings, 1, local.append)
    remote: list[str] = []
    report = run_dask(plan(files, None, None), settings, scheduler, remote.append)
    assert "".join(remote) == "".join(local)
    assert report.done == len(PAGES) + 4


def test_a_bad_cluster_address_is_one_clear_error(inputs):
    settings, files = inputs
    with pytest.raises(VictorError, match="local:N"):
        run_dask(plan(files, None, None), settings, "local:two", print)
