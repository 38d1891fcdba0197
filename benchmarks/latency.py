"""Latency targets that used to be unit tests: a timing is a measurement
of the machine as much as of the code, so on a busy machine such a test
failed for nothing. Each check prints its time beside its target, and the
run exits 1 if one is missed.

- expanding the CRF template for a 500-block page with 60 features (0.25 s
  of CPU; typically 5-15 ms);
- scoring a 20,000-word page against its gold (1 s; the LCS alignment);
- each key of the annotation tool on the largest training page, about
  5,000 blocks, handled and the screen redrawn (50 ms a key).

Run from the repository root: python -m benchmarks.latency
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"


def synthetic_page(rng: random.Random, blocks: int) -> list[dict[str, str]]:
    """Feature dicts of the shape the cleaneval template reads."""
    names = ([f"container.{x}" for x in ("p", "a", "u", "img", "li", "h1", "class-header",
                                          "class-bold", "class-list", "class-form")]
             + [f"split.{x}" for x in ("p", "br", "hr", "class-inline", "class-block")]
             + [f"char.{x}-{k}" for x in ("alpha", "num", "punct", "white", "other")
                for k in ("rel", "abs")]
             + [f"token.{x}-{k}" for x in ("alpha", "num", "mix", "other") for k in ("rel", "abs")]
             + ["sentence.count", "sentence.avg-length", "sentence-begin", "sentence-end",
                "first-duplicate", "duplicate-count", "regexp.url", "regexp.date",
                "regexp.time", "bullet", "div-group.word-ratio", "td-group.word-ratio",
                "position", "document.word-count", "document.block-count", "link-density",
                "depth", "perplexity"])
    return [{**{name: str(rng.randint(0, 4)) for name in names},
             "class-words": rng.choice(["nav menu", "content", "", "post entry"])}
            for _ in range(blocks)]


def template_expansion() -> float:
    from victor.config import TEMPLATE_DIR
    from victor.crf import expand, load_template

    template = load_template(TEMPLATE_DIR / "cleaneval.tpl")
    page = synthetic_page(random.Random(0), 500)
    expand(template, page)  # the first page fills the template's memos
    started = time.process_time()
    expanded = expand(template, page)
    assert len(expanded) == 500
    return time.process_time() - started


def scoring() -> float:
    from victor.training.evaluate import read_cleaneval, word_overlap
    from victor.reading.text import words

    gold = words(read_cleaneval(DATA / "cleaneval/33.txt").text)
    extracted = gold[:5000] + ["noise"] * 3000 + gold[9000:]
    started = time.perf_counter()
    score = word_overlap(extracted, gold)
    assert score.matched == len(gold) - 4000
    return time.perf_counter() - started


def annotation_keys() -> float:
    """Seconds a key, on average."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from victor.config import load_config
    from victor.annotation.labelling import open_session
    from victor.annotation.tui import application

    page_down, page_up = "\x1b[6~", "\x1b[5~"
    with tempfile.TemporaryDirectory(prefix="victor-latency-") as folder:
        session = open_session(load_config("cleaneval"), DATA / "dragnet/T55.html",
                               Path(folder) / "T55.anno")
        keys = (["j"] * 40 + [page_down] * 20 + list("phlco") * 10 + ["u"] * 20
                + ["n"] * 10 + ["G"] + [page_up] * 20 + ["k"] * 40)

        async def drive(pipe) -> float:
            app = application(session, pipe, DummyOutput())
            rendered = asyncio.Event()
            app.after_render += lambda _: rendered.set()
            task = asyncio.ensure_future(app.run_async())
            await rendered.wait()
            start = time.perf_counter()
            for key in keys:
                rendered.clear()
                pipe.send_text(key)
                await rendered.wait()
            elapsed = time.perf_counter() - start
            pipe.send_text("qq")
            await task
            return elapsed

        with create_pipe_input() as pipe:
            return asyncio.run(drive(pipe)) / len(keys)


# name: (measure, target in seconds)
CHECKS: dict[str, tuple[Callable[[], float], float]] = {
    "template expansion, 500 blocks (CPU s)": (template_expansion, 0.25),
    "scoring a 20,000-word page (s)": (scoring, 1.0),
    "annotation tool, a key on 5,000 blocks (s)": (annotation_keys, 0.050),
}


def main() -> int:
    missed = 0
    for name, (measure, target) in CHECKS.items():
        seconds = measure()
        ok = seconds < target
        missed += not ok
        print(f"{name:45} {seconds:8.4f}  target < {target:g}  {'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
