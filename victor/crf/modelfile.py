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
_FEATURE = struct.Struct("<IIId")
_CQDB = struct.Struct("<4sIIIII")
_RECORD = struct.Struct("<II")


def _names(data: bytes, base: int) -> list[str]:
    chunk, _, _, _, count, backward = _CQDB.unpack_from(data, base)
    if chunk != b"CQDB":
        raise ValueError("no string database")
    names = []
    for number, at in enumerate(struct.unpack_from(f"<{count}I", data, base + backward)):
        stored, length = _RECORD.unpack_from(data, base + at)
        if at == 0 or stored != number or length == 0:
            raise ValueError(f"bad string record {number}")
        start = base + at + _RECORD.size
        names.append(data[start:start + length - 1].decode("utf-8"))
    return names


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
        start = header[7] + _CHUNK.size
        features = _FEATURE.iter_unpack(data[start:start + count * _FEATURE.size])
        state = np.zeros((len(attributes), len(labels)))
        transition = np.zeros((len(labels), len(labels)))
        for kind, src, dst, weight in features:
            if kind == 0:
                state[src, dst] = weight
            else:
                transition[src, dst] = weight
    except (struct.error, ValueError, IndexError) as e:
        raise VictorError(f"{source}: unreadable crfsuite model ({e}); retrain") from None
    return Weights(labels, {name: row for row, name in enumerate(attributes)}, state,
                   transition)
