"""A model folder read: its record and every file it names, each checked
against the size and sha256 the record gives before anything is read from
it (the folder's layout: victor/model/__init__.py)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from victor import crf, page_type, second_pass
from victor.config import MODEL_DIR, Config, from_record, unknown_keys, with_known_keys
from victor.errors import VictorError, read_utf8

FORMAT = 1
RECORD = "model.json"
# The files of a model folder, by their part.
FILES = {"crf": "crf.crfsuite", "second-pass": "second-pass.lgbm",
         "page-type": "page-type.lgbm"}


@dataclass(frozen=True, eq=False)
class TrainedModel:
    """A loaded (or freshly made) model, which a Cleaner cleans with.
    `folder` is None for one made in memory and not yet saved; `sources`
    says which file each part was read from, so that a model made from a
    shipped one may name its files."""

    folder: Path | None
    record: dict
    config: Config  # the recorded recipe, as a config: what cleaning follows
    crf: crf.Model
    trees: second_pass.SecondPass | None
    # The trees' file, as written and hashed, for a model made in memory;
    # None for one loaded from its folder, whose files are read again when
    # they are needed (`part_bytes`): a cleaner need not hold megabytes of
    # files it has already read.
    trees_text: str | None
    sources: dict[str, Path]
    # The page-type classifier (None for a model without one, whose pages
    # all take the second pass's own bars) and its file's text, held as
    # `trees_text` is.
    page_type: page_type.PageTypeModel | None = None
    page_type_text: str | None = None

    @property
    def reads_page_type(self) -> bool:
        """Whether cleaning asks the classifier: the model has one and its
        recipe's bars read it."""
        second = self.config.second_pass
        return self.page_type is not None and second is not None and second.reads_page_type

    @property
    def recipe(self) -> dict[str, Any]:
        return self.record["recipe"]

    @property
    def name(self) -> str:
        return str(self.folder) if self.folder is not None else "the model made in memory"


def resolve(name_or_path: str | os.PathLike) -> Path:
    """A model folder: a path, or a shipped model's bare name
    (`general` -> victor/models/general/)."""
    s = str(name_or_path)
    if "/" not in s and not Path(s).exists() and (MODEL_DIR / s).is_dir():
        return MODEL_DIR / s
    path = Path(s)
    return path.parent if path.name == RECORD else path


def load(name_or_path: str | os.PathLike, resave: Config | None = None) -> TrainedModel:
    """A model folder, every file checked against its record. A record
    whose decoding names keys of an earlier Victor is refused in one line
    that gives the command re-saving it; that command (`victor learn
    --from-model`) loads it with `resave`, the config whose decoding keys
    stand in for those."""
    folder = resolve(name_or_path)
    record_path = folder / RECORD
    if folder.is_file():
        raise VictorError(f"{folder}: a file, not a model folder (docs/models.md); a lone CRF "
                          "file of an earlier Victor: retrain it with victor learn -o FOLDER")
    if not folder.is_dir():
        raise VictorError(f"{folder}: no model there; train one with "
                          f"victor learn --config NAME -o {folder} FILES.anno")
    if not record_path.exists():
        raise VictorError(f"{record_path}: not found: {folder} is no Victor model folder")
    text = read_utf8(record_path, "model record")
    try:
        record = json.loads(text)
    except ValueError as e:
        raise VictorError(f"{record_path}: unreadable model record ({e}); retrain") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise VictorError(f"{record_path}: not a Victor model record of format {FORMAT}; retrain")
    for key in ("recipe", "files", "crf"):
        if not isinstance(record.get(key), dict):
            raise VictorError(f"{record_path}: the record lacks its '{key}'; retrain")
    decoding = record["recipe"].get("decoding")
    old = unknown_keys(decoding) if isinstance(decoding, dict) else []
    if old and resave is None:
        raise VictorError(f"{record_path}: its decoding is an earlier Victor's "
                          f"({', '.join(old)}); re-save it with its config's keys: victor learn "
                          f"--config CONFIG --from-model {folder} -o NEW_FOLDER")
    if old:
        record["recipe"]["decoding"] = with_known_keys(decoding, resave)
    config = from_record(record["recipe"], record_path, str(record.get("config", folder.name)),
                         str(record.get("config_sha256", "")))
    if "crf" not in record["files"]:
        raise VictorError(f"{record_path}: the record names no CRF file; retrain")
    if set(record["files"]) - set(FILES):
        raise VictorError(f"{record_path}: unknown parts "
                          f"{sorted(set(record['files']) - set(FILES))}; a model of a later "
                          "Victor?")
    data = {part: _checked_file(folder, record, part) for part in record["files"]}
    sources = {part: folder / record["files"][part]["path"] for part in data}
    model = crf.model.opened(data["crf"], record["crf"], sources["crf"], record_path)
    model.data = None  # the file holds them, checked: part_bytes reads them again
    if record["recipe"].get("template") != model.template.digest:
        raise VictorError(f"{record_path}: the recipe's template is not the CRF's; retrain")
    trees = _trees(data.get("second-pass"), config, sources.get("second-pass"), record_path)
    kind = _page_type(data.get("page-type"), sources.get("page-type"))
    return TrainedModel(folder, record, config, model, trees, None, sources, kind)


def part_bytes(model: TrainedModel, part: str) -> bytes | None:
    """A part's file as written (None for a part the model lacks): the
    bytes a model made in memory holds, else its file read again and
    checked against the size and sha256 its record gives, as `load` checked
    it."""
    held = {"crf": model.crf.data, "second-pass": model.trees_text,
            "page-type": model.page_type_text}[part]
    if held is not None:
        return held if isinstance(held, bytes) else held.encode("utf-8")
    if part not in model.record["files"]:
        return None
    source = model.sources[part]
    return _checked(source, model.record["files"][part], (model.folder or source.parent) / RECORD)


def _checked_file(folder: Path, record: dict, part: str) -> bytes:
    """A part's bytes, once their size and sha256 are the record's."""
    entry = record["files"][part]
    record_path = folder / RECORD
    if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
        raise VictorError(f"{record_path}: the record's '{part}' file has no path; retrain")
    return _checked(folder / entry["path"], entry, record_path)


def _checked(path: Path, entry: dict, record_path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise VictorError(f"{path}: missing ({record_path} names it); restore it or "
                          "retrain") from None
    except OSError as e:
        raise VictorError(f"{path}: cannot read model file ({e.strerror})") from None
    if len(data) != entry.get("bytes"):
        raise VictorError(f"{path}: {len(data)} bytes, not the {entry.get('bytes')} its "
                          f"record {record_path} gives: truncated or replaced; restore it "
                          "or retrain")
    if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
        raise VictorError(f"{path}: its sha256 is not the one its record {record_path} "
                          "gives: changed or replaced; restore it or retrain")
    return data


def _trees(data: bytes | None, config: Config, path: Path | None,
           record_path: Path) -> second_pass.SecondPass | None:
    if (data is None) != (config.second_pass is None):
        has = "no trees file" if data is None else "a trees file"
        raise VictorError(f"{record_path}: the record has {has} but "
                          f"{'a' if config.second_pass else 'no'} second pass in its recipe; "
                          "retrain")
    if data is None:
        return None
    return second_pass.load(_lightgbm_text(data, path), config.second_pass, str(path))


def _page_type(data: bytes | None, path: Path | None) -> page_type.PageTypeModel | None:
    if data is None:
        return None
    return page_type.load(_lightgbm_text(data, path), str(path))


def _lightgbm_text(data: bytes, path: Path | None) -> str:
    """A LightGBM part's text (the trees', the page type's)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise VictorError(f"{path}: not a LightGBM text model (not UTF-8)") from None
