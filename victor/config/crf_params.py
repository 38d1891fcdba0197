"""The CRF's training parameters and their one check.

Parameters come from the config's `crf:` section, from learn's command
line over it, and from Victor's defaults under both; all three meet here,
so that a key or value one layer accepts no other refuses."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from victor.errors import VictorError

# What a config or the command line may set, in crfsuite's spelling: L1 and
# L2 regularisation and L-BFGS's iterations; and Victor's own, which crfsuite
# is not given: the share of the boilerplate runs far from any content that
# training learns from (victor.crf.sampling), and the fewest training sites
# that must show a feature value for it to be learnt from (victor.crf.cutoff).
SETTABLE = ("c1", "c2", "max_iterations", "far_other_share", "min_sites")

DEFAULT_PARAMS = MappingProxyType({
    "c1": 0.1,
    "c2": 0.01,
    "max_iterations": 200,
    "far_other_share": 1.0,
    "min_sites": 1,
    # All 25 label transitions get a weight, even those unseen in training:
    # with five labels that is cheap and lets L1/L2 decide.
    "feature.possible_transitions": True,
})


def check_params(params: Mapping[str, object], where: str) -> dict[str, float]:
    """The parameters in crfsuite's spelling, or a one-line error naming
    the first bad one after `where`. A dash may stand for an underscore
    (YAML configs write max-iterations)."""
    why = params_problem(params)
    if why is not None:
        raise VictorError(f"{where}: {why}")
    return {str(key).replace("-", "_"): value for key, value in params.items()}


def params_problem(params: Mapping[str, object]) -> str | None:
    """Why the first bad parameter is wrong, or None. crfsuite itself
    silently reads a malformed number as 0, so values are checked here."""
    known = ", ".join(name.replace("_", "-") for name in SETTABLE)
    for key, value in params.items():
        name = str(key).replace("-", "_")
        if name not in SETTABLE:
            return f"unknown parameter '{key}' (known: {known})"
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            return f"parameter '{key}' must be a number, 0 or more, not {value!r}"
        if name == "far_other_share" and not 0 < value <= 1:
            return f"parameter '{key}' must be a share above 0 and at most 1, not {value!r}"
        if name == "min_sites" and (value != int(value) or value < 1):
            return f"parameter '{key}' must be a whole number, 1 or more, not {value!r}"
    return None


def training_params(params: Mapping[str, object]) -> dict[str, object]:
    """Victor's defaults overlaid with the caller's checked parameters:
    what crfsuite is given and the model's metadata records."""
    return {**DEFAULT_PARAMS, **check_params(params, "crf settings")}
