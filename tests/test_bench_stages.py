"""benchmarks.stages: each stage's own time while the cleaner runs as it
always does, and the cleaner left as it was found."""

from __future__ import annotations

import time

import pytest
from repo_data import WCXB

from benchmarks import stages
from victor.batch.inputs import read_input


def _pages() -> list[bytes]:
    return [read_input(str(WCXB / name)) for name in ("0001.html.gz", "0383.html.gz")]


def _places() -> dict[str, object]:
    """What each of STAGES' places holds now."""
    return {place: stages.located(place)[2] for _, places in stages.STAGES for place in places}


def test_every_stage_of_the_default_cleaner_is_timed_and_little_is_left_to_the_rest():
    passes, refused = stages.measure(_pages(), "markdown", passes=2)
    assert len(passes) == 2 and refused == 0
    for seconds in passes:
        assert set(seconds) == {name for name, _ in stages.STAGES} | {stages.REST}
        assert all(t > 0 for name, t in seconds.items() if name != stages.REST)
        # A step of the cleaner no stage names (or one counted twice) shows here.
        assert 0 <= seconds[stages.REST] < 0.25 * sum(seconds.values())
    lines = stages.report(passes, 2).splitlines()
    assert [line.split("|")[1].strip() for line in lines[2:]] == [
        *(name for name, _ in stages.STAGES), stages.REST, "all"]


def test_a_page_the_cleaner_refuses_is_counted_and_passed_over():
    empty_body = b"<html><head><title>x</title></head><body>   </body></html>"
    passes, refused = stages.measure([empty_body, *_pages()], "text", passes=1)
    assert refused == 1 and passes[0]["features"] > 0


def test_each_stage_keeps_only_its_own_time_however_deep_and_whatever_it_raises():
    clock = stages.Clock()

    def work():
        sum(range(100_000))

    def failing():
        work()
        raise ValueError("a stage that fails")

    def middle():
        work()
        try:
            clock.timed("failing", failing)()
        except ValueError:
            pass
        clock.timed("inner", work)()

    start = time.process_time()
    clock.timed("outer", lambda: (work(), clock.timed("middle", middle)()))()
    spent = time.process_time() - start
    assert set(clock.seconds) == {"outer", "middle", "failing", "inner"}
    assert all(t > 0 for t in clock.seconds.values())
    assert sum(clock.seconds.values()) <= spent
    assert clock.running == []


def test_the_cleaner_is_left_as_it_was_found_even_after_a_failure():
    before = _places()
    stages.measure(_pages()[:1], "text", passes=1)
    assert _places() == before
    with pytest.raises(RuntimeError):
        with stages.clocked(stages.Clock()):
            assert _places() != before
            raise RuntimeError("stopped inside")
    assert _places() == before
