"""The CRF's training parameters: declared with the config's other
settings (victor/config/crf_params.py), where a config's `crf:` is checked."""

from victor.config.crf_params import DEFAULT_PARAMS, SETTABLE, check_params, training_params

__all__ = ["DEFAULT_PARAMS", "SETTABLE", "check_params", "training_params"]
