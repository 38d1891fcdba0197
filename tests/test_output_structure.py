"""What the structured formats keep of a page's layout (issue #30): code
with its lines and indentation, data tables as tables and layout tables as
text, nested and numbered lists, links and images with absolute addresses,
inline tags that add no space, formulas as TeX.

Real pages from data/ are cleaned with the labels a person gave their
blocks (the .anno beside them), so that each test says what the output
makes of a given labelling, whatever a model would have kept."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import html5lib
import pytest
from front_door_support import victor_main
from model_support import shipped_cleaner
from repo_data import CLEANEVAL, ROOT

import victor
from victor import decoding, output
from victor.output import elements
from victor.annotation import load_annotation, load_training_page
from victor.config import load_config
from victor.batch.inputs import read_input
from victor.labels import OTHER
from victor.reading.layout import BLOCK_LEVEL
from victor.reading.page import read_page
from victor.reading.text import words

WCXB = ROOT / "data" / "wcxb"


def person_labelled(anno: Path, config: str = "general") -> tuple[object, list[str], str]:
    """The page, its labels with each code block and data table kept or
    dropped whole by the most of its words (as the decoding does by the
    CRF's probabilities), and the page's address."""
    page, labels = load_training_page(anno, load_config(config))
    labels = whole_units(page, labels, [float(lab != OTHER) for lab in labels], 0.5)
    return page, labels, load_annotation(anno).url


def whole_units(page, labels: list[str], content: list[float], bar: float) -> list[str]:
    """decoding.whole on the page's code blocks and data tables alone."""
    found = decoding.layout(page.blocks)
    return decoding.whole([b.text for b in page.blocks], labels, content, found.units, bar,
                          found.lists, None)


def whole_lists(page, labels: list[str], content: list[float], bar: float) -> list[str]:
    """decoding.whole on the page's lists alone."""
    found = decoding.layout(page.blocks)
    return decoding.whole([b.text for b in page.blocks], labels, content, found.units, None,
                          found.lists, bar)


def markdown(anno: Path, options: output.Rendering = output.Rendering()) -> str:
    page, labels, url = person_labelled(anno)
    return output.markdown(output.kept_tree(page.body, page.blocks, labels, url), options)


def text(anno: Path) -> str:
    page, labels, url = person_labelled(anno)
    return output.text(output.kept_tree(page.body, page.blocks, labels, url))


def test_code_keeps_its_lines_and_indentation():
    """A C function in a <pre> of highlighted spans, line numbers in a
    gutter beside it (WCXB 0415)."""
    md = markdown(WCXB / "0415.anno")
    assert "```c\ntypedef uint32_t codepoint_t;\n" in md
    assert "\n    size_t i = 0, j = 0;\n    while (i < text_length && j < codepoint_length) {\n" in md
    assert "\n        uint8_t byte1 = text[i];\n" in md
    # The gutter's line numbers are not code, nor a block of their own.
    code = md.split("```c\n", 1)[1].split("\n```", 1)[0]
    assert not [line for line in code.split("\n") if line.strip().isdigit()]
    assert "#hl-0-1" not in md
    plain = text(WCXB / "0415.anno")
    assert "\n    size_t i = 0, j = 0;\n" in plain


@pytest.mark.parametrize("name", sorted(elements._GUTTERS))
def test_a_box_of_line_numbers_named_as_highlighters_name_it_is_left_out(name):
    html = (f"<div><div class='wrap {name}'>1 2 3</div>"
            "<pre><code>x = 1\ny = 2\nz = 3</code></pre></div>")
    page = read_page(html, load_config("general"))
    kept = output.text(output.kept_tree(page.body, page.blocks, ["p"] * len(page.blocks)))
    assert "x = 1\ny = 2" in kept
    assert "1 2 3" not in kept


def test_a_data_table_with_a_header_is_a_github_table():
    lines = markdown(WCXB / "0415.anno").split("\n")
    head = next(i for i, line in enumerate(lines) if line.startswith("| Codepoint Range"))
    cells = [c.strip() for c in lines[head].strip("|").split("|")]
    assert cells == ["Codepoint Range", "Byte 1", "Byte 2", "Byte 3", "Byte 4"]
    assert re.fullmatch(r"\|( -+ \|)+", lines[head + 1])
    first = [c.strip() for c in lines[head + 2].strip("|").split("|")]
    assert first[:2] == ["`U+0000`–`U+007F`", "0xxxxxxx"]
    # In text, a row is one line with its cells apart.
    assert "\nU+0800–U+FFFF\t1110xxxx\t10xxxxxx\t10xxxxxx\n" in text(WCXB / "0415.anno")


def test_a_layout_table_is_not_drawn_as_a_table():
    """CleanEval 1 lays its whole page out in nested tables."""
    md = markdown(CLEANEVAL / "1.anno")
    assert "## Your Home Will Sell" in md
    assert not any(line.startswith("|") for line in md.split("\n"))


def test_nested_and_ordered_lists():
    nested = markdown(WCXB / "0025.anno")
    assert re.search(r"^- \*\*College Selection Decision Matrix \(CSDM\):\*\*\n  [*-] Customized "
                     r"research for the colleges", nested, re.M)
    ordered = markdown(CLEANEVAL / "1.anno")
    assert "1. Unique Team System\n2. Innovative Consumer Programs\n3. Leading Edge Technology\n" \
           in ordered
    # In text, a list item is a line of its own.
    assert "\n- Fast\n- For Top Dollar\n" in text(CLEANEVAL / "1.anno")


def test_links_and_images_resolve_against_the_page_address():
    """WCXB 0216 links its programmes and images by paths relative to the
    site; the annotation gives the page's address."""
    md = markdown(WCXB / "0216.anno")
    assert ("](https://professional.mit.edu/programs/certificate-programs/blended-professional-"
            "certificate-technology-leadership-program)") in md
    assert ("![Professional Certificate Program in Digital Transformation Cert Image]"
            "(https://professional.mit.edu/sites/default/files/2020-08/PCDT_0.jpg)") in md
    assert not re.search(r"\]\((?!https?://|#|mailto:)", md)
    bare = markdown(WCXB / "0216.anno", output.Rendering(links=False, images=False))
    assert "](" not in bare and "Digital Transformation Cert Image" in bare


def test_inline_tags_add_no_space():
    page = ('<p>At <b>Scratch Culinary</b><span>, we keep</span> See <a href="x">this link</a>. '
            'It is <i>very</i>, very good, price 5<sup>th</sup> or H<sub>2</sub>O.</p>')
    assert victor.extract(page) == ("At Scratch Culinary, we keep See this link. It is very, "
                                    "very good, price 5th or H2O.\n")
    assert victor.extract(page, output="markdown") == (
        "At **Scratch Culinary**, we keep See [this link](x). It is *very*, very good, price "
        "5<sup>th</sup> or H<sub>2</sub>O.\n")


def test_no_space_before_punctuation_the_page_does_not_have():
    """WCXB 0009 links words inside its sentences: the word and the comma
    or full stop after the link stay together."""
    plain = text(WCXB / "0009.anno")
    page_words = sum(1 for _ in re.finditer(r"\w+", plain))
    spaced = len(re.findall(r"\w\s+[,.;:!?)]", plain))
    assert spaced <= 1 + page_words // 1000


def test_boxes_side_by_side_are_words_apart():
    """WCXB 0117 shows a student's work with its tags as pills, links side
    by side with no space between (`<a class="pill-button">Student
    Work</a><a class="pill-button">Company Rebrand</a>`); the page's style
    sheet sets them apart, and so must the output."""
    assert "Student Work Company Rebrand" in text(WCXB / "0117.anno")
    assert "[Student Work](https://" in markdown(WCXB / "0117.anno")


def test_a_word_split_over_elements_of_type_stays_one_word():
    """CleanEval 1 and 23 set a drop cap in its own element
    (`<b>A</b><font size="2">dvertise</font>`,
    `<font color="#FF0000">L</font><font face="Times">earning`)."""
    assert "\nAdvertise themselves\n" in text(CLEANEVAL / "1.anno")
    assert "\nLearning Standards English Language Arts\n" in text(CLEANEVAL / "23.anno")


def everything(page) -> list[str]:
    return ["p"] * len(page.blocks)


FORMULAS = ('<p>Euler: <math alttext="e^{i\\pi}+1=0"><mi>e</mi></math> holds.</p>'
            '<p>Energy <math><semantics><mrow><mi>E</mi></mrow><annotation encoding="application/'
            'x-tex">E=mc^2</annotation></semantics></math> and mass.</p>'
            '<p>Area <script type="math/tex">\\pi r^2</script> of a circle.</p>'
            '<p>A sum:</p><script type="math/tex; mode=display">\\sum_{k=1}^n k</script>'
            '<p>Plain <math><mi>x</mi><mo>+</mo><mn>1</mn></math> text.</p>')


def test_formulas_come_out_as_tex():
    page = read_page(FORMULAS, load_config("general"))
    tree = output.kept_tree(page.body, page.blocks, everything(page))
    md = output.markdown(tree)
    assert "Euler: $e^{i\\pi}+1=0$ holds." in md
    assert "Energy $E=mc^2$ and mass." in md
    assert "Area $\\pi r^2$ of a circle." in md
    assert "\n$$\\sum_{k=1}^n k$$\n" in md
    assert "Plain x+1 text." in md
    assert "Euler: $e^{i\\pi}+1=0$ holds." in output.text(tree)
    # The HTML keeps the page's MathML.
    assert '<math alttext="e^{i\\pi}+1=0"><mi>e</mi></math>' in output.clean_html(tree)


def test_formulas_do_not_change_the_blocks():
    """A formula is an aside the CRF does not see: the text around it is
    one block, as when formulas were deleted."""
    page = read_page(FORMULAS, load_config("general"))
    assert [b.text for b in page.blocks][:2] == ["Euler: holds.", "Energy and mass."]


def test_text_only_in_dropped_blocks_is_gone():
    """A table's rows the labels drop leave no empty row behind, and a box
    whose every block is dropped leaves nothing."""
    page = read_page("<div><p>Kept text here.</p><p>Dropped text.</p></div>"
                     "<nav><a href='/'>Home</a></nav>", load_config("general"))
    labels = ["p", "o", "o"]
    tree = output.kept_tree(page.body, page.blocks, labels)
    assert output.text(tree) == "Kept text here.\n"
    assert output.clean_html(tree).split() == ["<div>", "<p>Kept", "text", "here.</p></div>"]


def shown_words(html: str) -> Counter:
    """The words a browser shows of an HTML5 page: its text, boxes set apart,
    and the numbers of ordered lists' items (not its images' alt text)."""
    parser = html5lib.HTMLParser(strict=False, namespaceHTMLElements=False)
    body = parser.parse(html).find("body")
    assert parser.errors == []
    parts: list[str] = []

    def walk(el, number: int | None = None) -> None:
        box = el.tag in BLOCK_LEVEL or el.tag == "br"
        parts.append(" " if box else "")
        if number is not None:
            parts.append(f"{number}. ")
        parts.append(el.text or "")
        count = int(el.get("start", 1)) if el.tag == "ol" else None
        for child in el:
            if count is not None and child.tag == "li":
                count = int(child.get("value", count))
                walk(child, count)
                count += 1
            else:
                walk(child)
        parts.append((" " if box else "") + (el.tail or ""))
    walk(body)
    return Counter(words("".join(parts)))


@pytest.mark.parametrize("anno", [WCXB / "0415.anno", WCXB / "0216.anno", CLEANEVAL / "1.anno"])
def test_html_parses_and_says_the_words_of_the_text(anno: Path):
    result = shipped_cleaner().clean(read_input(load_annotation(anno).source))
    assert shown_words(result.html()) == Counter(words(result.text()))


def test_a_code_block_is_kept_or_dropped_whole():
    """decoding.whole on WCXB 0415's C function: some of its lines
    likely enough keep all of it; all of them unlikely drop all of it."""
    page, labels, _ = person_labelled(WCXB / "0415.anno")
    code = next(u for u in decoding.layout(page.blocks).units
                if any("codepoint_parse" in page.blocks[i].text for i in u))
    content = [0.9] * len(page.blocks)
    for n, i in enumerate(code):
        content[i] = 0.3 if n % 2 else 0.02  # every other line likely enough
    dropped = list(labels)
    for i in code[::2]:
        dropped[i] = OTHER
    kept = whole_units(page, dropped, content, 0.1)
    assert all(kept[i] != OTHER for i in code)
    unlikely = [0.02 if i in code else p for i, p in enumerate(content)]
    assert all(lab == OTHER for i, lab in enumerate(whole_units(page, labels, unlikely, 0.1))
               if i in code)


def test_a_list_gets_back_the_items_its_likely_content_left_out():
    """decoding.whole on WCXB 0022's five questions to ask of a
    business school: one item dropped among likely ones comes back as an
    item of the list; a list mostly unlikely gets nothing back."""
    page, labels, url = person_labelled(WCXB / "0022.anno")
    items = next(u for u in decoding.layout(page.blocks).lists
                 if any("alumni network" in page.blocks[i].text for i in u))
    content = [float(lab != OTHER) for lab in labels]
    dropped = list(labels)
    dropped[items[1]], content[items[1]] = OTHER, 0.2
    kept = whole_lists(page, dropped, content, 0.5)
    assert kept[items[1]] == "l" and kept[:items[1]] + kept[items[1] + 1:] == \
        dropped[:items[1]] + dropped[items[1] + 1:]
    md = output.markdown(output.kept_tree(page.body, page.blocks, kept, url))
    assert re.search(r"^- Is the alumni network interesting", md, re.MULTILINE)
    unlikely = [0.1 if i in items else p for i, p in enumerate(content)]
    assert whole_lists(page, dropped, unlikely, 0.5) == dropped


def test_the_command_leaves_links_images_and_tables_out_when_asked(tmp_path):
    page = tmp_path / "page.html"
    page.write_text("<p>See <a href='/x'>the report</a> and <img src='a.png' alt='a chart'> of "
                    "the year, with its figures below and the words a reader came for.</p>"
                    "<table><tr><th>Year</th><th>Sales</th></tr><tr><td>2024</td><td>12</td></tr>"
                    "<tr><td>2025</td><td>15</td></tr></table>", encoding="utf-8")
    out = victor_main("--format", "markdown", "--no-links", "--no-images", "--no-tables", page,
                      cwd=ROOT, command="clean")
    assert out.returncode == 0, out.stderr
    assert "](" not in out.stdout and "|" not in out.stdout
    assert "the report" in out.stdout


def test_paragraphs_are_what_the_text_puts_a_blank_line_between():
    """WCXB 0415 as a person labelled it: a list, a data table and a C
    function with a blank line inside it are each one paragraph, their
    lines kept; the text is the paragraphs a blank line apart."""
    page, labels, url = person_labelled(WCXB / "0415.anno")
    tree = output.kept_tree(page.body, page.blocks, labels, url)
    found = output.paragraphs(tree)
    assert "\n\n".join(found) + "\n" == output.text(tree)
    items = found[found.index("Namely:") + 1]
    assert items.startswith("1. Tokenizing text into lines or whitespace-separated tokens,")
    assert "\n2. Case-folding text into lowercase form," in items
    table = next(p for p in found if p.startswith("Codepoint Range\tByte 1"))
    assert table.split("\n")[1:3] == ["U+0000–U+007F\t0xxxxxxx",
                                      "U+0080–U+07FF\t110xxxxx\t10xxxxxx"]
    # Code's blank lines do not split it: the text split at blank lines would.
    code = next(p for p in found if p.startswith("typedef uint32_t codepoint_t;\n\nvoid"))
    assert "\n    while (i < text_length && j < codepoint_length) {\n" in code
    assert all(p and p == p.strip() for p in found)
