"""Victor as a datatrove extractor, in the place Trafilatura holds in
FineWeb's pipeline (`pip install '.[datatrove]'`):

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from victor.integrations.datatrove import Victor

    LocalPipelineExecutor([WarcReader("crawl/"), Victor(output="markdown"),
                           JsonlWriter("out/")], tasks=4).run()

datatrove pickles its pipeline to send it to its worker processes, and
calls `extract` in a child process that it kills and starts again when a
page takes longer than `timeout`. The extractor pickles as its options, a
few hundred bytes (victor/integrations/__init__.py); `run` builds the
process's Cleaner before datatrove forks the child, so that a child started
again after a timeout has the model already, and a bad config stops the
task with its message instead of failing every page in the child.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from victor.batch.timeout import DEFAULT_TIMEOUT
from victor.batch.workers import worker_cleaner
from victor.errors import import_extra
from victor.integrations.process_cleaner import clean, options
from victor.output import Rendering, check_format

_extractors = import_extra("datatrove.pipeline.extractors.base", "datatrove",
                           "victor.integrations.datatrove")


class Victor(_extractors.BaseExtractor):
    """Each document's HTML becomes the page cleaned into `output` (any
    format of `victor clean --format`); the options are `extract`'s, and
    `config` None with a `model` takes the model's own settings, as
    `victor clean --model` does. A page Victor keeps nothing of (no text,
    in none of the `language`s, nothing above `threshold`) becomes "",
    which datatrove counts as dropped. datatrove hands over the text alone,
    not the record's URL: relative links stay as the page wrote them
    unless the page gives a `<base href>`."""

    name = "Victor"

    def __init__(self, config: str | Path | None = None, output: str = "text", *,
                 model: str | Path | None = None, favor: str | None = None,
                 threshold: float | None = None,
                 language: str | Sequence[str] | None = None, links: bool = True,
                 images: bool = True, tables: bool = True,
                 timeout: float = DEFAULT_TIMEOUT):
        super().__init__(timeout)
        check_format(output)  # here: in datatrove's child it would fail every page
        self.output = output
        self.options = options(config, model, favor, threshold, language,
                               Rendering(links, images, tables))

    def run(self, data, rank: int = 0, world_size: int = 1):
        worker_cleaner(self.options)  # in this process, before datatrove forks its child
        return super().run(data, rank, world_size)

    def extract(self, text: str) -> str:
        """datatrove's warm-up call, with "", builds the Cleaner where the
        process has none yet (a spawned child) and returns ""."""
        result = clean(self.options, text)
        return result.render(self.output, self.options.rendering) if result else ""
