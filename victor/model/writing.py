"""A model folder written whole or not at all, and the shipped models that
name files of another."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from pathlib import Path

from victor.config import MODEL_DIR
from victor.errors import VictorError
from victor.model.folder import FILES, FORMAT, RECORD, TrainedModel, load, part_bytes


def _shipped_source(source: Path | None, folder: Path) -> bool:
    """Whether a part of a model written into the shipped models' folder
    names its file in another shipped model (relative to the folder)
    rather than copying it: the article model's megabytes are the general
    model's. A user's model always holds its own files, so that it moves
    and outlives a Victor upgrade whole."""
    if source is None:
        return False
    models = MODEL_DIR.resolve()
    source = source.resolve()
    return (folder.resolve().parent == models and source.parent.parent == models
            and source.parent != folder.resolve())


def save(model: TrainedModel, folder: str | os.PathLike) -> TrainedModel:
    """Writes the model folder whole or not at all: into a hidden folder
    beside it, renamed into place, a model there before removed only once
    the new one is in place. Returns the model as loaded from there (every
    file checked). The caller has checked that the folder may be replaced
    (victor.training.fitting.check_model_target)."""
    folder = Path(folder)
    parts = {part: part_bytes(model, part) for part in FILES}
    token = uuid.uuid4().hex
    staging = folder.with_name(f".{folder.name}.{token}.tmp")
    old = folder.with_name(f".{folder.name}.{token}.old")
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging.mkdir()
        files = {}
        for part, data in parts.items():
            if data is None:
                continue
            source = model.sources.get(part)
            if _shipped_source(source, folder):
                name = os.path.relpath(source.resolve(), folder.resolve())
            else:
                name = FILES[part]
                (staging / name).write_bytes(data)
            files[part] = {"path": name, "bytes": len(data),
                           "sha256": hashlib.sha256(data).hexdigest()}
        record = {"format": FORMAT, **{k: v for k, v in model.record.items() if k != "format"},
                  "files": files}
        (staging / RECORD).write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n",
                                      encoding="utf-8")
        if folder.exists():
            os.replace(folder, old)
        try:
            os.replace(staging, folder)
        except OSError:
            if old.exists():
                os.replace(old, folder)
            raise
    except OSError as e:
        raise VictorError(f"{folder}: cannot write model ({e.strerror or e})") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)
    return load(folder)


def dependents(folder: Path) -> list[Path]:
    """The shipped models that name files of the model `folder` (the
    article model, of the general one's): written again they must be, as
    their record's hashes are the old files'."""
    out = []
    for record in sorted(MODEL_DIR.glob(f"*/{RECORD}")):
        if record.parent.resolve() == folder.resolve():
            continue
        try:
            files = json.loads(record.read_text(encoding="utf-8")).get("files", {})
        except (OSError, ValueError):
            continue
        if any((record.parent / entry.get("path", "")).resolve().parent == folder.resolve()
               for entry in files.values() if isinstance(entry, dict)):
            out.append(record.parent)
    return out
