"""Victor: a web-page cleaner that labels text blocks with a linear-chain CRF.

`from victor import Cleaner` is the API (victor/cleaner.py). It is imported
on first use, so that a stage imported alone (`victor.text`, `victor.tidy`)
does not load the CRF and the feature families with it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Cleaner"]


def __getattr__(name: str) -> Any:
    if name == "Cleaner":
        from victor.cleaner import Cleaner

        return Cleaner
    raise AttributeError(f"module 'victor' has no attribute {name!r}")
