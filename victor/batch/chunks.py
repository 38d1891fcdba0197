"""The work of a batch cut into items (a page file, or one HTML record of a
WARC file) and items into chunks, so that a worker process pays the cost
of a round trip once for several pages; and where each item's outcome
goes once its chunk is back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from victor.batch.workers import Item
from victor.files import AtomicFile

# Pages a worker cleans per round trip: a page costs far more than a round
# trip. Small chunks, and a big page in a chunk
# nearly of its own, keep the processes evenly busy to the end of a batch.
CHUNK_PAGES = 4
CHUNK_BYTES = 500_000


@dataclass(slots=True)
class Route:
    """Where an item's outcome goes once its chunk is back."""

    source: str  # as failures name it
    sink: Callable[[str], None] | None  # None: the worker wrote the output
    weight: int  # bytes of input it stands for, for progress


@dataclass(slots=True)
class Chunk:
    items: list[Item] = field(default_factory=list)
    routes: list[Route] = field(default_factory=list)
    size: int = 0

    def add(self, item: Item, route: Route) -> None:
        self.items.append(item)
        self.routes.append(route)
        self.size += len(item.data) if item.data is not None else route.weight

    def full(self) -> bool:
        return len(self.items) >= CHUNK_PAGES or self.size >= CHUNK_BYTES


@dataclass(slots=True)
class Finish:
    """The end of a WARC file's records: commit its output, or discard it
    if the file could not be read to the end."""

    source: str
    out: AtomicFile | None
    ok: bool
    weight: int
