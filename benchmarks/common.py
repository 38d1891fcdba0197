"""What the benchmarks share: where the data is, which pages to read, and
how a result table is printed."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

# shared/ sits beside the clone in CI and at /work/shared on developers' machines.
SHARED = next((root for root in (Path(__file__).resolve().parents[2] / "shared",
                                 Path("/work/shared")) if root.is_dir()),
              Path("/work/shared"))
DATA = SHARED / "data"
CLEANEVAL = DATA / "cleaneval-dev"
DRAGNET = DATA / "dragnet-train"


@dataclass(frozen=True, slots=True)
class RawPage:
    collection: str  # the folder above html/, e.g. "cleaneval-dev"
    name: str  # file name without suffix: the gold file's name too
    data: bytes


def html_dir(path: str | Path) -> Path:
    """A collection (with html/ inside) or its html/ folder itself."""
    p = Path(path)
    return p / "html" if (p / "html").is_dir() else p


def page_files(folders: list[str | Path], sample: int | None = None, seed: int = 0) -> list[Path]:
    """All pages of each folder (NAME.html, or NAME.html.gz as WCXB's are
    kept), or a random `sample` of each (seeded, so that every run and
    every tool gets the same pages)."""
    from victor.batch.inputs import is_page_name

    out = []
    for folder in folders:
        d = html_dir(folder)
        files = sorted(f for f in d.iterdir() if is_page_name(f.name))
        if not files:
            raise SystemExit(f"{d}: no .html or .html.gz pages")
        if sample is not None and sample < len(files):
            files = sorted(random.Random(seed).sample(files, sample))
        out.extend(files)
    return out


def page_megabytes(files: list[Path]) -> float:
    """The pages' size as the cleaners get them: a .html.gz page counts
    decompressed."""
    from victor.batch.inputs import read_input

    return sum(len(read_input(str(f))) if f.name.lower().endswith(".gz") else f.stat().st_size
               for f in files) / 1e6


def load_pages(folders: list[str | Path], sample: int | None = None, seed: int = 0) -> list[RawPage]:
    from victor.batch.inputs import page_stem, read_input

    return [RawPage(f.parent.parent.name if f.parent.name == "html" else f.parent.name,
                    page_stem(f.name), read_input(str(f)))
            for f in page_files(folders, sample, seed)]


def table(header: list[str], rows: list[list[object]]) -> str:
    """A Markdown table: it reads in a terminal and pastes into docs/."""
    cells = [header] + [[_cell(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "| " + " | ".join(v.ljust(w) for v, w in zip(r, widths)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(cells[0]), rule] + [line(r) for r in cells[1:]])


def _cell(v: object) -> str:
    if isinstance(v, float):
        return f"{v:.3f}" if v < 10 else f"{v:.1f}" if v < 1000 else f"{v:,.0f}"
    return str(v)


def collection_pages(folder: str | Path) -> list[tuple[Path, Path | None]]:
    """Every page of a collection with its gold file, if it has one: either
    html/NAME.html[.gz] with gold/NAME.txt (../shared/data) or NAME.html[.gz]
    with NAME.txt beside it (the repo's data/)."""
    from victor.batch.inputs import is_page_name, page_stem

    folder = Path(folder)
    pages = html_dir(folder)
    gold = folder / "gold" if (folder / "gold").is_dir() else folder
    out = []
    for f in sorted(pages.iterdir()):
        if not is_page_name(f.name):
            continue
        g = gold / f"{page_stem(f.name)}.txt"
        out.append((f, g if g.is_file() else None))
    return out


def bag_f1(text: str, gold: str) -> float:
    """WCXB's page score: F1 of the lowercased \\w+ tokens as multisets."""
    from victor.training.evaluate import bag_overlap

    return bag_overlap(re.findall(r"\w+", text.lower()), re.findall(r"\w+", gold.lower())).f1


def gold_words(path: Path) -> str:
    """The gold's words, as victor.annotation.align reads gold files of any of the
    collections (CleanEval markers and Dragnet's comments cut off)."""
    from victor.annotation.gold import read_gold

    return " ".join(read_gold(path).words)
