"""benchmarks.stages: each stage's own time while the cleaner runs as it
always does, and the cleaner left as it was found."""

from __future__ import annotations

from repo_data import WCXB

from benchmarks import stages
from victor import decoding, features, output
from victor.batch.inputs import read_input
from victor.crf.model import Model


def _pages() -> list[bytes]:
    return [read_input(str(WCXB / name)) for name in ("0001.html.gz", "0383.html.gz")]


def test_every_stage_of_the_default_cleaner_is_timed_and_the_parts_make_the_whole():
    passes = stages.measure(_pages(), "markdown", passes=2)
    assert len(passes) == 2
    for seconds in passes:
        assert set(seconds) == {name for name, _ in stages.STAGES} | {stages.REST}
        assert all(t > 0 for name, t in seconds.items() if name != stages.REST)
    lines = stages.report(passes, 2).splitlines()
    assert [line.split("|")[1].strip() for line in lines[2:]] == [
        *(name for name, _ in stages.STAGES), stages.REST, "all"]


def test_a_stage_called_inside_another_is_taken_out_of_its_callers_time():
    clock = stages.Clock()
    inner = clock.timed("inner", lambda: sum(range(200_000)))
    outer = clock.timed("outer", lambda: inner())
    outer()
    assert clock.seconds["outer"] < clock.seconds["inner"]
    assert clock.running == []


def test_the_cleaner_is_left_as_it_was_found():
    before = (features.columns, decoding.decide, output.kept_tree, Model.column_scores)
    stages.measure(_pages()[:1], "text", passes=1)
    assert (features.columns, decoding.decide, output.kept_tree, Model.column_scores) == before
