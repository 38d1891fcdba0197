"""Cleaning many pages: inputs found (inputs.py, crawl.py for WARC files)
and their outputs named (jobs.py), the work cut into chunks (chunks.py),
handed to worker processes (workers.py, or a Dask cluster: cluster.py) and
settled in input order (scheduler.py), failures and counts reported
(report.py), a run's outputs recorded for resuming (manifest.py)."""

from victor.batch.report import Report
from victor.batch.scheduler import run

__all__ = ["Report", "run"]
