"""Where a page's time goes: Victor's stages timed one by one while the
cleaner runs as it always does, on the first pass over the pages and on
the fastest of the others.

Issue 62's target (2.5 times trafilatura's pace) asks which stages a new
design must take over; `benchmarks.speed` times the whole cleaner beside
its peers, not its parts. Here each stage's entry point (the function the
cleaner calls, named in STAGES) is wrapped with a clock for the run, and
a stage's time is its own: a stage called from inside another (the second
pass's trees from the decision, the kept tree from the rendering) is taken
out of the caller's. What no stage holds (the cleaner's own glue, the
result, freeing the previous page) is "the rest". Process time, over pages
already read into memory (`benchmarks.speed` reads each file as it goes),
so that a busy neighbour weighs less; the shares are the figures to trust
on a shared machine. A page the cleaner refuses is counted and passed over.

    python3 -m benchmarks.stages --data ../shared/data/wcxb-dev --sample 200
    VICTOR_NO_EXTENSIONS=1 python3 -m benchmarks.stages --data ../shared/data/wcxb-dev --sample 200
"""

from __future__ import annotations

import argparse
import importlib
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import wraps
from typing import Callable, Iterator

from benchmarks.common import CLEANEVAL, load_pages, table

# Each stage: its name, and the functions that are it, as "module:attribute"
# (a class's method as "module:Class.method"), patched where the cleaner
# looks them up.
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("decode and parse", ("victor.reading.page:parse",)),
    ("preclean and metadata", ("victor.reading.page:preclean", "victor.reading.page:read_meta")),
    ("split into blocks", ("victor.reading.page:split_blocks",)),
    ("what is unseen", ("victor.reading.page:hidden_classes", "victor.reading.page:unseen_blocks")),
    ("features", ("victor.features:columns",)),
    ("CRF scores", ("victor.crf.model:Model.column_scores",)),
    ("CRF labels", ("victor.crf.model:Model.best_labels",)),
    ("CRF marginals", ("victor.crf.model:Model.marginals",)),
    ("page type", ("victor.page_type:type_probabilities", "victor.second_pass:page_paths")),
    ("layout", ("victor.decoding:layout",)),
    ("second pass", ("victor.second_pass:probabilities",)),
    ("decision", ("victor.decoding:decide",)),
    ("kept tree", ("victor.output:kept_tree",)),
    ("rendering", ("victor.output:text", "victor.output:markdown")),
)
REST = "the rest"


@dataclass
class Clock:
    """Each stage's own seconds this pass; `running` holds the stages now
    open, innermost last, with the time their callees took."""

    seconds: dict[str, float] = field(default_factory=dict)
    running: list[list[float]] = field(default_factory=list)

    def timed(self, stage: str, function: Callable) -> Callable:
        @wraps(function)
        def run(*args, **kwargs):
            inner = [0.0]  # seconds of the stages called inside this one
            self.running.append(inner)
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent = time.process_time() - start
                self.running.pop()
                self.seconds[stage] = self.seconds.get(stage, 0.0) + spent - inner[0]
                if self.running:
                    self.running[-1][0] += spent
        return run


def located(place: str) -> tuple[object, str, Callable]:
    """A place of STAGES ("module:attribute", "module:Class.method") as
    the object that holds the function, its name there, and the function
    it holds now (a method as the class holds it, not bound)."""
    module_name, _, path = place.partition(":")
    owner = importlib.import_module(module_name)
    *classes, name = path.split(".")
    for c in classes:
        owner = getattr(owner, c)
    return owner, name, owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)


@contextmanager
def clocked(clock: Clock) -> Iterator[None]:
    """The STAGES' functions wrapped with `clock` while inside, and put
    back as they were after."""
    undo = []
    try:
        for stage, places in STAGES:
            for place in places:
                owner, name, original = located(place)
                setattr(owner, name, clock.timed(stage, original))
                undo.append((owner, name, original))
        yield
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)


def measure(datas: list[bytes], fmt: str, passes: int,
            config: str | None = None) -> tuple[list[dict[str, float]], int]:
    """Each pass's seconds by stage (REST included) over `datas`, the
    first pass first, and how many pages the cleaner refused each pass.
    The cleaner is set up and cleans a page once before the clock starts,
    as benchmarks.speed does."""
    from victor.cleaner import Cleaner
    from victor.errors import VictorError

    cleaner = Cleaner(config)
    refused = 0
    for data in datas:
        try:
            cleaner.clean(data).render(fmt)
            break
        except VictorError:
            continue
    out = []
    clock = Clock()
    with clocked(clock):
        for _ in range(passes):
            clock.seconds = {}
            refused = 0
            start = time.process_time()
            for data in datas:
                try:
                    cleaner.clean(data).render(fmt)
                except VictorError:  # an empty page, text only in a script: as a crawl has them
                    refused += 1
            total = time.process_time() - start
            clock.seconds[REST] = total - sum(clock.seconds.values())
            out.append(clock.seconds)
    return out, refused


def report(passes: list[dict[str, float]], pages: int) -> str:
    """ms a page of each stage, first pass and fastest pass (by its
    total), with the fastest pass's shares."""
    first = passes[0]
    best = min(passes[1:] or passes, key=lambda p: sum(p.values()))
    total = sum(best.values())
    names = [s for s, _ in STAGES if s in first or s in best] + [REST]
    rows = [[s, 1000 * first.get(s, 0.0) / pages, 1000 * best.get(s, 0.0) / pages,
             f"{100 * best.get(s, 0.0) / total:.1f}%"] for s in names]
    rows.append(["all", 1000 * sum(first.values()) / pages, 1000 * total / pages, "100%"])
    return table(["stage", "first pass, ms a page", "fastest pass, ms a page", "share"], rows)


def main(argv: list[str] | None = None) -> int:
    from victor.compiled import path

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", action="append", help=f"page folders (default {CLEANEVAL})")
    ap.add_argument("--sample", type=int, help="a seeded sample of this many pages a folder")
    ap.add_argument("--passes", type=int, default=4, help="passes over the pages (default 4)")
    ap.add_argument("--format", default="text", choices=("text", "markdown"))
    ap.add_argument("--config", help="the cleaner's config (default the default one)")
    opts = ap.parse_args(argv)
    if opts.passes < 1:
        ap.error("--passes: at least 1")
    datas = [page.data for page in load_pages(opts.data or [CLEANEVAL], opts.sample)]
    passes, refused = measure(datas, opts.format, opts.passes, opts.config)
    print(f"{len(datas)} pages ({refused} refused), {opts.format}, {path()}; process time")
    print(report(passes, len(datas)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
