"""A reader for crfsuite's binary model file: the names and weights it
learnt, which the numpy tagger (victor.crf.tagger) runs on. crfsuite's own
dump of a model prints weights to six decimals only and needs a temporary
file."""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from victor.errors import VictorError


@dataclass(frozen=True)
class Weights:
    """What a crfsuite model learnt: for each attribute it knows, a weight
    per label (zero for the pairs training never saw), and the weight of
    each label following each other. Labels in crfsuite's order. The
    attributes' weights are the rows of one array, not an array each: a
    model knows tens of thousands of attributes, and an array apiece held
    several times the weights' own memory in a cleaning process."""

    labels: tuple[str, ...]
    rows: dict[str, int]  # attribute -> its row of `state`
    state: np.ndarray  # [attribute's row, label]
    transition: np.ndarray  # [previous label, label]

    def of(self, attribute: str) -> np.ndarray | None:
        """An attribute's weight per label, or None for one it never met."""
        row = self.rows.get(attribute)
        return None if row is None else self.state[row]


# crfsuite's model file (crf1dmodel.c, cqdb.c), all little-endian: a
# header of magic, size, type, version and eight uint32 counts and offsets;
# at the features' offset a chunk "FEAT" of size and count, then each
# feature as type (0 attribute-to-label, 1 label-to-label), source,
# destination and a float64 weight; at the labels' and the attributes'
# offsets a string database "CQDB" whose backward array gives, for each
# number, the offset of a record of number, length and NUL-ended string.
MAGIC = b"lCRF"
_HEADER = struct.Struct("<4sI4sI8I")
_CHUNK = struct.Struct("<4sII")
_FEATURE = np.dtype([("kind", "<u4"), ("source", "<u4"), ("destination", "<u4"),
                     ("weight", "<f8")])
_CQDB = struct.Struct("<4sIIIII")
_RECORD = struct.Struct("<II")


def _names(data: bytes, base: int) -> list[str]:
    chunk, _, _, _, count, backward = _CQDB.unpack_from(data, base)
    if chunk != b"CQDB":
        raise ValueError("no string database")
    # Each record's number and length read for all records at once: a model
    # names tens of thousands of attributes, and a loading process pays for
    # each one read alone.
    at = np.frombuffer(data, "<u4", count, base + backward).astype(np.int64) + base
    if count and at.max() + _RECORD.size > len(data):
        raise ValueError("string record beyond the end of the file")
    record = np.frombuffer(data, np.uint8)[at[:, None] + np.arange(_RECORD.size)]
    stored, length = record.view("<u4").reshape(count, 2).T
    bad = (at == base) | (stored != np.arange(count)) | (length == 0)
    if bad.any():
        raise ValueError(f"bad string record {int(np.argmax(bad))}")
    return [data[start:start + size - 1].decode("utf-8")
            for start, size in zip((at + _RECORD.size).tolist(), length.tolist())]


def read_weights(data: bytes, source: str) -> Weights:
    """The names and weights of a crfsuite model file, read from its bytes;
    `source` names it in the error for a file this cannot read."""
    try:
        header = _HEADER.unpack_from(data)
        labels = tuple(_names(data, header[8]))
        attributes = _names(data, header[9])
        chunk, _, count = _CHUNK.unpack_from(data, header[7])
        if chunk != b"FEAT":
            raise ValueError("no feature chunk")
        features = np.frombuffer(data, _FEATURE, count, header[7] + _CHUNK.size)
        state = np.zeros((len(attributes), len(labels)))
        transition = np.zeros((len(labels), len(labels)))
        to_label = features["kind"] == 0
        for table, rows in ((state, features[to_label]), (transition, features[~to_label])):
            table[rows["source"], rows["destination"]] = rows["weight"]
    except (struct.error, ValueError, IndexError) as e:
        raise VictorError(f"{source}: unreadable crfsuite model ({e}); retrain") from None
    return Weights(labels, dict(zip(attributes, range(len(attributes)))), state, transition)
