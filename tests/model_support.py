"""Model folders for tests (victor/model/): a shipped model's record
copied into tmp_path with some of its files replaced, the others named
where they are, so that no test copies megabytes or writes in the clone;
and the shipped models' Cleaners, loaded once for a test process."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from victor.cleaner import Cleaner
from victor.config import MODEL_DIR
from victor.model import RECORD


@lru_cache(maxsize=None)
def shipped_cleaner(config: str = "general") -> Cleaner:
    """The Cleaner of a shipped config and its model, with no other option,
    loaded once for every test that cleans with it: a Cleaner is shared as
    threads share one (docs/scale.md, "Threads"), and a test that is not
    about loading need not pay for a load."""
    return Cleaner(config)


def model_copy(folder: Path, name: str = "general", replaced: dict[str, bytes] | None = None,
               record_too: bool = True) -> Path:
    """`folder` made a copy of the shipped model `name`: its record, each
    part's file named by its absolute path in the package, but the parts of
    `replaced`, written into `folder` (and, with `record_too`, recorded
    with their size and hash; without, the record keeps the shipped ones)."""
    source = MODEL_DIR / name
    record = json.loads((source / RECORD).read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    for part, entry in record["files"].items():
        data = (replaced or {}).get(part)
        if data is None:
            entry["path"] = str((source / entry["path"]).resolve())
            continue
        entry["path"] = f"{part}.file"
        (folder / entry["path"]).write_bytes(data)
        if record_too:
            entry.update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
    (folder / RECORD).write_text(json.dumps(record), encoding="utf-8")
    return folder


def redecoded(config, name: str = "general"):
    """The shipped model `name` with `config`'s decoding keys, made in
    memory (victor.model.with_decoding): how a test cleans with decoding
    keys the model was not made with, since a config given with a model
    must agree with its record."""
    from victor.config import Config, load_config
    from victor.model import load, with_decoding

    return with_decoding(load(name), config if isinstance(config, Config) else load_config(config))
