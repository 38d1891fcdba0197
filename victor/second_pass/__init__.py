"""Stage 7, the second pass (issue 31, docs/notes/second-pass.md): after the
CRF's labels are decoded, gradient-boosted trees decide again, block by
block, what is content, from what the first pass thought of the whole
page. The trees, loaded and asked: trees.py; their columns: features.py;
the config's keys for them: settings.py. The bars that decide on their
probabilities are the decision's (victor.decoding.decide)."""

from victor.second_pass.trees import (TYPE_COLUMNS, SecondPass, blended, load, matrix,
                                      mean_probability, page_paths, predict_options,
                                      probabilities, split_models, with_types)

__all__ = ["TYPE_COLUMNS", "SecondPass", "blended", "load", "matrix", "mean_probability",
           "page_paths", "predict_options", "probabilities", "split_models", "with_types"]
