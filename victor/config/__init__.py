"""Configs: one YAML file says everything a run depends on, each key one of
the one table of settings (victor/settings.py). Loaded and checked:
loading.py; what a model records of one: recipe.py; the `second-pass:`
key: second_pass.py; the CRF's training parameters: crf_params.py."""

from victor.config.loading import (CONFIG_DIR, DEFAULT_CONFIG, MODEL_DIR, ROOT, TEMPLATE_DIR,
                                   Config, from_record, load_config, portable, resolve,
                                   shipped_configs)
from victor.config.recipe import (crf_params, decoding_settings, recipe, settings,
                                  unknown_keys, with_known_keys)

__all__ = ["CONFIG_DIR", "DEFAULT_CONFIG", "MODEL_DIR", "ROOT", "TEMPLATE_DIR", "Config",
           "crf_params", "decoding_settings", "from_record", "load_config",
           "portable", "recipe", "resolve", "settings", "shipped_configs", "unknown_keys",
           "with_known_keys"]
