"""Annotations: the labels a person (or the gold alignment) gave the blocks
of one page. The `.anno` file, read, written and attached to a page's
blocks: annofile.py; the terminal tool: tui.py, screen.py, labelling.py,
guide.py; labels from a gold text: from_gold.py, gold.py (reading it),
align.py (aligning it to the blocks)."""

from victor.annotation.annofile import (EXPORTS, MAGIC, UNLABELLED, Annotation, attach, export,
                                        label_stats, load_annotation, load_training_page,
                                        read_page_file, save_annotation)

__all__ = ["EXPORTS", "MAGIC", "UNLABELLED", "Annotation", "attach", "export", "label_stats",
           "load_annotation", "load_training_page", "read_page_file", "save_annotation"]
