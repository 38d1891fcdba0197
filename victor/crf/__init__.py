"""Stage 5, the CRF: a linear-chain CRF over the attributes a template
makes of the blocks' features.

    template.py   the template language (docs/templates.md)
    expansion.py  a template's attributes for a page, memoised per Expander
    params.py     the training parameters and their one check
    estimator.py  CRF, sklearn-crfsuite's with Victor's expansion, cutoff and
                  sampling in fit; predict, predict_marginals, save, load
    modelfile.py  a reader for crfsuite's binary model file
    tagger.py     a page's scores by label with numpy on its weights
    weight_table.py  the weight vectors the tagger adds up, kept across pages
    chain.py      Viterbi and forward-backward over the scores
    model.py      a trained Model, and the checks a model file passes

crfsuite trains; tagging runs on the model's weights with numpy, which
gives crfsuite's labels and marginals without handing it every attribute
string of every block.
"""

from victor.crf.expansion import ATTRIBUTE_KEYS, BIAS, Expander, compact_key, expand
from victor.crf.model import Model, load_model, read_metadata
from victor.crf.modelfile import Weights, read_weights
from victor.crf.params import DEFAULT_PARAMS, check_params
from victor.crf.template import Reference, Template, load_template, parse_template
from victor.labels import LABELS

__all__ = ["ATTRIBUTE_KEYS", "BIAS", "CRF", "DEFAULT_PARAMS", "Expander", "LABELS", "Model",
           "Reference", "Template", "Weights", "check_params", "compact_key", "expand",
           "load_model", "load_template", "parse_template", "read_metadata", "read_weights",
           "train"]


def __getattr__(name: str):
    # The estimator brings scikit-learn, slow to import, which only
    # training needs: cleaning loads a Model and tags with numpy.
    if name in ("CRF", "train"):
        from victor.crf import estimator
        return getattr(estimator, name)
    raise AttributeError(f"module 'victor.crf' has no attribute {name!r}")
