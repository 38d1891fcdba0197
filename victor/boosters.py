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

`predict`, LightGBM's C, is the reference. Its compiled twin
(victor/compiled/_trees.pyx) walks a binary booster's trees itself, from
the flat arrays (Forest) read from the model's text when the booster
loads, several rows side by side where LightGBM walks one at a time, and
gives the same probabilities to the bit (tests/test_compiled.py). A model
or parameters it would not read exactly as LightGBM does go to LightGBM.
"""

from __future__ import annotations

import ctypes
import importlib.util
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from victor.compiled import twin
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
        # Read only where the compiled walk runs: the pure path never looks.
        self.forest = forest(text) if predict is not predict_py else None

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
        return predict(self, x, parameters)


def predict(booster: Booster, x: np.ndarray, parameters: Mapping[str, Any]) -> np.ndarray:
    """`booster`'s predictions of the rows of `x` by LightGBM's own C: the
    reference that the compiled twin (victor/compiled/_trees.pyx) matches to
    the bit, and where it cannot, calls."""
    lib = booster._lib
    x = np.atleast_2d(x)
    dtype = x.dtype if x.dtype in (np.float32, np.float64) else np.float32
    order, layout = ("F", _COL_MAJOR) if x.flags["F_CONTIGUOUS"] else ("C", _ROW_MAJOR)
    data = np.asarray(x, dtype=dtype, order=order).ravel(order=order)
    rows, columns = x.shape
    wanted = ctypes.c_int64(0)
    _check(lib, lib.LGBM_BoosterCalcNumPredict(booster._handle, ctypes.c_int(rows),
                                               ctypes.c_int(_PREDICT_NORMAL), ctypes.c_int(0),
                                               ctypes.c_int(-1), ctypes.byref(wanted)))
    out = np.empty(wanted.value, dtype=np.float64)
    written = ctypes.c_int64(0)
    text = " ".join(f"{k}={v}" for k, v in parameters.items() if v is not None)
    _check(lib, lib.LGBM_BoosterPredictForMat(
        booster._handle, data.ctypes.data_as(ctypes.c_void_p),
        ctypes.c_int(_FLOAT32 if dtype == np.float32 else _FLOAT64),
        ctypes.c_int32(rows), ctypes.c_int32(columns), ctypes.c_int(layout),
        ctypes.c_int(_PREDICT_NORMAL), ctypes.c_int(0), ctypes.c_int(-1),
        text.encode("utf-8"), ctypes.byref(written),
        out.ctypes.data_as(ctypes.POINTER(ctypes.c_double))))
    if written.value != wanted.value:
        raise BoosterError(f"{written.value} predictions where {wanted.value} were due")
    return out.reshape(rows, -1) if out.size != rows else out


def _header(text: str) -> dict[str, str]:
    """The `key=value` lines before a model text's first tree (a line
    without `=`, a flag such as average_output, as its key)."""
    return dict(line.partition("=")[::2] for line in text.split("\nTree=", 1)[0].splitlines())


@dataclass(frozen=True)
class Forest:
    """A binary booster's trees as flat arrays, for the compiled walk
    (victor/compiled/_trees.pyx), read once when the booster loads. Leaves
    are nodes too, after their tree's splits, each its own two children: a
    row that reached its leaf steps on in place, so that several rows walk
    a tree side by side until the last of them reaches its leaf."""

    columns: int  # the features a row holds (max_feature_idx + 1)
    root: np.ndarray  # each tree's first node
    leaves: np.ndarray  # each tree's first leaf: the nodes before are splits
    feature: np.ndarray  # a node's split feature (a leaf's: 0)
    threshold: np.ndarray
    decision: np.ndarray  # LightGBM's decision_type: default left, missing type
    child: np.ndarray  # a node's left child at 2 * node, its right one after
    value: np.ndarray  # a leaf's value (a split's: 0)


# The objective the compiled walk turns raw scores into probabilities for:
# LightGBM's binary logistic with the sigmoid 1, as LightGBM writes it.
_BINARY = ["binary", "sigmoid:1"]
# Tree keys that change how a tree predicts; their value where the compiled
# walk reads the tree as LightGBM does.
_PLAIN_TREE = {"num_cat": "0", "is_linear": "0"}
_CATEGORICAL = 1  # decision_type's categorical bit


def forest(text: str) -> Forest | None:
    """A model text's trees as a Forest, or None where LightGBM would
    predict in a way the compiled walk does not (several classes, another
    objective, averaged trees, categorical splits, linear leaves), or the
    text is not as LightGBM writes it: such a booster predicts through
    LightGBM alone, decided here, once."""
    trees, sep, _ = text.partition("\nTree=")[2].partition("\nend of trees")
    if not sep:
        return None
    header = _header(text)
    if ("average_output" in header or header.get("num_class") != "1"
            or header.get("num_tree_per_iteration", "1") != "1"
            or header.get("objective", "").split() != _BINARY):
        return None
    lines: dict[str, list[str]] = {}
    for key, value in re.findall(r"(?m)^(\w+)=(.*)$", trees):
        lines.setdefault(key, []).append(value)
    try:
        columns = int(header["max_feature_idx"]) + 1
        return _flat(columns, lines)
    except (KeyError, ValueError):
        return None


def _flat(columns: int, lines: dict[str, list[str]]) -> Forest | None:
    """The Forest of the trees' `lines` (each key's values, tree after
    tree; a tree of one leaf has no split lines), or None where they are
    not plain numerical trees whose every node has one parent (so that a
    walk from a root ends). Python reads a written double as LightGBM does,
    to the nearest one."""
    count = len(lines["num_leaves"])
    if any(lines.get(k, [plain] * count) != [plain] * count for k, plain in _PLAIN_TREE.items()):
        return None
    leaves = np.array(lines["num_leaves"], np.int64)
    inner = leaves - 1
    if (leaves < 1).any() or not _each_line_holds(lines["leaf_value"], leaves):
        return None
    # A tree of one leaf writes its split lines empty, or not at all.
    for key in _SPLIT_KEYS:
        found = lines.get(key, [])
        if not _each_line_holds(found, inner if len(found) == count else inner[inner > 0]):
            return None

    def numbers(key: str, kind) -> np.ndarray:
        values = " ".join(lines.get(key, [])).split()
        if kind is int:
            return np.array(values, np.int64)
        return np.fromiter(map(float, values), np.float64, len(values))

    value = numbers("leaf_value", float)
    feature, decision, left, right = (numbers(k, int) for k in
                                      ("split_feature", "decision_type", "left_child",
                                       "right_child"))
    threshold = numbers("threshold", float)
    if (not np.isfinite(value).all() or not np.isfinite(threshold).all()
            or not ((0 <= feature) & (feature < columns)).all()
            or not ((0 <= decision) & (decision < 128)).all()
            or (decision & _CATEGORICAL).any()):
        return None
    sizes = inner + leaves  # a tree's nodes: its splits, then its leaves
    root = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    tree_of_split = np.repeat(np.arange(count), inner)
    # Each child a split or a leaf of its own tree (never the root), once.
    children = np.concatenate([left, right])
    owner = np.concatenate([tree_of_split, tree_of_split])
    if (not ((-leaves[owner] <= children) & (children < inner[owner]) & (children != 0)).all()
            or len(np.unique(children + (owner << 32))) != len(children)):
        return None
    # A child below zero is the leaf ~child, the node after its tree's splits.
    base = root[tree_of_split]
    where = [np.where(c >= 0, base + c, base + inner[tree_of_split] + ~c) for c in (left, right)]
    is_leaf = np.arange(sizes.sum()) - np.repeat(root, sizes) >= np.repeat(inner, sizes)
    child = np.empty((sizes.sum(), 2), np.int32)
    child[~is_leaf] = np.column_stack(where)
    child[is_leaf] = np.flatnonzero(is_leaf)[:, None]

    def placed(at_splits: np.ndarray, dtype) -> np.ndarray:
        out = np.zeros(sizes.sum(), dtype)
        out[~is_leaf] = at_splits
        return out

    node_value = np.zeros(sizes.sum())
    node_value[is_leaf] = value
    return Forest(columns, root, root + inner, placed(feature, np.int32),
                  placed(threshold, np.float64), placed(decision, np.int8), child.ravel(),
                  node_value)


_SPLIT_KEYS = ("split_feature", "threshold", "decision_type", "left_child", "right_child")


def _each_line_holds(found: list[str], counts: np.ndarray) -> bool:
    """Whether each line of `found` holds its count of numbers."""
    return len(found) == len(counts) and all(
        len(line.split()) == c for line, c in zip(found, counts.tolist()))


def stopping(parameters: Mapping[str, Any]) -> tuple[int, float] | None:
    """LightGBM's early stopping under prediction `parameters`: every how
    many trees a row's raw score is looked at (0: never) and the margin
    that stops it, or None where a parameter is one the compiled walk does
    not read exactly as LightGBM does (unknown, of another type, or a
    margin LightGBM's own number parser might round otherwise than
    Python): those predict through LightGBM, which also says what is
    wrong with them."""
    given = {k: v for k, v in parameters.items() if v is not None}
    if set(given) - {"num_threads", "pred_early_stop", "pred_early_stop_freq",
                     "pred_early_stop_margin"}:
        return None
    threads = given.get("num_threads", 0)
    early = given.get("pred_early_stop", False)
    every = given.get("pred_early_stop_freq", 10)
    margin = given.get("pred_early_stop_margin", 10.0)
    if (type(threads) is not int or type(early) is not bool or type(every) is not int
            or type(margin) not in (int, float) or every < 1
            or not 0 <= margin < 2 ** 53 or margin != int(margin)):
        return None
    return (every, float(margin)) if early else (0, 0.0)


predict_py = predict
predict = twin(predict_py, "_trees")
