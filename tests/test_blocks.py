"""Blocks: the page's text split on tags (thesis 3.2 and 4.2)."""

from __future__ import annotations

import pytest

from victor.config import Config, load_config
from victor.reading.page import read_page


@pytest.fixture(scope="module")
def config() -> Config:
    return load_config("cleaneval")


def blocks(html: str, config: Config):
    return read_page(html.encode(), config).blocks


def test_any_tag_ends_a_block(config: Config) -> None:
    # The thesis's example (3.2).
    got = blocks("<p>Hello <b><i>world</i></b>!</p>", config)
    assert [b.text for b in got] == ["Hello", "world", "!"]
    assert [b.tags for b in got] == [("p",), ("p", "b", "i"), ("p",)]
    assert got[2].splits == ("/i", "/b")


def test_div_groups_are_the_blocks_directly_in_one_div(config: Config) -> None:
    # The thesis's example (4.2): groups (a, d, g), (b, c) and (e, f).
    got = blocks("<div> a <div> b c </div> d <div> e f </div> g </div>", config)
    assert [b.text for b in got] == ["a", "b c", "d", "e f", "g"]
    groups = [b.div_group for b in got]
    assert groups[0] == groups[2] == groups[4]
    assert len({groups[0], groups[1], groups[3]}) == 3
    assert {b.td_group for b in got} == {-1}


def test_each_line_of_pre_is_a_block(config: Config) -> None:
    # data/dragnet/T55.html, lines 18069-18080: a table of pitchers'
    # statistics; the empty line between the teams makes no block.
    html = """      <pre>         ERA  fWAR  bWAR  GS
Colon   3.38   2.3   2.4  22
Parker  3.55   2.3   2.2  19
Straily 5.06  -0.2   0.0   2
Milone  3.91   1.8   1.2  22
Griffin 2.42   0.8   1.6   8

Weaver  2.13   3.1   3.9  20
Greinke 3.74   3.9   2.2  24
Wilson  3.34   2.4   1.4  24
Haren   4.44   1.4  -0.2  20
</pre>"""
    got = blocks(html, config)
    assert [b.text for b in got] == [
        "ERA fWAR bWAR GS", "Colon 3.38 2.3 2.4 22", "Parker 3.55 2.3 2.2 19",
        "Straily 5.06 -0.2 0.0 2", "Milone 3.91 1.8 1.2 22", "Griffin 2.42 0.8 1.6 8",
        "Weaver 2.13 3.1 3.9 20", "Greinke 3.74 3.9 2.2 24", "Wilson 3.34 2.4 1.4 24",
        "Haren 4.44 1.4 -0.2 20"]
    assert all(b.tags == ("pre",) for b in got)
    assert got[1].splits == ("br",)
    assert got[6].splits == ("br", "br")


def test_img_alt_text_is_a_block_in_the_image(config: Config) -> None:
    # data/cleaneval/1.html, lines 77-78: the site's logo, a link home.
    html = """<a target="_top" href="http://1-las-vegas-real-estate.com">
<img border="0" src="logo.jpg" width="499" height="63" alt="Las Vegas Real Estate"></a>"""
    got = blocks(html, config)
    assert [(b.text, b.tags) for b in got] == [("Las Vegas Real Estate", ("a", "img"))]
    # Line 128: an image without alt text shows nothing to read.
    html = ('      <img border="0" src="http://1-las-vegas-real-estate.com/images/bullet.gif" '
            'width="7" height="12"> <a class="panel" href="">Our Team</a><br>')
    got = blocks(html, config)
    assert [(b.text, b.splits) for b in got] == [("Our Team", ("img", "a"))]
