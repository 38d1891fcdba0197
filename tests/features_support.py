"""What the feature tests share: snippets of real pages (thesis chapter 4),
cited by file under the repo's data/, a closing tag added to make a fragment
whole marked so; the config that keeps values as counted; and a snippet's
blocks with their features.

Most feature tests use a config whose value lists keep every whole number
to 100 and whose scales have 100 steps, so that an expected value reads as
counted: a count of 3 is "3", a share of 0.375 is "37"."""

from __future__ import annotations

from pathlib import Path

import yaml

from victor.config import CONFIG_DIR, TEMPLATE_DIR, Config, load_config
from victor.features import FEATURE_NAMES, KINDS, compute
from victor.features.context import COUNT, RATIO
from victor.reading.page import read_page

# data/cleaneval/13.html, lines 230-238 (a blog's sidebar; the closing
# </div> of #sidebar added).
SIDEBAR = """<div id="sidebar">

  <h2 class="sidebar-title">About</h2>
  
  <p>the triumphs and travails of a shift-key-challenged KDE hacker</p>
  
   <!-- Begin #profile-container -->
   
            <div id="profile-container"> <h2 class="sidebar-title">About Me</h2> \
<dl class="profile-datablock">   <dt class="profile-img"> \
<a href="http://www.blogger.com/profile/3912230"> \
<img width="63" alt="My Photo" height="80" src="http://aseigo.bddf.ca/images/ajs.jpg">   </a> </dt>\
   <dd class="profile-data"> <strong>Name:</strong>Aaron J. Seigo </dd>  \
<dd class="profile-data"> <strong>Location:</strong>Calgary, Alberta, Canada </dd>  </dl>  \
<p class="profile-link"> <a href="http://www.blogger.com/profile/3912230">View my complete \
profile</a> </p> </div>  
</div>"""

SIDEBAR_TEXTS = ["About", "the triumphs and travails of a shift-key-challenged KDE hacker",
                 "About Me", "My Photo", "Name:", "Aaron J. Seigo", "Location:",
                 "Calgary, Alberta, Canada", "View my complete profile"]

# data/cleaneval/13.html, lines 84-91: the first comment on a blog post
# (the <ul> closed).
COMMENT = """    <ul>
      
      <li id="c109934239304823775"><a name="c109934239304823775"></a>
        <div class="comment-body">
         <p>(1) that pic you linked says 'Forbidden' ;(<br />(2) Before I prelinked \
everything, KWrite took something like 3 seconds to start (after, it's more like one). \
Compare to Notepad under Windows, which starts *instantly*. A more comparable/advanced \
editor called EditPad Pro still starts up in ~half a second. MS Word 97 also starts up damn \
fast, well under a second, iirc (though I haven't tried in a while). The situation is similar \
with other KDE apps (or Linux apps in general? no idea, haven't tried GNOME).<br />Not \
bashing or anything; KDE rocks. But the first step to fixing a problem is recognizing that it \
exists. And this one most definitely does.<br /><br />-Illissius</p>
        </div>
        <p class="comment-data">By Anonymous, at <a href="#c109934239304823775" \
title="comment permalink">1:53 PM</a>
	  <span class="item-control admin-72405597 pid-875139531"><a style="border:none;" \
href="http://www.blogger.com/delete-comment.g?blogID=7615673&amp;postID=109934239304823775" \
title="Delete Comment" ><span class="delete-comment-icon">&nbsp;</span></a></span></p>
      </li></ul>"""

# data/cleaneval/13.html, lines 93-98: the second comment (its <li>
# closed).
SECOND_COMMENT = """      <li id="c109934328806258268"><a name="c109934328806258268"></a>
        <div class="comment-body">
         <p>I don't clock much difference between using kstart<br />or not; 1.9s without, \
1.27 with. Xterm on the other hand is 0.5s. But I've just noticed that using KDE on the same \
machine but with Debian feels faster than using KDE with SuSE, and these are the SuSE \
numbers.</p>
        </div>
        <p class="comment-data">By Anonymous, at <a href="#c109934328806258268" \
title="comment permalink">2:08 PM</a></p></li>"""


def exact_config(folder: Path) -> Config:
    """cleaneval.yaml with every feature but perplexity, counts kept whole
    and shares in hundredths, written to `folder`."""
    raw = yaml.safe_load((CONFIG_DIR / "cleaneval.yaml").read_text())
    raw["crf-features"] = [n for n in FEATURE_NAMES if n != "perplexity"]
    raw["values"] = {n: list(range(101)) for n, k in KINDS.items() if k == COUNT}
    raw["scales"] = {n: 100 for n, k in KINDS.items() if k == RATIO}
    path = folder / "exact.yaml"
    path.write_text(yaml.safe_dump(raw))
    return load_config(path)


def rows(html: str, config: Config) -> list[tuple[str, dict[str, str]]]:
    page = read_page(html.encode(), config)
    return [(b.text, feats) for b, feats in zip(page.blocks, compute(page, config))]


def column(html: str, config: Config, name: str) -> list[tuple[str, str]]:
    return [(text, feats[name]) for text, feats in rows(html, config)]


def perplexity_config(folder: Path, language_model: str | None = None) -> Path:
    """The cleaneval config with the perplexity feature, written into
    `folder`: one more name in its feature list, one more line in its
    template, and the language model it names (relative to the folder),
    else the shipped one."""
    template = (TEMPLATE_DIR / "cleaneval.tpl").read_text(encoding="utf-8")
    (folder / "perplexity.tpl").write_text(template + "perplexity [-1..1]\n", encoding="utf-8")
    features = [*load_config("cleaneval").crf_features, "perplexity"]
    config = folder / "cleaneval-perplexity.yaml"
    config.write_text(yaml.safe_dump({
        "base": "cleaneval", "template": "./perplexity.tpl", "crf-features": features,
        **({"perplexity-model": language_model} if language_model else {})}), encoding="utf-8")
    return config
