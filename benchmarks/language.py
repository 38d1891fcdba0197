"""The language of the cleaned text (victor/output/language.py), measured: how
often it agrees with what the page declares (`<html lang>`, meta tags)
and with the language of the person's gold text, and what identifying it
costs a page. The pages where they disagree are written out, to be read
by hand: a declaration can be wrong too.

    python3 -m benchmarks.language [--config NAME] [--sample-chars N] [--disagreements FILE]
                                   [COLLECTION]

COLLECTION is a folder of html/NAME.html.gz with gold/NAME.txt (the
default: ../shared/data/wcxb-dev, pages in many languages) or of
NAME.html[.gz] with NAME.txt beside.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from benchmarks.common import collection_pages
from victor.cleaner import Cleaner
from victor.errors import VictorError
from victor.batch.inputs import read_input
from victor.output.language import SAMPLE_CHARS, identify

ROOT = Path(__file__).resolve().parents[1]


def declared(code: str) -> str:
    """`en-US`, `EN_gb` and `en` alike: the primary subtag, lowercased."""
    return code.strip().replace("_", "-").split("-")[0].lower()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("collection", nargs="?", default=str(ROOT.parent / "shared/data/wcxb-dev"))
    ap.add_argument("--config", default="general")
    ap.add_argument("--disagreements", help="write the pages where the languages differ here (TSV)")
    ap.add_argument("--sample-chars", type=int, default=SAMPLE_CHARS,
                    help=f"characters of the text looked at (default {SAMPLE_CHARS})")
    args = ap.parse_args(argv)

    identify("warm up the model: its loading is paid once, not by a page")
    cleaner = Cleaner(args.config)
    rows, seconds, n = [], 0.0, 0
    counts: Counter[str] = Counter()
    for page, gold in collection_pages(args.collection):
        try:
            result = cleaner.clean(read_input(str(page)), str(page))
        except VictorError:
            counts["refused"] += 1
            continue
        start = time.perf_counter()
        text_lang = identify(result.text(), args.sample_chars)
        seconds += time.perf_counter() - start
        n += 1
        said = declared(result.page.meta.language)
        gold_lang = identify(gold.read_text(encoding="utf-8", errors="replace")) if gold else ""
        counts["pages"] += 1
        counts["declared"] += bool(said)
        counts["agree declared"] += bool(said) and said == text_lang
        counts["gold told"] += bool(gold_lang)
        counts["agree gold"] += bool(gold_lang) and gold_lang == text_lang
        counts["not told"] += not text_lang
        counts[f"lang {text_lang or '-'}"] += 1
        if (said and said != text_lang) or (gold_lang and gold_lang != text_lang):
            rows.append((page.name, said or "-", text_lang or "-", gold_lang or "-",
                         " ".join(result.text().split())[:150]))
    print(f"pages {counts['pages']} (refused {counts['refused']})")
    print(f"declared a language: {counts['declared']}; the text's agrees: "
          f"{counts['agree declared']} ({counts['agree declared'] / max(1, counts['declared']):.1%})")
    print(f"gold text's language told: {counts['gold told']}; the text's agrees: "
          f"{counts['agree gold']} ({counts['agree gold'] / max(1, counts['gold told']):.1%})")
    print(f"too little text to tell: {counts['not told']}")
    print(f"identifying: {seconds / max(1, n) * 1000:.2f} ms a page (mean over {n})")
    print("languages: " + " ".join(f"{k[5:]} {v}" for k, v in counts.most_common()
                                   if k.startswith("lang ")))
    if args.disagreements:
        with open(args.disagreements, "w", encoding="utf-8") as f:
            f.write("page\tdeclared\ttext\tgold\tcleaned text\n")
            f.writelines("\t".join(row) + "\n" for row in rows)
        print(f"{len(rows)} pages where they differ: {args.disagreements}")


if __name__ == "__main__":
    main()
