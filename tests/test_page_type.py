"""The page's type (issue 49, docs/notes/second-pass.md, "Page types"): signals
of the whole page that tell an article from a product or a listing, a
classifier of them that `victor learn` trains as a part of the model, and
the second pass's `article-bars`, which a page the classifier calls an
article takes instead of the config's own. On real pages of data/wcxb,
whose NAME.json gives each page's type and address."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from front_door_support import victor_main
from model_support import shipped_cleaner
from repo_data import WCXB
from victor import features, page_type
from victor.cleaner import Cleaner
from victor.config import load_config
from victor.decoding import bars
from victor.errors import VictorError
from victor.page_type import page_signals
from victor.model import load, part_bytes, with_decoding
from victor.second_pass import page_paths

ARTICLES = ["0437", "4249", "4500", "0414", "4420", "0490", "0180", "4519", "0014", "4451",
            "4619", "0488"]
PRODUCTS = ["2898", "0599", "3052", "1377", "0611", "0593", "2889", "3078", "3054", "0595",
            "3043", "3079"]
# The general config without what reads the page type (the article bars,
# the readers' sections and the page-type booster): one set of bars for
# every page.
UNTYPED = """base: general
template: general
second-pass:
  article-bars: null
  comment-sections: null
  review-sections: null
  page-type-share: null
"""


# The general config's bars alone: the article bars, no readers' sections,
# no page-type booster.
BARS_ONLY = """base: general
template: general
second-pass:
  comment-sections: null
  review-sections: null
  page-type-share: null
"""


def untyped_config(folder: Path) -> Path:
    path = folder / "untyped.yaml"
    path.write_text(UNTYPED, encoding="utf-8")
    return path


def read(cleaner: Cleaner, name: str):
    """A WCXB page read at the address its record gives, as `--url` would."""
    url = json.loads((WCXB / f"{name}.json").read_text())["url"]
    return cleaner.read(gzip.decompress((WCXB / f"{name}.html.gz").read_bytes()), url=url)


def signals_of(name: str) -> dict[str, float]:
    cleaner = shipped_cleaner()
    page = read(cleaner, name)
    columns = features.columns(page, cleaner.config, cleaner.lm, cleaner.selected)
    return page_type.signals(page, page_paths(columns, page.blocks))


def test_the_signals_tell_an_article_from_a_product_and_a_listing():
    # data/wcxb/0001: a blog post at /2025/09/04/..., og:type article, a
    # JSON-LD Article with its author. 0610: a shop's mug at /shop/p/...,
    # og:type product, a JSON-LD Product with its price. 2911: Hacker News's
    # jobs, one linked line after another.
    article, product, listing = signals_of("0001"), signals_of("0610"), signals_of("2911")
    assert set(article) == set(product) == set(page_type.SIGNALS)
    assert article["url.article"] >= 1 and product["url.article"] == 0
    assert product["url.product"] >= 1 and article["url.product"] == 0
    assert (article["og.article"], product["og.product"]) == (1, 1)
    assert article["ld.article"] >= 1 and article["ld.product"] == 0
    assert product["ld.product"] >= 1 and product["ld.article"] == 0
    assert article["meta.author"] == 1 and product["meta.author"] == 0
    assert product["text.price"] >= 1 and article["text.price"] == 0
    assert listing["url.listing"] >= 1
    assert listing["link-share"] > 0.7 > article["link-share"]
    assert listing["long-share"] == 0 < article["long-share"]
    assert listing["path.in-groups5"] > article["path.in-groups5"]


def test_the_text_patterns_count_where_their_heads_stand_as_findall_counts():
    # page_signals._count tries a pattern only where one of its heads stands:
    # the same count as findall's, matches that overlap a head or a word
    # bound among them (checked on the 3,458 pages of data/ and WCXB's dev
    # set when it was written).
    texts = ["checkout of stock, add to bag; in stock out of stock sku xsku skus",
             "posts: posted, reply replies replying repost upvoted\nreputation thread:quote",
             "returns return: installation reinstall configure parameters example examples",
             ""]
    texts += ["\n".join(b.text for b in read(shipped_cleaner(), name).blocks).lower()
              for name in ("0001", "0610", "2911")]
    for name, heads in page_signals._HEADS.items():
        pattern = page_signals._TEXT[name]
        for text in texts:
            assert page_signals._count(pattern, heads, text) == len(pattern.findall(text)), name


def test_article_bars_are_read_only_at_their_probability(tmp_path):
    settings = load_config(untyped_config(tmp_path)).second_pass
    q, texts = [0.9, 0.45, 0.37, 0.1], ["a b c", "d e f g", "h i", "j"]
    typed = load_config("general").second_pass
    assert typed.article_bars is not None
    own = bars(settings, None, q, texts)
    assert bars(typed, None, q, texts) == own  # no classifier: the config's own bars
    assert bars(typed, None, q, texts, {"article": 0.89}) == own
    assert bars(typed, None, q, texts, {"article": 0.9}) == (0.5, 0.4)
    # --favor's bars still win.
    assert bars(typed, "precision", q, texts, {"article": 0.95}) == (0.6, 0.6)


def test_article_bars_are_checked_when_the_config_is_loaded(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(UNTYPED.replace("article-bars: null", "article-bars: {above: 2, keep: 0.5}"),
                   encoding="utf-8")
    with pytest.raises(VictorError,
                       match="key 'second-pass.article-bars.above': must be a probability"):
        load_config(bad)


def test_a_model_without_a_classifier_is_refused_a_config_with_article_bars(tmp_path):
    # A model made for one set of bars (learn --from-model drops the page
    # type, which nothing there reads) would not follow the general config's
    # article bars: the config is refused, naming the key.
    made = victor_main("learn", "--config", untyped_config(tmp_path), "--from-model", "general",
                       "-o", tmp_path / "M", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert not (tmp_path / "M" / "page-type.lgbm").exists()
    with pytest.raises(VictorError, match="key 'second-pass.article-bars'.*retrain"):
        Cleaner(config="general", model=tmp_path / "M")


@pytest.fixture(scope="module")
def typed_model(tmp_path_factory):
    """A tiny model of the general pipeline with the article bars, learnt
    from 12 WCXB articles and 12 WCXB products (their NAME.json gives their
    type), as tests/test_learn_whole.py learns one."""
    folder = tmp_path_factory.mktemp("typed")
    proc = victor_main("learn", "--config", "general", "-o", folder / "M", "--max-iterations", "5",
                       "--calibrate", "3", *(WCXB / f"{n}.anno" for n in ARTICLES + PRODUCTS),
                       cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return load(folder / "M")


def test_learn_writes_the_classifier_as_a_part_of_the_model(typed_model):
    folder = typed_model.folder
    assert sorted(p.name for p in folder.iterdir()) == ["crf.crfsuite", "model.json",
                                                         "page-type.lgbm", "second-pass.lgbm"]
    entry = typed_model.record["files"]["page-type"]
    assert entry["path"] == "page-type.lgbm"
    assert entry["bytes"] == (folder / "page-type.lgbm").stat().st_size
    assert typed_model.record["page-type"]["types"] == {"article": 12, "product": 12}
    assert typed_model.reads_page_type
    # A changed byte is caught before anything is read from it.
    data = bytearray((folder / "page-type.lgbm").read_bytes())
    data[-2] ^= 1
    (folder / "page-type.lgbm").write_bytes(bytes(data))
    with pytest.raises(VictorError, match="page-type.lgbm: its sha256"):
        load(folder)
    data[-2] ^= 1
    (folder / "page-type.lgbm").write_bytes(bytes(data))


def test_the_article_bars_clean_the_articles_and_only_them(typed_model, tmp_path):
    """Each page cleans as the article config would where the classifier
    calls it an article at 0.9 or more, else as the general config would:
    the same model's parts decided by one set of bars or the other."""
    general = with_decoding(typed_model, load_config(untyped_config(tmp_path)))
    article = with_decoding(typed_model, load_config("article"))
    assert general.page_type is None and article.page_type is None  # nothing reads it there
    (tmp_path / "bars.yaml").write_text(BARS_ONLY, encoding="utf-8")
    bars_only = with_decoding(typed_model, load_config(tmp_path / "bars.yaml"))
    typed = Cleaner.from_model(bars_only)
    mattered = set()
    for name, kind in (("4249", "article"), ("0014", "article"), ("3054", "product"),
                       ("3079", "product")):
        page = read(typed, name)
        columns = features.columns(page, typed.config, typed.lm, typed.selected)
        p = page_type.type_probabilities(bars_only.page_type, page,
                                         page_paths(columns, page.blocks))["article"]
        assert (p >= 0.9) == (kind == "article"), (name, p)
        labels = {which: Cleaner.from_model(m).label(read(typed, name)).labels
                  for which, m in (("typed", bars_only), ("general", general),
                                   ("article", article))}
        assert labels["typed"] == labels[kind if kind == "article" else "general"], name
        if labels["general"] != labels["article"]:
            mattered.add(kind)
    # Which pages the two sets of bars part on depends on the trained model;
    # they must part on an article and on a product, or nothing was shown.
    assert mattered == {"article", "product"}


@pytest.mark.shipped_model
def test_a_held_out_page_keeps_the_page_type_its_decision_read():
    """The benchmarks decide held-out pages again from what the fold
    stored (benchmarks.structure, other bars in benchmarks.quality): on an
    article the article bars change the labels, so the stored prediction
    must carry the probabilities they read, or the default config is
    measured without them."""
    from victor import decoding
    from victor.training import crossval, dataset

    cleaner = shipped_cleaner()
    name = "0437"
    page = read(cleaner, name)
    result = cleaner.label(page)
    example = dataset.load_examples([WCXB / f"{name}.anno"], cleaner.config)[0]
    assert len(example.texts) == len(result.texts)
    path = cleaner.model.best_labels(result.scores)
    held = crossval.Prediction(example.name, [], [], path, result.marginals, [])
    again = crossval.decided_again(held, example, result.second, cleaner.config,
                                   result.page_type)
    assert again.page_type == result.page_type and again.page_type["article"] >= 0.9

    def redecided(page_types):
        return decoding.decide(again.path, again.marginals, example.texts, example.layout,
                               cleaner.config, trees=lambda _: again.second,
                               page_type=page_types).labels

    assert redecided(again.page_type) == again.labels
    assert redecided(None) != again.labels  # the bars matter on this page


def test_cross_validation_gives_each_page_a_probability_from_the_other_folds():
    """Measured as `--cross-validate` measures the bars: a page's type
    probabilities come from a classifier of the other folds' typed pages,
    and none where those hold no typed page."""
    from victor.training.page_type import cross_fitted_types

    names = ARTICLES + PRODUCTS
    rows = np.vstack([page_type.row(signals_of(n)) for n in names])
    kinds = ["article"] * len(ARTICLES) + ["product"] * len(PRODUCTS)
    fold = [i % 6 for i in range(len(names))]  # 20 pages to learn from, each fold
    held = cross_fitted_types(rows, kinds, fold)
    assert all(p is not None and sum(p.values()) == pytest.approx(1) for p in held)
    # The articles, held out, are called articles more than the products are.
    articles = [p["article"] for p in held]
    assert np.mean(articles[:len(ARTICLES)]) > np.mean(articles[len(ARTICLES):])
    # Only fold 0's pages typed: its own classifier has nothing to learn from.
    untyped = [k if f == 0 else "" for k, f in zip(kinds, fold)]
    held = cross_fitted_types(rows, untyped, fold)
    assert all(held[i] is None for i, f in enumerate(fold) if f == 0)
    assert all(held[i] is not None for i, f in enumerate(fold) if f != 0)


def test_the_jsonl_record_names_the_page_type_where_the_model_reads_it():
    """A corpus builder can sort pages by kind: the record gives the
    likeliest type and every type's probability; a model whose bars read no
    type (the article config's) gives none rather than a guess."""
    general, article = shipped_cleaner(), shipped_cleaner("article")
    for name in ("0001", "2898"):
        kind = json.loads((WCXB / f"{name}.json").read_text())["page_type"]
        record = json.loads(general.label(read(general, name)).jsonl())
        assert set(record["page_types"]) == set(page_type.TYPES)
        assert sum(record["page_types"].values()) == pytest.approx(1, abs=1e-3)
        assert record["page_type"] == max(record["page_types"], key=record["page_types"].get)
        assert record["page_type"] == kind, name
        assert "page_type" not in json.loads(article.label(read(article, name)).jsonl())


def test_a_model_of_pages_without_their_type_lends_the_shipped_classifier(tmp_path):
    """A user's own pages carry no NAME.json: the default config still
    trains (the classifier reads the page alone, not the CRF), its model
    taking the shipped general model's classifier, and saying so."""
    from repo_data import CLEANEVAL, DRAGNET

    pages = [CLEANEVAL / "5.anno", CLEANEVAL / "12.anno", CLEANEVAL / "36.anno",
             DRAGNET / "R28.anno"]
    proc = victor_main("learn", "-o", tmp_path / "M", "--max-iterations", "5", "--calibrate", "2",
                       *pages, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "the shipped general model's classifier" in proc.stderr
    mine, shipped = load(tmp_path / "M"), load("general")
    assert part_bytes(mine, "page-type") == part_bytes(shipped, "page-type")
    assert mine.record["page-type"]["from"].startswith("the shipped general model")
    record = json.loads(Cleaner.from_model(mine).clean(
        (CLEANEVAL / "5.html").read_bytes()).jsonl())
    assert record["page_type"] in page_type.TYPES
