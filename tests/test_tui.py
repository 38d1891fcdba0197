"""The annotation tool, driven as a person would: keys in, an .anno file out.

These tests feed keys through prompt_toolkit's pipe input with a dummy
screen; test_tui_terminal.py runs `annotate.py` for real in a tmux
terminal and reads the screen back.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from repo_data import DRAGNET, ROOT
from victor.annotation import UNLABELLED, export, load_annotation, load_training_page
from victor.config import load_config
from victor.errors import VictorError
from victor.annotation.labelling import Labelling, open_session
from victor.annotation.screen import layout_blocks, wrap
from victor.annotation.tui import application, run

CONFIG = load_config("cleaneval")
PAGE_DOWN = "\x1b[6~"
PAGE_UP = "\x1b[5~"
CTRL_S = "\x13"


def press(page: Path, anno: Path, keys: str, prefill: list[str] | None = None) -> int:
    """Run the tool on `keys`. The pipe is closed behind them, so a tool
    that has not quit by the last key fails with EOFError instead of
    waiting for a person."""
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()
        return run(CONFIG, page, anno, prefill, input=pipe, output=DummyOutput())


def test_label_keys_label_the_block_and_move_on(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    assert press(page, anno, "ohhp" + "s" + "q") == 0
    saved = load_annotation(anno)
    assert saved.labels[:5] == ["o", "h", "h", "p", UNLABELLED]
    assert saved.labels.count(UNLABELLED) == 161 - 4
    assert saved.texts[1] == "Las Vegas Real Estate"


def test_moving_undo_and_save(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    # o on block 1, j j skips blocks 2 and 3, c on 4, k k back to 3, l on 3
    # (and on to 4); u takes back the l and returns to block 3; p on 3,
    # then Ctrl-S saves.
    press(page, anno, "o" + "jj" + "c" + "kk" + "l" + "u" + "p" + CTRL_S + "q")
    assert load_annotation(anno).labels[:5] == ["o", UNLABELLED, "p", "c", UNLABELLED]


def test_undo_goes_back_several_steps_and_stops_at_the_start(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    press(page, anno, "phl" + "uu" + "o" + "uuuu" + "c" + "sq")
    assert load_annotation(anno).labels[:3] == ["c", UNLABELLED, UNLABELLED]


def test_page_down_moves_by_a_screen_and_up_comes_back(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    press(page, anno, PAGE_DOWN + "p" + PAGE_UP * 3 + "h" + "sq")
    labels = load_annotation(anno).labels
    # The dummy screen is 40 lines: one page is tens of blocks, not one.
    [far] = [i for i, label in enumerate(labels) if label == "p"]
    assert 10 < far < 60
    assert labels[0] == "h"


def test_next_unlabelled_skips_labelled_blocks(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    press(page, anno, "ooo" + "g" + "n" + "h" + "sq")
    assert load_annotation(anno).labels[:5] == ["o", "o", "o", "h", UNLABELLED]


def test_quit_with_unsaved_labels_asks_first(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    session = open_session(CONFIG, page, anno)
    with create_pipe_input() as pipe:
        pipe.send_text("p" + "q")
        pipe.close()
        with pytest.raises(EOFError):  # the tool is still waiting for an answer
            application(session, pipe, DummyOutput()).run()
    assert session.confirming_quit
    assert session.message.startswith("unsaved labels")
    assert not anno.exists()


def test_labelling_the_last_block_says_what_is_left(page: Path, tmp_path: Path) -> None:
    session = open_session(CONFIG, page, tmp_path / "1.anno")
    with create_pipe_input() as pipe:
        pipe.send_text("G" + "o")
        pipe.close()
        with pytest.raises(EOFError):
            application(session, pipe, DummyOutput()).run()
    assert session.message == "end of the page: 160 blocks unlabelled, n goes to the next"


def test_quit_question_answered_q_quits_without_saving(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    assert press(page, anno, "p" + "q" + "q") == 0
    assert not anno.exists()


def test_quit_question_answered_s_saves_and_quits(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    assert press(page, anno, "p" + "q" + "s") == 0
    assert load_annotation(anno).labels[0] == "p"


def test_any_other_key_takes_back_the_quit_and_is_not_a_label(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    press(page, anno, "p" + "q" + "o" + "h" + "sq")
    assert load_annotation(anno).labels[:3] == ["p", "h", UNLABELLED]


def test_quit_without_changes_does_not_ask(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    assert press(page, anno, "jjq") == 0
    assert press(page, anno, "p" + "u" + "q") == 0  # undone back to the file
    assert not anno.exists()
    assert press(page, anno, "ps" + "q") == 0  # saved
    assert load_annotation(anno).labels[0] == "p"


def test_an_existing_anno_is_resumed_at_the_first_unlabelled_block(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    press(page, anno, "ohp" + "sq")
    # Resumed: the cursor starts on block 4, so the next labels go on.
    press(page, anno, "ll" + "sq")
    assert load_annotation(anno).labels[:6] == ["o", "h", "p", "l", "l", UNLABELLED]


def test_a_finished_anno_from_the_repository_is_resumed_and_corrected(tmp_path: Path) -> None:
    for name in ("1.html", "1.anno"):
        shutil.copy(ROOT / "data/cleaneval" / name, tmp_path / name)
    anno = tmp_path / "1.anno"
    before = load_annotation(anno).labels
    assert UNLABELLED not in before
    press(tmp_path / "1.html", anno, "j" + "p" + "sq")  # the second block becomes p
    after = load_annotation(anno).labels
    assert after == before[:1] + ["p"] + before[2:]


def test_prefill_fills_unlabelled_blocks_and_the_person_corrects(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    n = len(open_session(CONFIG, page, anno).page.blocks)
    press(page, anno, "h" + "sq")
    guess = ["o"] * n
    guess[2] = "p"
    # The pre-fill is unsaved work: quitting at once would ask.
    session = open_session(CONFIG, page, anno, guess)
    assert session.labelling.dirty
    assert session.labelling.labels[:3] == ["h", "o", "p"]  # the person's h stays
    press(page, anno, "g" + "j" + "c" + "sq", prefill=guess)
    labels = load_annotation(anno).labels
    assert labels[:4] == ["h", "c", "p", "o"]
    assert UNLABELLED not in labels


def test_an_unfinished_page_is_saved_but_not_trained_on_or_exported(page: Path, tmp_path: Path) -> None:
    anno = tmp_path / "1.anno"
    press(page, anno, "oh" + "sq")
    with pytest.raises(VictorError, match="159 blocks not labelled yet"):
        load_training_page(anno, CONFIG)
    with pytest.raises(VictorError, match="not labelled yet"):
        export(load_annotation(anno), "cleaneval")


def test_prefill_of_the_wrong_length_is_refused(page: Path, tmp_path: Path) -> None:
    with pytest.raises(VictorError, match="pre-filled labels for"):
        open_session(CONFIG, page, tmp_path / "1.anno", ["p", "o"])


def test_labelling_counts_follow_labels_and_undo() -> None:
    lab = Labelling([UNLABELLED, UNLABELLED, "o"])
    lab.label("p")
    lab.label("o")
    assert (lab.counts["p"], lab.counts["o"], lab.counts[UNLABELLED]) == (1, 2, 0)
    lab.undo()
    assert (lab.counts["o"], lab.counts[UNLABELLED], lab.cursor) == (1, 1, 1)


def test_labels_after_undoing_past_a_save_are_unsaved_even_at_the_same_depth() -> None:
    lab = Labelling([UNLABELLED, UNLABELLED, UNLABELLED])
    lab.label("p")
    lab.mark_saved()
    lab.undo()
    assert lab.dirty
    lab.label("h")
    assert lab.dirty  # one change deep, like the file, but not the file's labels


def test_wrap_breaks_at_spaces_cuts_long_words_and_marks_what_is_left_out() -> None:
    assert wrap("See our website for more details.", 12, 5) == ["See our", "website for", "more", "details."]
    assert wrap("See our website for more details.", 12, 2) == ["See our", "website for…"]
    assert wrap("Donaudampfschifffahrt", 8, 5) == ["Donaudam", "pfschiff", "fahrt"]
    assert wrap("日本語の文章", 5, 5) == ["日本", "語の", "文章"]  # two cells a character


def test_only_the_blocks_around_the_cursor_are_laid_out() -> None:
    big = DRAGNET / "T55.html"
    session = open_session(CONFIG, big, Path("/nonexistent.anno"))
    texts = [b.text for b in session.page.blocks]
    labels = session.labelling.labels
    middle = len(texts) // 2
    screen = layout_blocks(texts, labels, middle, 100, 30)
    assert len(screen.lines) == 30
    assert screen.first < middle < screen.last and screen.last - screen.first < 30
    # The current block is marked and its text shown.
    marked = [line for line in screen.lines if line[0][1] == "> "]
    assert len(marked) == 1
    assert texts[middle][:20] in "".join(text for _, text in marked[0])
    # At the top of the page the first block is on the first line.
    top = layout_blocks(texts, labels, 0, 100, 30)
    assert top.first == 0 and len(top.lines) == 30


def test_saving_and_quitting_leaves_a_line_on_the_terminal(page: Path, tmp_path: Path,
                                                           capsys) -> None:
    """Issue 29: nothing was printed once the full screen had gone."""
    anno = tmp_path / "1.anno"
    assert press(page, anno, "ohp" + "s" + "q") == 0
    assert capsys.readouterr().out == f"saved {anno}: 3 of 161 blocks labelled, 158 to go\n"
    assert press(page, anno, "p" + "q" + "q") == 0  # quit without saving, when asked
    assert capsys.readouterr().out == (f"quit without saving: the labels since the last save "
                                       f"are lost; {anno} kept as it was\n")
    assert load_annotation(anno).labels[:4] == ["o", "h", "p", UNLABELLED]
