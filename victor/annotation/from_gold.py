"""Labels from a person's cleaned text: each page's blocks aligned to its
gold (victor/annotation/align.py), one page or a folder of pairs."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, TextIO

from victor.annotation.annofile import Annotation, read_page_file, save_annotation
from victor.annotation.align import GoldLabels, is_alt_text, label_from_gold, markup_kind
from victor.annotation.gold import read_gold
from victor.config import Config
from victor.errors import VictorError
from victor.labels import OTHER

def annotate_from_gold(gold_path: str | os.PathLike, page_path: str | os.PathLike,
                       anno_path: str | os.PathLike, config: Config) -> GoldLabels:
    """Labels a page from its gold text and saves them as `anno_path`."""
    page = read_page_file(page_path, config)
    gold = read_gold(Path(gold_path))
    texts = [b.text for b in page.blocks]
    result = label_from_gold(texts, gold, str(page_path), [markup_kind(b.tags) for b in page.blocks],
                             [is_alt_text(b.tags) for b in page.blocks])
    url = page.url or _meta_url(Path(gold_path))
    save_annotation(anno_path, Annotation(str(page_path), url, result.labels, texts, config.name))
    return result


def _meta_url(gold_path: Path) -> str:
    """WCXB keeps each page's address in meta/NAME.json beside gold/NAME.txt
    (data/wcxb: NAME.json beside NAME.txt); the annotation keeps it, since
    folds group pages by web site."""
    meta = next((m for m in (gold_path.with_suffix(".json"),
                             gold_path.parent.parent / "meta" / f"{gold_path.stem}.json")
                 if m.exists()), None)
    if meta is None:
        return ""
    try:
        url = json.loads(meta.read_text(encoding="utf-8")).get("url", "")
    except (OSError, ValueError, AttributeError) as e:
        raise VictorError(f"{meta}: not a JSON object with a url ({e})") from None
    return url if isinstance(url, str) and "\n" not in url else ""


@dataclass
class GoldReport:
    pages: int = 0
    skipped: int = 0  # .anno files that existed and were kept
    gold_words: int = 0
    gold_covered: int = 0
    content_words: int = 0
    content_found: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)

    def add(self, r: GoldLabels) -> None:
        self.pages += 1
        self.gold_words += r.gold_words
        self.gold_covered += r.gold_covered
        self.content_words += r.content_words
        self.content_found += r.content_found

    def summary(self) -> str:
        head = (f"total: {self.pages} pages annotated, {self.skipped} kept as they were, "
                f"{len(self.failed)} failed; ")
        # No gold word is no measure: "recall 100.00% of 0 gold words" was
        # printed for a gold that could not be read.
        if not self.pages:
            head += "no gold text was read"
        elif not self.gold_words:
            head += ("the gold is empty" if self.pages == 1 else "every gold is empty") + \
                ", no words to align"
        else:
            precision = self.content_found / self.content_words if self.content_words else 1.0
            head += (f"recall {self.gold_covered / self.gold_words:.2%} of {self.gold_words} "
                     f"gold words, precision {precision:.2%} of {self.content_words} "
                     "content words")
        lines = [head]
        lines.extend(f"failed: {name}: {why}" for name, why in self.failed)
        return "\n".join(lines)


def gold_pairs(gold_dir: str | os.PathLike, html_dir: str | os.PathLike,
               out_dir: str | os.PathLike) -> list[tuple[Path, Path, Path]]:
    """(gold, page, .anno) for every GOLD_DIR/NAME.txt: the page is
    HTML_DIR/NAME.html (or .htm, or .html.gz), the annotation OUT_DIR/NAME.anno. A gold
    file without its page still makes a pair, to be reported as failed."""
    gold_dir, html_dir, out_dir = Path(gold_dir), Path(html_dir), Path(out_dir)
    if not gold_dir.is_dir():
        raise VictorError(f"{gold_dir}: not a folder of gold text files")
    pairs = []
    for gold in sorted(gold_dir.glob("*.txt")):
        page = html_dir / f"{gold.stem}.html"
        for other in (f"{gold.stem}.htm", f"{gold.stem}.html.gz"):
            if not page.exists() and (html_dir / other).exists():
                page = html_dir / other
        pairs.append((gold, page, out_dir / f"{gold.stem}.anno"))
    if not pairs:
        raise VictorError(f"{gold_dir}: no gold text files (*.txt) in it")
    return pairs


def annotate_pairs(pairs: Iterable[tuple[Path, Path, Path]], config: Config, out: TextIO,
                   overwrite: bool = False) -> GoldReport:
    """Annotates every pair, one report line each; a bad pair is recorded
    and the rest go on. An existing .anno may hold a person's corrections,
    so it is kept unless `overwrite`."""
    report = GoldReport()
    for gold, page, anno in pairs:
        if anno.exists() and not overwrite:
            report.skipped += 1
            print(f"{anno}: exists, kept (--overwrite replaces it)", file=out)
            continue
        try:
            r = annotate_from_gold(gold, page, anno, config)
        except VictorError as e:
            report.failed.append((str(gold), str(e).removeprefix(f"{gold}: ")))
            continue
        except Exception as e:  # one bad page must not stop a batch
            report.failed.append((str(gold), f"internal error: {type(e).__name__}: {e}"))
            continue
        report.add(r)
        if not r.gold_words:  # a page that is all boilerplate (CleanEval's 32)
            print(f"{anno}: the gold is empty (no words): all {len(r.labels)} blocks are "
                  "boilerplate", file=out)
            continue
        content = sum(1 for label in r.labels if label != OTHER)
        print(f"{anno}: recall {r.recall:.2%} precision {r.precision:.2%} "
              f"({r.gold_words} gold words, {content} of {len(r.labels)} blocks content)", file=out)
    return report
