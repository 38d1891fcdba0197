"""Stage 6: from the CRF's best path and marginals to the labels a page is
cleaned with. `decide` (victor/decoding/decision.py) lists every step in
order; the steps live in the modules it names."""

from victor.decoding.bars import bars, decided_again, page_bar, relabel
from victor.decoding.decision import (COMMENTS, Decision, Trees, decide, expected_f1, widened,
                                      with_comments, without_unseen)
from victor.decoding.page_layout import SECTIONS, Layout, layout, without_sections
from victor.decoding.units import bridge, drop_repeats, whole, whole_boxes
from victor.decoding.widening import (above_threshold, content_label, decode, fallback, favored,
                                      keep_likely)

__all__ = ["COMMENTS", "SECTIONS", "Decision", "Layout", "Trees", "above_threshold", "bars", "bridge", "content_label",
           "decide", "decided_again", "decode", "drop_repeats", "expected_f1", "fallback", "favored",
           "keep_likely", "layout", "page_bar", "relabel", "whole", "whole_boxes", "widened",
           "with_comments", "without_sections", "without_unseen"]
