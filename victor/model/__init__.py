"""A trained model: one folder that holds everything cleaning needs, and
the one record of how it was made.

    M/model.json         the record: the recipe (the config's keys) it was
                         made from, each file below with its size and sha256,
                         the CRF's training record and calibration, the
                         trees' training record, the pages it learnt from
    M/crf.crfsuite       the CRF (crfsuite's model file)
    M/second-pass.lgbm   the second pass's trees, where the recipe has one
    M/page-type.lgbm     the page-type classifier (victor/page_type/), where the
                         recipe's second pass reads one (the keys of
                         victor/settings.py whose `needs` is "page-type")

`victor learn` writes it (victor/training/pipeline.py); `load` checks every
file against the size and hash the record gives before anything is read
from it, so that a truncated, swapped or stale file is one line naming it.
A file may be another shipped model's, named by a path relative to the
folder (`../general/crf.crfsuite`): the shipped article model is the
general model's CRF and trees with other bars (docs/models.md).

The record's recipe is what cleaning follows. A config given with a model
must agree with it key for key (`check_recipe`), else it is refused in one
line naming the key, both values and what to do: a config's decoding key
never silently differs from what `--model` alone does. A model with other
decoding keys is a new model (`with_decoding`, `victor learn --from-model`),
made without training, with its own record.
"""

from victor.model.folder import (FILES, FORMAT, RECORD, TrainedModel, load, part_bytes,
                                 resolve)
from victor.model.recipe_check import (CLEANING, Difference, check_recipe, differences,
                                       with_decoding)
from victor.model.writing import dependents, save

__all__ = ["CLEANING", "FILES", "FORMAT", "RECORD", "Difference", "TrainedModel",
           "check_recipe", "dependents", "differences", "load", "part_bytes", "resolve", "save",
           "with_decoding"]
