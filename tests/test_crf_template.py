"""The CRF's templates: what a template line names, how it is checked and
hashed, and how it expands a page's feature columns into the attribute
strings the CRF is given."""

from pathlib import Path

import pytest

from victor.config import TEMPLATE_DIR
from victor.crf import Reference, compact_key, expand, load_template, parse_template
from victor.errors import VictorError

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- templates


def test_a_template_lists_features_at_offsets_and_their_combinations():
    template = parse_template(
        "# comment line\n"
        "container.*   [-1..1]   # trailing comment\n"
        "position\n"
        "bullet[-2, 0..1, +2]\n"
        "sentence-end[-1] & sentence-begin[0]\n", "t.tpl")
    assert template.lines == (
        (Reference("container.*", (-1, 0, 1)),),
        (Reference("position", (0,)),),
        (Reference("bullet", (-2, 0, 1, 2)),),
        (Reference("sentence-end", (-1,)), Reference("sentence-begin", (0,))),
    )


def test_a_wildcard_matches_every_feature_name_with_its_prefix():
    ref = Reference("split.*", (0,))
    assert ref.matches("split.br") and ref.matches("split.class-block")
    assert not ref.matches("splitter") and not ref.matches("container.p")
    assert Reference("*", (0,)).matches("anything")


def test_the_template_hash_ignores_comments_and_spacing():
    a = parse_template("a[-1..1] & b\n", "a.tpl")
    b = parse_template("# same meaning\n  a [ -1, 0, 1 ]&b[0]  \n", "b.tpl")
    c = parse_template("a[-1..1] & b[1]\n", "c.tpl")
    assert a.digest == b.digest != c.digest


@pytest.mark.parametrize("line, fault", [
    ("bullet[x]", "bad offset 'x'"),
    ("bullet[2..-2]", "offset range '2..-2' runs backwards"),
    ("bullet[]", "bad offset ''"),
    ("cont*iner[0]", "bad feature name 'cont\\*iner'"),
    ("sentence-end[-1] &", "expected FEATURE\\[OFFSETS\\], got ''"),
    ("bullet[0] position", "expected FEATURE\\[OFFSETS\\]"),
])
def test_a_malformed_line_is_reported_with_file_and_line_number(line, fault):
    with pytest.raises(VictorError, match=f"^my.tpl line 3: {fault}"):
        parse_template(f"# header\nposition\n{line}\n", "my.tpl")


def test_an_absent_line_names_values_that_emit_nothing_and_changes_the_hash():
    plain = parse_template("a[0]\n", "t.tpl")
    silent = parse_template("a[0]\n@absent 0  # zeros say nothing\n", "t.tpl")
    assert plain.absent == frozenset() and silent.absent == {"0"}
    assert plain.digest != silent.digest
    assert plain.digest == parse_template("# no directive\na[0]\n", "t.tpl").digest


@pytest.mark.parametrize("line, fault", [
    ("@absent", "@absent names no value"),
    ("@silent 0", "unknown directive '@silent'"),
])
def test_a_malformed_directive_is_reported_with_file_and_line_number(line, fault):
    with pytest.raises(VictorError, match=f"^my.tpl line 2: {fault}"):
        parse_template(f"position\n{line}\n", "my.tpl")


def test_a_template_must_name_something_and_exist(tmp_path):
    with pytest.raises(VictorError, match="^empty.tpl: template names no features"):
        parse_template("# only a comment\n\n", "empty.tpl")
    with pytest.raises(VictorError, match="nope.tpl: template file not found"):
        load_template(tmp_path / "nope.tpl")


def test_the_cleaneval_template_loads():
    template = load_template(TEMPLATE_DIR / "cleaneval.tpl")
    assert any(len(line) > 1 for line in template.lines)


# ---------------------------------------------------------------- expansion


def test_expansion_gives_each_block_its_attribute_strings():
    template = parse_template(
        "a[-1..1]\n"
        "b.*\n"
        "bag\n"
        "a[-1] & b.x[0]\n", "t.tpl")
    page = [
        {"a": "1", "b.x": "y", "b.z": "0", "bag": "nav menu"},
        {"a": "2", "b.x": "n", "bag": ""},
        {"a": "3", "unused": "q"},
    ]
    assert [sorted(attrs) for attrs in expand(template, page)] == [
        sorted(["bias", "__BOS__[-1]", "a[+0]=1", "a[+1]=2", "b.x[+0]=y", "b.z[+0]=0",
                "bag[+0]=nav", "bag[+0]=menu"]),
        sorted(["bias", "a[-1]=1", "a[+0]=2", "a[+1]=3", "b.x[+0]=n", "a[-1]=1|b.x[+0]=n"]),
        sorted(["bias", "__EOS__[+1]", "a[-1]=2", "a[+0]=3"]),
    ]


def test_a_single_feature_at_an_absent_value_emits_nothing_but_combinations_keep_it():
    template = parse_template("a[-1..1]\nb\na[0] & b[0]\n@absent 0\n", "t.tpl")
    page = [{"a": "0", "b": "1"}, {"a": "2", "b": "0"}]
    assert [sorted(attrs) for attrs in expand(template, page)] == [
        sorted(["bias", "__BOS__[-1]", "a[+1]=2", "b[+0]=1", "a[+0]=0|b[+0]=1"]),
        sorted(["bias", "__EOS__[+1]", "a[+0]=2", "a[+0]=2|b[+0]=0"]),
    ]


def test_the_crf_gets_each_attribute_under_a_short_fixed_key():
    template = parse_template("a[-1..1]\nb[0] & a[0]\n", "t.tpl")
    page = [{"a": "1", "b": "x y"}, {"a": "2", "b": "z"}]
    readable = expand(template, page)
    assert expand(template, page, compact=True) == [[compact_key(a) for a in attrs]
                                                    for attrs in readable]
    assert len(compact_key("container.class-header[+1]=1|split.br[+0]=3")) == 11
    assert compact_key("a[+0]=1") != compact_key("a[+0]=2")


def test_a_wildcard_combined_with_itself_pairs_distinct_features_once():
    template = parse_template("c.*[0] & c.*[0]\n", "t.tpl")
    [attrs] = expand(template, [{"c.a": "1", "c.b": "0", "c.c": "1"}])
    assert sorted(attrs) == ["bias", "c.a[+0]=1|c.b[+0]=0", "c.a[+0]=1|c.c[+0]=1",
                             "c.b[+0]=0|c.c[+0]=1"]


def test_a_bag_in_a_combination_gives_one_attribute_per_item():
    template = parse_template("cls[0] & pos[0]\n", "t.tpl")
    [attrs] = expand(template, [{"cls": "nav menu", "pos": "0"}])
    assert sorted(attrs) == ["bias", "cls[+0]=menu|pos[+0]=0", "cls[+0]=nav|pos[+0]=0"]


def test_offsets_reaching_past_both_edges_of_a_short_page_mark_each_edge():
    template = parse_template("a[-2..2]\n", "t.tpl")
    [attrs] = expand(template, [{"a": "1"}])
    assert sorted(attrs) == sorted(["bias", "a[+0]=1", "__BOS__[-2]", "__BOS__[-1]",
                                    "__EOS__[+1]", "__EOS__[+2]"])
    assert expand(template, []) == []


def test_pages_with_different_feature_sets_expand_independently():
    template = parse_template("f.*[0]\n", "t.tpl")
    assert expand(template, [{"f.a": "1"}]) == [["bias", "f.a[+0]=1"]]
    assert expand(template, [{"f.b": "2"}]) == [["bias", "f.b[+0]=2"]]
    # A value first met as a single item and later as a bag in the same column.
    assert sorted(expand(template, [{"f.a": "1"}, {"f.a": "1 2"}])[1]) == \
        ["bias", "f.a[+0]=1", "f.a[+0]=2"]
