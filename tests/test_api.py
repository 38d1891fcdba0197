"""The README's Python API: `from victor import Cleaner`, on real pages."""

import subprocess
import sys
from pathlib import Path

from victor import Cleaner, evaluate

DATA = Path(__file__).resolve().parent.parent / "data" / "cleaneval"


def test_cleaner_from_the_package_cleans_a_cleaneval_page_with_the_shipped_model():
    result = Cleaner("cleaneval").clean((DATA / "23.html").read_bytes())
    gold = evaluate.read_cleaneval(DATA / "23.txt")
    assert result.cleaneval().splitlines()[0] == f"URL: {gold.url}"
    assert len(result.labels) == len(result.content) == len(result.texts)
    assert evaluate.score_page("23", result.text(), gold.text).words.f1 > 0.9


def test_cleaning_imports_no_optional_part_it_does_not_use():
    """The shipped configs switch perplexity off: a clean (and the clean
    command's batch code) loads neither KenLM nor the language-model code,
    nor the WARC reader, nor Dask."""
    probe = ("import sys, victor, victor.cli, victor.batch\n"
             "victor.extract(open('data/cleaneval/1.html', 'rb').read())\n"
             "heavy = ('kenlm', 'victor.perplexity', 'victor.ngram', 'fastwarc', 'dask', "
             "'distributed')\n"
             "print(sorted(m for m in heavy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=DATA.parent.parent)
    assert out.stdout.strip() == "[]"


def test_importing_a_stage_does_not_load_the_crf():
    probe = "import sys, victor.text, victor.tidy; print('victor.crf' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=DATA.parent.parent)
    assert out.stdout.strip() == "False"
