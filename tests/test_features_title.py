"""The title family (docs/features.md) on a real news page, worked out by
hand: the words a block shares with the page's <title>.

The snippet is dragnet-train/html/100.html: its <title> (line 1), and from
line 446 the date line, the tools, the headline, the photo caption, the
first two paragraphs of the story and the first two related links (the
closing </p></div> added). Counts are kept whole and shares in hundredths,
so that an expected value reads as counted.
"""

from __future__ import annotations


import pytest
import yaml

from victor.config import CONFIG_DIR, Config, load_config
from victor.features import KINDS, compute, select_features
from victor.features.context import COUNT, RATIO
from victor.reading.page import read_page

STORY = ("<title>Latest Amelia Earhart search falls short - CBS News</title>\n"
         """<div class="heading"> <div class="timeLine"> July 24, 2012 12:11 AM </div>\
 <div class="pagetools"> <ul>\
 <li><a class="printer2" target="_blank" href="/2102-201_162-57478379.html">Print</a><a class="icon_print"></a></li>\
 <li><span>Text </span><a class="icon_smaller"></a><a class="icon_larger"></a></li> </ul>\
 </div> </div> <div class="overviewHead">\
 <h1>Latest Amelia Earhart search falls short</h1> </div>\
 <div id="inlineSocialBarTopPlaceholder"></div> <!-- has video: -->\
 <!-- has Images: true --> <!-- has feature: --> <!-- is show: false -->\
 <!-- module channel: 201 --> <div id="storyMediaBox" class="storyMediaBox">\
 <div class="photoLarge">\
 <img src="http://i.i.com.com/cnwk.1d/i/tim/2012/07/03/amelia-earhart-AP0707111565_620x350.jpg" border="0" width="620" height="349"/>\
 <p>This undated file photo shows Amelia Earhart. A group of scientists and historians have launched a $2.2 million expedition to find out what happened to the famed aviator who went missing over the Pacific Ocean 75 years ago.&nbsp;(AP Photo)</p>\
 </div> <!-- 416 --> </div> <div class="storyText">\
 <p>(AP) HONOLULU - A $2.2 million expedition that hoped to find wreckage from famed aviator Amelia Earhart's final flight is on its way back to Hawaii without the dramatic, conclusive plane images searchers were hoping to attain.</p>\
 <p>	</p>\
 <p>But the group leading the search, The International Group for Historic Aircraft Recovery, still believes Earhart and her navigator crashed onto a reef off a remote island in the Pacific Ocean 75 years ago this month, its president told The Associated Press on Monday.</p>\
 <p>	</p>\
 <p><a href="http://www.cbsnews.com/8301-201_162-57465849/expedition-to-find-amelia-earhart-begins-in-honolulu/" >Expedition to find Amelia Earhart begins in Honolulu</a><br><a href="http://www.cbsnews.com/video/watch/?id=5394306n&tag=mncol;lst;3" >Watch: The Lost Journey Of Amelia Earhart</a><br></p></div>""")

NEW = ("title",)


@pytest.fixture(scope="module")
def exact(tmp_path_factory: pytest.TempPathFactory) -> Config:
    """general.yaml (which selects the title family), counts kept whole and shares
    in hundredths, so that an expected value reads as counted."""
    raw = yaml.safe_load((CONFIG_DIR / "general.yaml").read_text())
    raw["values"] = {n: list(range(1001)) for n, k in KINDS.items() if k == COUNT}
    raw["scales"] = {n: 100 for n, k in KINDS.items() if k == RATIO}
    path = tmp_path_factory.mktemp("configs") / "exact.yaml"
    path.write_text(yaml.safe_dump(raw))
    return load_config(path)


def story(config: Config) -> dict[str, dict[str, str]]:
    """Each block's features by the block's first words."""
    page = read_page(STORY.encode(), config)
    return {" ".join(b.text.split()[:3]): feats for b, feats in zip(page.blocks, compute(page, config))}


def test_the_test_config_selects_the_family(exact: Config) -> None:
    selected = select_features(exact)
    for family in NEW:
        assert any(n.startswith(family + ".") for n in selected)


def test_the_family_is_off_unless_a_config_turns_it_on() -> None:
    cleaneval = load_config("cleaneval")
    assert not any(n.startswith(tuple(f + "." for f in NEW)) for n in select_features(cleaneval))


def test_title_words_find_the_headline(exact: Config) -> None:
    got = story(exact)
    # The title: latest amelia earhart search falls short cbs news.
    headline = got["Latest Amelia Earhart"]
    # All 6 of its words are title words (a share of 1 is the top step, 99),
    # and they are 6 of the title's 8.
    assert (headline["title.in-title"], headline["title.of-title"]) == ("99", "75")
    link = got["Expedition to find"]  # amelia earhart: 2 of its 8 words, 2 of the title's 8
    assert (link["title.in-title"], link["title.of-title"]) == ("25", "25")
    assert (got["Print"]["title.in-title"], got["Print"]["title.of-title"]) == ("0", "0")


def test_title_features_are_0_without_a_title(exact: Config) -> None:
    page = read_page(STORY.split("\n", 1)[1].encode(), exact)
    assert {(f["title.in-title"], f["title.of-title"]) for f in compute(page, exact)} == {("0", "0")}
