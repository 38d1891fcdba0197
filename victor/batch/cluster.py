"""The cluster engine: the same batch on a Dask distributed cluster.

One task per input file (a page or a whole WARC file). A task is
`batch.run` on that one job in one worker process, so a cluster run writes
exactly what a local run writes, with the same atomic outputs and the same
skipping of outputs that exist; the worker keeps its Cleaner between tasks
(`workers.worker_cleaner`). Workers write their outputs themselves (any
fsspec URL); text meant for standard output comes back to this process and
is printed in input order.
"""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from typing import Callable

from victor import batch
from victor.batch import workers
from victor.errors import VictorError, import_extra
from victor.files import is_url
from victor.batch.jobs import Job
from victor.batch.report import StdoutPages


def clean_job(job: Job, options: workers.RunOptions) -> tuple[batch.Report, str]:
    """A task: clean one input file on a worker; returns its report and any
    standard-output text."""
    text: list[str] = []
    return batch.run([job], options, 1, text.append), "".join(text)


def _portable(job: Job) -> Job:
    """Local paths made absolute, so that workers with another working
    folder read and write the same files; outputs still name the input as
    the user gave it."""
    path = job.path
    if job.source != "-" and not is_url(job.source):
        path = os.path.abspath(job.source)
    out = job.output
    if out is not None and not is_url(out):
        out = os.path.abspath(out)
    return replace(job, path=path, output=out)


def _client(address: str):
    """`local:N` starts a cluster of N single-threaded worker processes here
    (the CRF and the parsers hold the GIL, so threads would not help)."""
    from distributed import Client, LocalCluster

    if address.startswith("local:"):
        try:
            n = int(address.removeprefix("local:"))
        except ValueError:
            n = 0
        if n < 1:
            raise VictorError(f"--dask {address}: say local:N with N worker processes, N >= 1")
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address="127.0.0.1:0",
                               silence_logs=logging.ERROR)
        return Client(cluster), cluster
    try:
        return Client(address, timeout="30s"), None
    except OSError as e:
        raise VictorError(f"--dask {address}: cannot reach the scheduler ({e})")


def run_dask(jobs: list[Job], options: workers.RunOptions, address: str,
             write: Callable[[str], None],
             on_progress: Callable[[batch.Report, float | None], None] | None = None
             ) -> batch.Report:
    as_completed = import_extra("distributed", "dask", "--dask").as_completed

    stdin = [job for job in jobs if job.source == "-"]
    if stdin:
        raise VictorError("standard input cannot be sent to a cluster; save it to a file")
    client, cluster = _client(address)
    report = batch.Report()
    failed: dict[int, list[tuple[str, str]]] = {}
    texts: dict[int, str] = {}
    sizes = [job.size for job in jobs]
    total = None if None in sizes else sum(sizes)  # type: ignore[arg-type]
    done_bytes = 0
    printed = 0
    pages = StdoutPages(jobs, write)
    futures = []
    try:
        futures = client.map(clean_job, [_portable(job) for job in jobs], options=options,
                             pure=False)
        index = {fut.key: i for i, fut in enumerate(futures)}
        for fut in as_completed(futures):
            i = index[fut.key]
            try:
                part, texts[i] = fut.result()
            except Exception as e:  # the task itself failed: a worker died, say
                part, texts[i] = batch.Report(), ""
                part.failed.append((jobs[i].source,
                                    f"cluster task failed: {type(e).__name__}: {e}"))
            failed[i] = part.failed
            part.failed = []
            report.add(part)
            done_bytes += jobs[i].size or 0
            while printed in texts:
                if texts[printed]:
                    pages.sink(jobs[printed])(texts[printed])
                del texts[printed]
                printed += 1
            if on_progress is not None:
                on_progress(report, done_bytes / total if total else len(failed) / len(jobs))
    except KeyboardInterrupt:
        report.interrupted = True
        client.cancel(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    report.failed = [f for i in sorted(failed) for f in failed[i]]
    return report
