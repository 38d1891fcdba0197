"""Victor inside the pipelines corpus builders run: each module adapts a
Cleaner to one pipeline's interface (victor.integrations.datatrove,
victor.integrations.nemo_curator) and is imported only by its users, so
that the pipeline it needs is imported only then.

Pipelines pickle their steps to send them to worker processes, and fork
or restart those processes at will. So an adapter holds only its options
(`options`), and each process builds its Cleaner on first use, the same
per-process Cleaner the command's workers keep (batch.workers.worker_cleaner).
"""

from victor.integrations.process_cleaner import clean, options

__all__ = ["clean", "options"]
