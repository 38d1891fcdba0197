"""Victor: a web-page cleaner that labels text blocks with a linear-chain CRF.

`victor.extract(html)` cleans one page; `victor.Cleaner` cleans many
(victor/cleaner.py). They are imported on first use, so that a stage
imported alone (`victor.reading.text`, `victor.reading.parser`) does not load the CRF and the
feature families with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers see of the names loaded on first use
    from victor.cleaner import Cleaner, Result, extract
    from victor.errors import VictorError

__version__ = "0.2.0"
__all__ = ["Cleaner", "Result", "VictorError", "extract", "__version__"]
_API = {"Cleaner", "Result", "extract"}


def __getattr__(name: str) -> Any:
    if name in _API:
        from victor import cleaner

        return getattr(cleaner, name)
    if name == "VictorError":
        from victor.errors import VictorError

        return VictorError
    raise AttributeError(f"module 'victor' has no attribute {name!r}")
