"""Feature values of snippets of real pages (thesis chapter 4), worked out by
hand: what a block's own text says (character and token classes, sentences,
duplicates, regular expressions). The snippets are in features_support.py.
Most use conftest's `exact` config, whose values read as counted."""

from __future__ import annotations

from features_support import COMMENT, SECOND_COMMENT, SIDEBAR, column, rows

from victor.config import Config


def test_char_and_token_classes(exact: Config) -> None:
    got = dict(rows(COMMENT, exact))
    smiley = got["(1) that pic you linked says 'Forbidden' ;("]
    # 43 characters: 29 letters, the digit 1, ( ) ' ' ; ( and 7 spaces.
    assert [smiley[f"char.{c}-abs"] for c in ("alpha", "num", "punct", "white", "other")] == [
        "29", "1", "6", "7", "0"]
    assert [smiley[f"char.{c}-rel"] for c in ("alpha", "num", "punct", "white", "other")] == [
        "67", "2", "13", "16", "0"]
    # (1) is a number, ;( is other, the 6 others are words.
    assert [smiley[f"token.{c}-abs"] for c in ("alpha", "num", "mix", "other")] == [
        "6", "1", "0", "1"]
    assert [smiley[f"token.{c}-rel"] for c in ("alpha", "num", "mix", "other")] == [
        "75", "12", "0", "12"]
    time = got["1:53 PM"]
    assert [time[f"char.{c}-abs"] for c in ("alpha", "num", "punct", "white", "other")] == [
        "2", "3", "1", "1", "0"]
    # data/cleaneval/14.html, line 190 (up to the first link): the
    # copyright sign is neither letter, digit nor punctuation.
    copyright = rows("        Copyright &copy; 2001 Yahoo! Inc. All rights reserved. ", exact)
    assert copyright[0][0] == "Copyright © 2001 Yahoo! Inc. All rights reserved."
    feats = copyright[0][1]
    assert feats["char.other-abs"] == "1"
    assert [feats[f"token.{c}-abs"] for c in ("alpha", "num", "mix", "other")] == [
        "6", "1", "0", "1"]  # Yahoo! and Inc. are words
    # data/cleaneval/13.html, line 101: "X11/Unix," "win32." and "X11."
    # mix letters and digits.
    mixed = ("<p>2) this is about konsole on X11/Unix, not kwrite and not notepad on win32. "
             "i know the similarity between konsole and kwrite or xterm and notepad can lead to "
             "confusion (he says, firmly tongue in cheek) but today's blog was about konsole. "
             "on X11. on Unix type platforms.</p>")
    assert column(mixed, exact, "token.mix-abs") == [(mixed[3:-4], "3")]


def test_sentences(exact: Config) -> None:
    got = dict(rows(SECOND_COMMENT, exact))
    first = got["I don't clock much difference between using kstart"]
    assert (first["sentence.count"], first["sentence.avg-length"]) == ("1", "9")  # don, t
    assert (first["sentence-begin"], first["sentence-end"]) == ("1", "0")
    rest = got["or not; 1.9s without, 1.27 with. Xterm on the other hand is 0.5s. But I've just "
               "noticed that using KDE on the same machine but with Debian feels faster than "
               "using KDE with SuSE, and these are the SuSE numbers."]
    # 3 sentences of 8, 8 and 28 words ("1.9s" is 1 and 9s, "I've" I and ve).
    assert (rest["sentence.count"], rest["sentence.avg-length"]) == ("3", "14")
    # A lower-case start continues the sentence of the block before.
    assert (rest["sentence-begin"], rest["sentence-end"]) == ("0", "1")
    # No abbreviations are known: "J." ends a sentence.
    sidebar = dict(rows(SIDEBAR, exact))
    assert sidebar["Aaron J. Seigo"]["sentence.count"] == "2"
    assert sidebar["the triumphs and travails of a shift-key-challenged KDE hacker"][
        "sentence-begin"] == "0"


def test_duplicates_compare_letters_only(exact: Config) -> None:
    both = [(t, f["duplicate-count"], f["first-duplicate"])
            for t, f in rows(COMMENT + SECOND_COMMENT, exact)]
    assert both.count(("By Anonymous, at", "2", "1")) == 1
    assert both.count(("By Anonymous, at", "2", "0")) == 1
    assert [b for b in both if b[0].endswith("PM")] == [
        ("1:53 PM", "2", "1"), ("2:08 PM", "2", "0")]  # the same letters, PM
    assert ("-Illissius", "1", "0") in both
    # data/dragnet/R695.html, lines 238 and 245: "more" links; blocks
    # without letters are compared on their characters.
    more = """<p class="more"><a href="http://www.albertmohler.com/2012/10/31/\
the-briefing-wednesday-october-31-2012/">&bull; Keep Reading &rarr;</a></p>
<p class="more"><a href="http://www.albertmohler.com/2012/10/30/\
the-briefing-tuesday-october-30-2012/">&bull; Keep Reading &rarr;</a></p>"""
    assert [(f["duplicate-count"], f["first-duplicate"]) for _, f in rows(more, exact)] == [
        ("2", "1"), ("2", "0")]
    # data/cleaneval/14.html, line 190: the two " - " between links.
    dashes = ("<a href=\"http://privacy.yahoo.com/\">Privacy Policy</a> - "
              "<a href=\"http://docs.yahoo.com/info/terms/\">Terms of Service</a> - "
              "<a href=\"http://docs.yahoo.com/info/copyright/copyright.html\">Copyright/IP "
              "Policy</a>")
    assert column(dashes, exact, "duplicate-count") == [
        ("Privacy Policy", "1"), ("-", "2"), ("Terms of Service", "1"), ("-", "2"),
        ("Copyright/IP Policy", "1")]


def test_regexps_give_the_number_of_the_first_matching_pattern(config: Config) -> None:
    # data/cleaneval/12.html, lines 195-197.
    reference = """<P><FONT FACE="Arial, Helvetica, sans-serif" SIZE="-1">Strauss, Valerie, \
<A HREF="http://www.washingtonpost.com/ac2/wp-dyn?pagename=article&node=&contentId=A51803-\
2000May22" target="_blank"><B>For 
  Students, No Dodging the Drafts</B></A>, Washington Post, May 23, 2000<BR>
  <I>http://washingtonpost.com/wp-dyn/articles/A51803-2000May22.html</I><BR>"""
    got = {t: (f["regexp.url"], f["regexp.date"], f["regexp.time"])
           for t, f in rows(reference, config)}
    assert got == {
        "Strauss, Valerie,": ("0", "0", "0"),
        "For Students, No Dodging the Drafts": ("0", "0", "0"),
        ", Washington Post, May 23, 2000": ("0", "2", "0"),  # month and day
        "http://washingtonpost.com/wp-dyn/articles/A51803-2000May22.html": ("1", "0", "0"),
    }
    # data/cleaneval/13.html, line 46.
    header = '  <h2 class="date-header">Monday, November 01, 2004</h2>'
    assert column(header, config, "regexp.date") == [("Monday, November 01, 2004", "2")]
    times = dict(column(COMMENT, config, "regexp.time"))
    assert times["1:53 PM"] == "1"  # 12-hour clock
    assert times["By Anonymous, at"] == "0"
