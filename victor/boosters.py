"""LightGBM boosters for prediction alone, through LightGBM's C API
(`c_api.h`: LGBM_BoosterLoadModelFromString, LGBM_BoosterPredictForMat),
the library the `lightgbm` package itself wraps.

Cleaning only predicts, and the package's import brings scikit-learn and
SciPy with it wherever they are installed (its compatibility layer), which
is most of a cleaning process's memory and much of its start
(docs/notes/output.md, "What it costs"). Loading the package's own shared
library with ctypes gives the same C code the same matrix and the same
parameters, so the probabilities are the package's to the bit
(tests/test_boosters.py). Training still uses the package.
"""

from __future__ import annotations

import ctypes
import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy as np

from victor.errors import VictorError, import_extra

_LIBRARY_NAMES = {"win32": "lib_lightgbm.dll", "darwin": "lib_lightgbm.dylib"}
_FLOAT32, _FLOAT64 = 0, 1  # C_API_DTYPE_*
_ROW_MAJOR, _COL_MAJOR = 1, 0
_PREDICT_NORMAL = 0


class BoosterError(ValueError):
    """LightGBM refused a model's text; its message says why."""


def _lib(purpose: str = "the model's trees") -> ctypes.CDLL:
    """The shared library of the installed `lightgbm` package, found
    without importing the package (which would import scikit-learn);
    without the package, a one-line error saying what `purpose` needs."""
    spec = importlib.util.find_spec("lightgbm")
    if spec is None or not spec.submodule_search_locations:
        import_extra("lightgbm", None, purpose)  # its one-line error
    name = _LIBRARY_NAMES.get(sys.platform, "lib_lightgbm.so")
    folder = Path(list(spec.submodule_search_locations)[0])
    found = [p for p in (folder / "lib" / name, folder / name) if p.is_file()]
    if not found:
        raise VictorError(f"lightgbm: its library {name} is not in {folder}; "
                          "reinstall it (pip install --force-reinstall lightgbm)")
    # The system loads a library once a process; this is another handle on it.
    lib = ctypes.cdll.LoadLibrary(str(found[0]))
    lib.LGBM_GetLastError.restype = ctypes.c_char_p
    return lib


def _check(lib: ctypes.CDLL, status: int) -> None:
    if status != 0:
        raise BoosterError(lib.LGBM_GetLastError().decode("utf-8", "replace"))


class Booster:
    """One LightGBM model, loaded from its text, predicting as
    `lightgbm.Booster.predict` does with the same keyword parameters."""

    def __init__(self, text: str, purpose: str = "the model's trees"):
        self._load(text, purpose)

    def _load(self, text: str, purpose: str = "the model's trees") -> None:
        lib = self._lib = _lib(purpose)
        handle = ctypes.c_void_p()
        iterations = ctypes.c_int(0)
        _check(lib, lib.LGBM_BoosterLoadModelFromString(text.encode("utf-8"),
                                                         ctypes.byref(iterations),
                                                         ctypes.byref(handle)))
        self._handle = handle
        header = _header(text)
        self.features = tuple(header.get("feature_names", "").split())
        self.classes = int(header.get("num_class", "1"))
        self.models_per_iteration = int(header.get("num_tree_per_iteration", "1"))

    def __getstate__(self) -> dict[str, Any]:
        """A C handle does not pickle: the copy loads the model's text
        again, as LightGBM writes it. The text is not kept beside the
        loaded trees (the page-type classifier's is megabytes, in every
        cleaning process): a copy is made seldom, a cleaner every time."""
        return {"text": self.text()}

    def text(self) -> str:
        """The model as LightGBM's text, every tree of it."""
        lib, size = self._lib, 1 << 20
        while True:
            buffer = ctypes.create_string_buffer(size)
            needed = ctypes.c_int64(0)
            _check(lib, lib.LGBM_BoosterSaveModelToString(
                self._handle, ctypes.c_int(0), ctypes.c_int(-1), ctypes.c_int(0),
                ctypes.c_int64(size), ctypes.byref(needed), buffer))
            if needed.value <= size:
                return buffer.value.decode("utf-8")
            size = needed.value

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._load(state["text"])

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle is not None and handle.value:
            self._lib.LGBM_BoosterFree(handle)
            self._handle = None

    def feature_name(self) -> list[str]:
        return list(self.features)

    def num_model_per_iteration(self) -> int:
        return self.models_per_iteration

    def predict(self, x: np.ndarray, **parameters: Any) -> np.ndarray:
        """Probabilities of the rows of `x`: a vector for a binary model, a
        row of each class's for a multiclass one. `parameters` are
        LightGBM's prediction parameters (num_threads, pred_early_stop...),
        passed as the package passes them."""
        lib = self._lib
        x = np.atleast_2d(x)
        dtype = x.dtype if x.dtype in (np.float32, np.float64) else np.float32
        order, layout = ("F", _COL_MAJOR) if x.flags["F_CONTIGUOUS"] else ("C", _ROW_MAJOR)
        data = np.asarray(x, dtype=dtype, order=order).ravel(order=order)
        rows, columns = x.shape
        wanted = ctypes.c_int64(0)
        _check(lib, lib.LGBM_BoosterCalcNumPredict(self._handle, ctypes.c_int(rows),
                                                   ctypes.c_int(_PREDICT_NORMAL), ctypes.c_int(0),
                                                   ctypes.c_int(-1), ctypes.byref(wanted)))
        out = np.empty(wanted.value, dtype=np.float64)
        written = ctypes.c_int64(0)
        text = " ".join(f"{k}={v}" for k, v in parameters.items() if v is not None)
        _check(lib, lib.LGBM_BoosterPredictForMat(
            self._handle, data.ctypes.data_as(ctypes.c_void_p),
            ctypes.c_int(_FLOAT32 if dtype == np.float32 else _FLOAT64),
            ctypes.c_int32(rows), ctypes.c_int32(columns), ctypes.c_int(layout),
            ctypes.c_int(_PREDICT_NORMAL), ctypes.c_int(0), ctypes.c_int(-1),
            text.encode("utf-8"), ctypes.byref(written),
            out.ctypes.data_as(ctypes.POINTER(ctypes.c_double))))
        if written.value != wanted.value:
            raise BoosterError(f"{written.value} predictions where {wanted.value} were due")
        return out.reshape(rows, -1) if out.size != rows else out


def _header(text: str) -> dict[str, str]:
    """The `key=value` lines before a model text's first tree."""
    found: dict[str, str] = {}
    for line in text.split("\nTree=", 1)[0].splitlines():
        key, sep, value = line.partition("=")
        if sep:
            found[key] = value
    return found
