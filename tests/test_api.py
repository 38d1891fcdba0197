"""The README's Python API: `from victor import Cleaner`, on real pages."""

import subprocess
import sys
from pathlib import Path

import pytest
from model_support import shipped_cleaner

from victor import Cleaner
from victor.training import evaluate

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
    nor the WARC reader, nor Dask; the cleaneval config has no second pass,
    so it does not load LightGBM either, which the default config does; and
    no clean loads the CRF's trainer (sklearn-crfsuite, scikit-learn)."""
    probe = ("import sys, victor, victor.cli, victor.batch\n"
             "victor.extract(open('data/cleaneval/1.html', 'rb').read(), 'cleaneval')\n"
             "heavy = ('kenlm', 'victor.perplexity', 'victor.perplexity.ngram', 'fastwarc', 'dask', "
             "'distributed', 'lightgbm', 'victor.crf.estimator', 'sklearn_crfsuite', 'sklearn', "
             "'datatrove')\n"
             "print(sorted(m for m in heavy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=DATA.parent.parent)
    assert out.stdout.strip() == "[]"


def test_importing_a_stage_does_not_load_the_crf():
    probe = "import sys, victor.reading.text, victor.reading.parser; print('victor.crf' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=DATA.parent.parent)
    assert out.stdout.strip() == "False"


def _largest_page() -> bytes:
    """The largest page of data/ once unzipped (a 5 MB WCXB page)."""
    import gzip

    sizes = []
    for path in (DATA.parent).rglob("*"):
        if path.name.endswith(".html"):
            sizes.append((path.stat().st_size, path))
        elif path.name.endswith(".html.gz"):
            with gzip.open(path) as f:
                sizes.append((f.seek(0, 2), path))
    path = max(sizes)[1]
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(".gz") else data


def test_a_result_shows_itself_in_one_short_line_even_for_the_largest_page():
    """Issue 29: the repr of a result repeated the whole tree for every
    block and hung a REPL for minutes. The bound is far above a short
    line's cost: the collector may run during it (victor/collector.py)."""
    import time

    result = shipped_cleaner().clean(_largest_page(), "largest.html")
    start = time.perf_counter()
    shown = repr(result)
    elapsed = time.perf_counter() - start
    assert len(shown) < 1000 and "\n" not in shown and elapsed < 1.0
    assert shown.startswith("Result(source='largest.html', ") and f"{len(result.labels)} blocks" in shown
    for part in (result.page, *result.page.blocks[:100]):
        assert len(repr(part)) < 1000 and "\n" not in repr(part)
    assert f"{len(result.page.blocks)} blocks" in repr(result.page)


def test_a_result_pickles_and_still_renders_every_format():
    """So that it can come back from a worker process."""
    import pickle

    result = shipped_cleaner().clean((DATA / "23.html").read_bytes(), "23.html")
    back = pickle.loads(pickle.dumps(result))
    assert back.model is None  # the model stays behind: megabytes, the same for every page
    for fmt in ("text", "markdown", "cleaneval", "jsonl", "html", "blocks", "table"):
        assert back.render(fmt) == result.render(fmt)
    assert back.labels == result.labels and back.content == result.content
    assert repr(back) == repr(result)


def test_labels_given_anew_are_the_labels_every_output_renders():
    """A caller who decides again (a threshold of their own, a person's
    correction) sets `labels` and reads the outputs: they follow the new
    labels, even after an output was rendered from the old ones."""
    result = shipped_cleaner().clean((DATA / "23.html").read_bytes(), "23.html")
    before = result.text()
    first = next(i for i, label in enumerate(result.labels) if label != "o")
    result.labels = ["p" if i == first else "o" for i in range(len(result.labels))]
    assert result.text().strip() == result.texts[first].strip() != before.strip()
    assert result.markdown().strip() and result.markdown() != before
    result.labels = ["o"] * len(result.labels)
    assert result.text() == "" and result.confidence == 0.0
    # Labels that cannot be the page's are refused, and the result keeps its own.
    with pytest.raises(ValueError, match="labels for the page's"):
        result.labels = ["p"]
    with pytest.raises(ValueError, match="not 'x'"):
        result.labels = ["x"] * len(result.labels)
    assert result.labels == ["o"] * len(result.texts)


def test_a_result_of_a_deeply_nested_page_pickles():
    """Pickle recurses through a tree; a page nested as deep as Victor lets
    one be (256 elements) must pickle all the same. Built from the words
    of a real page, one a div, each inside the one before."""
    import pickle

    words = (DATA / "1.txt").read_text(encoding="utf-8").split()[:400]
    html = "<html><body>" + "".join(f"<div>{w} " for w in words) + "</body></html>"
    result = shipped_cleaner().clean(html, "deep.html")
    back = pickle.loads(pickle.dumps(result))
    assert back.text() == result.text() and back.html() == result.html()
    deepest = back.page.blocks[-1].containers
    assert len(deepest) > 200
    assert all(inner in outer.children for outer, inner in zip(deepest, deepest[1:]))


def test_cleaning_leaves_the_garbage_collector_as_it_found_it():
    """Cleaning pauses Python's cyclic collector (victor/collector.py); the
    caller's process gets it back as it was, on, or off if the caller
    turned it off, and after a page that fails as after one that cleans."""
    import gc

    from victor.errors import VictorError

    cleaner = Cleaner("cleaneval")
    page = (DATA / "23.html").read_bytes()
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            cleaner.clean(page).render("markdown")
            with pytest.raises(VictorError):
                cleaner.clean(b"<html><body></body></html>")
            assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_neither_the_package_nor_its_tests_import_research():
    """The product stands apart from the lab: `pip install` has no
    research/, so no module of victor/ may need it, and a test that did
    would test something no user has (a reference a test needs from
    research is a fixture under tests/expected/)."""
    import ast

    root = DATA.parent.parent
    found = []
    for path in [*root.glob("victor/**/*.py"), *root.glob("tests/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(root)}: {n}" for n in names
                      if n.split(".")[0] == "research"]
    assert found == []


def test_threads_may_share_a_cleaner_and_get_what_one_thread_gets(monkeypatch):
    """Issue 46: whether a Cleaner may be shared by threads. Its tagger's
    weight table starts afresh when full (200,000 rows, reached in a long
    run); made to do so every few pages here, a page scored while another
    thread started it afresh read rows of the emptier table (IndexError).
    Four threads sharing one Cleaner give each page the bytes one gives."""
    import gzip
    from concurrent.futures import ThreadPoolExecutor

    import pickle

    from repo_data import WCXB
    from victor.crf import tagger

    monkeypatch.setattr(tagger, "_TABLE_LIMIT", 1500)
    pages = [gzip.decompress(p.read_bytes()) for p in sorted(WCXB.glob("*.html.gz"))[:12]]
    alone = Cleaner()
    one = [alone.clean(page).jsonl() for page in pages]
    shared = Cleaner()
    with ThreadPoolExecutor(4) as pool:
        four = list(pool.map(lambda page: shared.clean(page).jsonl(), pages))
    assert four == one
    # The lock that guards it stays behind when a Cleaner is pickled.
    assert pickle.loads(pickle.dumps(Cleaner())).clean(pages[0]).jsonl() == one[0]
