"""The front door's API and outputs: extract() on text or bytes, typed and
importable from the package, and the formats as a user reads them."""

from __future__ import annotations

import gzip
import inspect
import json
import re

import pytest
from front_door_support import victor_main
from model_support import shipped_cleaner

import victor
from victor import output
from victor.reading.text import words
from victor.cleaner import Cleaner, extract
from victor.config import load_config
from victor.reading.encoding import decode
from victor.errors import VictorError
from victor.reading.page import read_page


# --- the API ---------------------------------------------------------------------

def test_extract_takes_text_or_bytes_and_returns_the_same_text(cleaneval):
    for name in ("1.html", "21.html"):  # 21: ISO-8859-1, declared by its <text> wrapper
        data = (cleaneval / name).read_bytes()
        text, _ = decode(data)
        assert extract(text) == extract(data) == shipped_cleaner().clean(data).text()
        assert isinstance(extract(text), str)
    assert extract(text, output="cleaneval") == shipped_cleaner().clean(data).cleaneval()


def test_extract_is_importable_from_the_package_and_typed():
    assert victor.extract is extract
    hints = inspect.get_annotations(extract, eval_str=True)
    assert hints["html"] == bytes | str and hints["return"] is str
    assert extract.__doc__ and Cleaner.__doc__ and Cleaner.clean.__doc__


def test_extract_refuses_an_unknown_format():
    with pytest.raises(VictorError, match="unknown output format 'pdf'"):
        extract("<p>Some text.</p>", output="pdf")


# --- outputs ----------------------------------------------------------------------

def test_markdown_has_headings_list_items_and_joined_paragraphs(cleaneval):
    """Markdown and the CleanEval format are read off the same kept tree:
    the same words in the same order, and a heading in one is a heading
    in the other."""
    result = shipped_cleaner("cleaneval").clean((cleaneval / "1.html").read_bytes())
    markdown = result.markdown()
    segments = [(line[1], line[3:]) for line in result.cleaneval().splitlines()[1:]]
    unlinked = re.sub(r"(?m)^\s*\d+\. ", "", re.sub(r"\]\([^)]*\)", "]", markdown))
    unlinked = unlinked.replace("*", "")  # "**A**dvertise" is one word
    assert words(unlinked) == words(" ".join(text for _, text in segments))
    headings = [words(line) for line in unlinked.splitlines() if line.startswith("#")]
    assert headings == [words(text) for kind, text in segments if kind == "h"]
    assert "## Your Home Will Sell\n\n- Fast\n- For Top Dollar\n" in markdown


def test_markdown_headings_take_their_level_and_syntax_in_text_stays_text():
    page = read_page(b"<h3>Top 10 things</h3><p>1. Eat <b>well</b>, then sleep.</p>"
                     b"<p># not a heading</p><ul><li>- a dash</li><li>two</li></ul>",
                     load_config("cleaneval"))
    assert [b.text for b in page.blocks] == [
        "Top 10 things", "1. Eat", "well", ", then sleep.", "# not a heading", "- a dash", "two"]
    tree = output.kept_tree(page.body, page.blocks, ["h", "p", "c", "c", "p", "l", "l"])
    assert output.markdown(tree) == (
        "### Top 10 things\n\n1\\. Eat **well**, then sleep.\n\n\\# not a heading\n\n"
        "- \\- a dash\n- two\n")


def test_jsonl_carries_the_metadata_the_page_declares(dragnet):
    record = json.loads(extract((dragnet / "143.html").read_bytes(), output="jsonl"))
    assert record["site_name"] == "msnbc.com"
    assert record["date"] == "2012-07-24T00:26:15"
    assert record["language"] == "en"
    assert record["description"].startswith("A $2.2 million expedition")
    assert record["canonical_url"].startswith("http://www.msnbc.msn.com/id/48294366/")
    assert list(record)[:3] == ["source", "url", "title"]


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_pages_on_standard_output_are_headed_by_their_names(cleaneval, tmp_path, fmt):
    pages = [cleaneval / "1.html", cleaneval / "10.html"]
    proc = victor_main("clean", "--format", fmt, *pages, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    one, two = (shipped_cleaner().clean(p.read_bytes()).render(fmt) for p in pages)
    assert proc.stdout == f"==> {pages[0]} <==\n{one}\n==> {pages[1]} <==\n{two}"
    # One page alone is printed as it is.
    assert victor_main("clean", "--format", fmt, pages[0], cwd=tmp_path).stdout == one


def test_jsonl_on_standard_output_is_one_object_a_line(cleaneval, tmp_path):
    proc = victor_main("clean", "--format", "jsonl", cleaneval / "1.html",
                       cleaneval / "10.html", cwd=tmp_path)
    lines = proc.stdout.splitlines()
    assert len(lines) == 2 and [json.loads(line)["source"] for line in lines] == [
        str(cleaneval / "1.html"), str(cleaneval / "10.html")]


@pytest.mark.parametrize("page", [None, 1, ["<p>text</p>"]])
def test_extract_refuses_what_is_no_page_in_one_line(page):
    """Issue 29: these failed inside the code with an AttributeError."""
    with pytest.raises(TypeError, match=r"^a page is str or bytes, not \w+$"):
        victor.extract(page)


def test_api_errors_name_the_page_only_when_it_has_a_name(tmp_path):
    """Issue 46: `VictorError: -: empty page...`; the "-" stood for a source
    the Python caller never gave."""
    from repo_data import WCXB

    with pytest.raises(VictorError) as empty:
        victor.extract(b"")
    assert str(empty.value) == "empty page, nothing to clean"
    page = gzip.decompress((WCXB / "0001.html.gz").read_bytes())
    packed = gzip.compress(page)  # a page saved gzipped and read as it is
    with pytest.raises(VictorError) as binary:
        shipped_cleaner().clean(packed)
    assert str(binary.value) == "not an HTML page (gzip-compressed data)"
    with pytest.raises(VictorError) as named:
        shipped_cleaner().clean(packed, source="0001.html")
    assert str(named.value) == "0001.html: not an HTML page (gzip-compressed data)"
    assert victor.extract(page).strip()


# --- the page's address and the rendering options (issue 46, item 7) -------------

def test_the_command_resolves_links_against_the_address_it_is_given(dragnet, tmp_path):
    """Saved pages' relative links stayed relative from the command line:
    only extract(url=) could resolve them. --url gives a page's address, or
    a folder's, whose pages' addresses follow their paths below it."""
    page = dragnet / "380.html"  # a blog post without <base> or canonical address
    link = "subscription-option-now-available.html"
    bare = victor_main("clean", "--format", "markdown", page, cwd=tmp_path)
    assert f"]({link})" in bare.stdout
    url = "https://blog.example.org/2012/01/380.html"
    given = victor_main("clean", "--format", "markdown", "--url", url, page, cwd=tmp_path)
    assert given.returncode == 0, given.stderr
    assert given.stdout == extract(page.read_bytes(), output="markdown", url=url)
    assert f"](https://blog.example.org/2012/01/{link})" in given.stdout
    site = tmp_path / "mirror"
    (site / "2012").mkdir(parents=True)
    (site / "2012" / "380.html").write_bytes(page.read_bytes())
    folder = victor_main("clean", "--format", "jsonl", "--url", "https://blog.example.org",
                         "-o", "out", "mirror", cwd=tmp_path)
    assert folder.returncode == 0, folder.stderr
    record = json.loads((tmp_path / "out/2012/380.jsonl").read_text(encoding="utf-8"))
    assert record["url"] == "https://blog.example.org/2012/380.html"


def test_rendering_options_are_keywords_on_a_result_as_in_extract(dragnet):
    """`result.markdown(links=False)` raised TypeError: it wanted a
    victor.output.Rendering, which no page documents. The positional
    Rendering still works."""
    data = (dragnet / "380.html").read_bytes()
    result = shipped_cleaner().clean(data)
    plain = result.markdown(links=False, images=False)
    assert plain == extract(data, output="markdown", links=False, images=False)
    assert plain == result.markdown(output.Rendering(links=False, images=False))
    assert plain == result.render("markdown", links=False, images=False)
    assert "](" not in plain and "](" in result.markdown()
    assert result.html(tables=False) == extract(data, output="html", tables=False)
    with pytest.raises(TypeError, match="a Rendering or keywords, not both"):
        result.markdown(output.Rendering(), links=False)
