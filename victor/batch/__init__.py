"""Cleaning many pages: inputs found and named (inputs.py, crawl.py for
WARC files), the work handed to worker processes (workers.py, or a Dask
cluster: cluster.py) and settled in input order (scheduler.py), failures
and counts reported (report.py), a run's outputs recorded for resuming
(manifest.py)."""

from victor.batch.report import Report
from victor.batch.scheduler import run

__all__ = ["Report", "run"]
