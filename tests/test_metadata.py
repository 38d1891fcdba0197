"""Page metadata: what a page declares about itself in <meta> tags, the
<html lang> attribute and JSON-LD, read before preclean drops them."""

import gzip
from pathlib import Path

from victor.config import load_config
from victor.reading.page import read_page

DATA = Path(__file__).resolve().parent.parent / "data"
CONFIG = load_config("cleaneval")


def meta_of(html: bytes | str):
    data = html.encode() if isinstance(html, str) else html
    return read_page(data, CONFIG).meta


def test_open_graph_and_article_tags_give_address_site_date_and_language():
    # data/dragnet/143.html: <html lang="en">, og:url, og:site_name "msnbc.com",
    # article:published_time, and an article:author that is an address.
    meta = meta_of((DATA / "dragnet/143.html").read_bytes())
    assert meta.url == ("http://www.msnbc.msn.com/id/48294366/ns/technology_and_science-science"
                        "/t/searchers-find-no-sign-amelia-earharts-plane/")
    assert meta.site_name == "msnbc.com"
    assert meta.date == "2012-07-24T00:26:15"
    assert meta.language == "en"
    assert meta.title.startswith("Searchers find no sign of Amelia Earhart's plane")
    assert meta.description.startswith("A $2.2 million expedition that hoped to find wreckage")
    assert meta.author == ""  # a profile address is no author's name


def test_json_ld_gives_the_author_the_tags_leave_out_and_the_article_body():
    # data/wcxb/0004.html.gz has no author tag; its NewsArticle JSON-LD names one.
    meta = meta_of(gzip.decompress((DATA / "wcxb/0004.html.gz").read_bytes()))
    assert meta.author == "Korin Miller"
    assert meta.date == "2025-01-29T18:10:00Z"
    assert meta.site_name == "Prevention"
    assert meta.language == "en-US"
    assert meta.structured_text[0].startswith("Food and nutrition advice is constantly changing")


def test_a_cleaneval_page_keeps_its_wrapper_address_and_its_description():
    page = read_page((DATA / "cleaneval/1.html").read_bytes(), CONFIG)
    assert page.url == "http://1-las-vegas-real-estate.com/homes/sellers/list_today/"
    assert page.meta.url == ""  # the page itself declares none
    assert page.meta.description.startswith("Getting Your Las Vegas Home Listed and sold FAST")
    assert page.meta.author == page.meta.date == page.meta.site_name == ""


def test_tags_beat_json_ld_and_html_lang_beats_both():
    meta = meta_of('<html lang="cs"><head><title>T</title>'
                   '<meta name="author" content="Tag Author">'
                   '<meta http-equiv="content-language" content="de">'
                   '<script type="application/ld+json">{"@type": "Article", "author": '
                   '{"@type": "Person", "name": "Json Author"}, "inLanguage": "fr", '
                   '"headline": "H", "datePublished": "2020-01-02", '
                   '"publisher": {"name": "Pub"}}</script></head><body><p>x</p></body></html>')
    assert (meta.author, meta.language, meta.title, meta.date, meta.site_name) == (
        "Tag Author", "cs", "T", "2020-01-02", "Pub")


def test_json_ld_in_a_graph_skips_site_and_person_descriptions():
    meta = meta_of('<script type="application/ld+json">{"@graph": ['
                   '{"@type": "WebSite", "name": "Site", "description": "about the site"},'
                   '{"@type": "Person", "name": "A", "description": "about the author"},'
                   '{"@type": ["BlogPosting"], "articleBody": "The   body\\n text.",'
                   ' "author": [{"name": "A"}, {"name": "B"}]}]}</script><p>x</p>')
    assert meta.site_name == "Site"
    assert meta.author == "A, B"
    assert meta.structured_text == ["The body text."]


def test_broken_json_ld_is_ignored_and_the_page_still_cleans():
    page = read_page(b'<script type="application/ld+json">{"author": </script>'
                     b'<script type="application/ld+json">[[[[1]]]]</script><p>Text here.</p>',
                     CONFIG)
    assert page.meta.author == "" and page.meta.structured_text == []
    assert [b.text for b in page.blocks] == ["Text here."]


def test_a_json_ld_type_that_is_not_a_string_is_no_type_and_no_crash():
    # data/wcxb/0004.html.gz with its NewsArticle's @type made an object,
    # then a list holding one: set() of either raised TypeError.
    page = gzip.decompress((DATA / "wcxb/0004.html.gz").read_bytes())
    for damaged in (b'"@type":{"x":1}', b'"@type":[{"x":1},"NewsArticle"]'):
        meta = meta_of(page.replace(b'"@type":"NewsArticle"', damaged, 1))
        assert meta.author == "Korin Miller"


def test_metadata_elements_stay_out_of_the_blocks():
    page = read_page(b'<html><head><meta name="description" content="Desc"></head><body>'
                     b'<p>One.</p><script type="application/ld+json">{"text": "LD"}</script>'
                     b'<meta itemprop="datePublished" content="2001-02-03"><p>Two.</p></body>',
                     CONFIG)
    assert [b.text for b in page.blocks] == ["One.", "Two."]
    assert (page.meta.description, page.meta.date, page.meta.structured_text) == (
        "Desc", "2001-02-03", ["LD"])


def test_what_a_page_declares_itself_to_be_from_og_type_json_ld_and_microdata():
    # data/wcxb/0610.html.gz (a product page): og:type product, and JSON-LD
    # whose Product carries its Offer nested; the site's own items are read too.
    shop = meta_of(gzip.decompress((DATA / "wcxb/0610.html.gz").read_bytes()))
    assert shop.og_type == "product"
    assert {"product", "offer"} <= set(shop.declared_types)
    # data/wcxb/3052.html.gz declares its product in microdata alone
    # (itemtype="http://schema.org/Product" and its Offer and rating).
    microdata = meta_of(gzip.decompress((DATA / "wcxb/3052.html.gz").read_bytes()))
    assert microdata.og_type == "website"
    assert sorted(microdata.declared_types) == ["aggregaterating", "offer", "product"]
    # data/wcxb/0004.html.gz, a news article: JSON-LD NewsArticle, and a
    # microdata breadcrumb of three items.
    article = meta_of(gzip.decompress((DATA / "wcxb/0004.html.gz").read_bytes()))
    assert article.og_type == "article"
    assert article.declared_types[0] == "newsarticle"
    assert article.declared_types.count("listitem") == 3
