"""The second pass's settings: a config's `second-pass:` key, checked with
the config's other keys (victor/config/second_pass.py)."""

from victor.config.second_pass import (ArticleBars, SecondPassSettings, checked, decoding,
                                       training)

__all__ = ["ArticleBars", "SecondPassSettings", "checked", "decoding", "training"]
