"""Which HTML parser should the reading stage use? Speed and agreement with the
reference HTML5 parser (html5lib), on the same pages.

For each parser of `victor.reading.parser.PARSERS`:
- pages/s of `parser.parse` (decoding + tree), of the tree alone (text
  already decoded), and of parse + preclean + blocks (`read_page`);
- agreement of its block sequence with html5lib's, page by page: the two
  sequences are aligned by longest common subsequence, once on text plus
  container tag path and once on text alone, and the matched blocks are
  summed over pages and divided by html5lib's block count (and by the
  parser's own, for blocks html5lib does not have).

Times are the process's CPU time, which other jobs on a shared machine
disturb less than wall time.

    python3 -m benchmarks.parsers                       # cleaneval-dev
    python3 -m benchmarks.parsers --data /work/shared/data/dragnet-train --sample 200
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from dataclasses import dataclass, field

from rapidfuzz.distance import LCSseq

from benchmarks.common import CLEANEVAL, RawPage, load_pages, table
from victor.config import Config, load_config
from victor.reading.encoding import decode
from victor.reading.page import read_page
from victor.reading.parser import PARSERS, parse

REFERENCE = "html5lib"


@dataclass
class Run:
    """One parser over all pages: CPU seconds per stage, and per page the
    block keys that agreement compares."""
    parser: str
    parse_s: float = 0.0
    tree_s: float = 0.0
    pipeline_s: float = 0.0
    megabytes: float = 0.0  # of the pages parsed without failure
    failures: list[str] = field(default_factory=list)
    paths: list[list[str]] = field(default_factory=list)  # "div/p<TAB>text" per block
    texts: list[list[str]] = field(default_factory=list)


def _cpu(fn, *args) -> tuple[float, object]:
    t = time.process_time()
    out = fn(*args)
    return time.process_time() - t, out


def run_parser(parser: str, pages: list[RawPage], config: Config) -> Run:
    config = dataclasses.replace(config, parser=parser)
    run = Run(parser)
    parse(pages[0].data, parser)  # imports the backend outside the timing
    for page in pages:
        text, _ = decode(page.data)
        try:
            t_parse, _ = _cpu(parse, page.data, parser)
            t_tree, _ = _cpu(PARSERS[parser], text)
            t_pipe, result = _cpu(read_page, page.data, config, page.name)
        except Exception as e:  # a benchmark reports a crash and goes on
            run.failures.append(f"{page.collection}/{page.name}: {type(e).__name__}: {e}")
            run.paths.append([])
            run.texts.append([])
            continue
        run.parse_s += t_parse
        run.tree_s += t_tree
        run.pipeline_s += t_pipe
        run.megabytes += len(page.data) / 1e6
        run.paths.append(["/".join(b.tags) + "\t" + b.text for b in result.blocks])
        run.texts.append([b.text for b in result.blocks])
    return run


@dataclass(frozen=True)
class Agreement:
    matched: int
    reference: int  # blocks of the reference parser
    own: int  # blocks of the parser compared
    identical_pages: int

    @property
    def of_reference(self) -> float:
        return self.matched / self.reference if self.reference else 1.0

    @property
    def of_own(self) -> float:
        return self.matched / self.own if self.own else 1.0


def agreement(reference: list[list[str]], other: list[list[str]]) -> Agreement:
    matched = sum(LCSseq.similarity(r, o) for r, o in zip(reference, other))
    return Agreement(matched, sum(map(len, reference)), sum(map(len, other)),
                     sum(r == o for r, o in zip(reference, other)))


def report(runs: list[Run], pages: list[RawPage]) -> str:
    n = len(pages)
    ref = next(r for r in runs if r.parser == REFERENCE)
    rows = []
    for r in runs:
        by_path = agreement(ref.paths, r.paths)
        by_text = agreement(ref.texts, r.texts)
        ok = n - len(r.failures)
        rows.append([
            r.parser,
            ok / r.parse_s, r.megabytes / r.parse_s,
            ok / r.tree_s,
            ok / r.pipeline_s,
            by_path.of_reference, by_path.of_own, by_text.of_reference, by_text.of_own,
            f"{by_path.identical_pages}/{n}",
            len(r.failures),
        ])
    header = ["parser", "parse pages/s", "parse MB/s", "tree only pages/s",
              "parse+preclean+blocks pages/s",
              f"text+path: of {REFERENCE}'s blocks", "of own blocks",
              f"text: of {REFERENCE}'s blocks", "of own blocks",
              "pages identical (text+path)", "failures"]
    return table(header, rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", metavar="DIR",
                    help=f"a folder of pages or a collection (repeatable; default {CLEANEVAL})")
    ap.add_argument("--sample", type=int, metavar="N", help="a seeded random N pages of each folder")
    ap.add_argument("--config", default="cleaneval", help="the config whose tag-delete is used")
    ap.add_argument("--parsers", default=",".join(PARSERS),
                    help=f"comma-separated; {REFERENCE} is always run as the reference")
    args = ap.parse_args(argv)
    pages = load_pages(args.data or [CLEANEVAL], args.sample)
    config = load_config(args.config)
    names = [p for p in args.parsers.split(",") if p != REFERENCE] + [REFERENCE]
    runs = []
    for name in names:
        t = time.perf_counter()
        runs.append(run_parser(name, pages, config))
        print(f"{name}: {time.perf_counter() - t:.0f} s", file=sys.stderr)
    folders = sorted({p.collection for p in pages})
    print(f"{len(pages)} pages of {', '.join(folders)}, "
          f"{sum(len(p.data) for p in pages) / 1e6:.1f} MB; CPU time\n")
    print(report(runs, pages))
    for r in runs:
        for f in r.failures:
            print(f"{r.parser} failed on {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
