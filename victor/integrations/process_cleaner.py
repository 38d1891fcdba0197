"""What every adapter shares: its options, which pickle, and the Cleaner
each worker process builds from them on first use and cleans with."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from victor.batch.workers import RunOptions, worker_cleaner
from victor.errors import VictorError
from victor.output import Rendering

if TYPE_CHECKING:
    from victor.result import Result


def options(config: str | Path | None, model: str | Path | None = None,
            favor: str | None = None, threshold: float | None = None,
            language: str | Sequence[str] | None = None,
            rendering: Rendering = Rendering()) -> RunOptions:
    """`extract()`'s options of what to keep, as the key of this process's
    Cleaner. Paths become strings, which pipelines record in their logs
    (datatrove's executor.json)."""
    if language is not None and not isinstance(language, str):
        language = ",".join(language)
    return RunOptions(str(config) if config is not None else None,
                      str(model) if model is not None else None, threshold,
                      languages=language or None, favor=favor, rendering=rendering)


def clean(run: RunOptions, html: str) -> Result | None:
    """The page cleaned by this process's Cleaner, or None where Victor
    keeps nothing of it (no text, in none of the languages asked for,
    nothing above the threshold): a pipeline drops such a page rather than
    counting it a failure. A bad config or model still raises."""
    cleaner = worker_cleaner(run)
    try:
        return cleaner.clean(html)
    except VictorError:
        return None
