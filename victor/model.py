"""A trained model: one folder that holds everything cleaning needs, and
the one record of how it was made.

    M/model.json         the record: the recipe (the config's keys) it was
                         made from, each file below with its size and sha256,
                         the CRF's training record and calibration, the
                         trees' training record, the pages it learnt from
    M/crf.crfsuite       the CRF (crfsuite's model file)
    M/second-pass.lgbm   the second pass's trees, where the recipe has one
    M/page-type.lgbm     the page-type classifier (victor/page_type/), where the
                         recipe's second pass reads one (`article-bars`, or
                         `comment-sections` or `review-sections` above 0)

`victor learn` writes it (victor/training/pipeline.py); `load` checks every
file against the size and hash the record gives before anything is read
from it, so that a truncated, swapped or stale file is one line naming it.
A file may be another shipped model's, named by a path relative to the
folder (`../general/crf.crfsuite`): the shipped article model is the
general model's CRF and trees with other bars (docs/models.md).

The record's recipe is what cleaning follows. A config given with a model
must agree with it key for key (`check_recipe`), else it is refused in one
line naming the key, both values and what to do: a config's decoding key
never silently differs from what `--model` alone does. A model with other
decoding keys is a new model (`with_decoding`, `victor learn --from-model`),
made without training, with its own record.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from victor import crf, page_type, second_pass
from victor.config import (MODEL_DIR, Config, from_record, portable, recipe, unknown_keys,
                           with_known_keys)
from victor.errors import VictorError, read_utf8

FORMAT = 1
RECORD = "model.json"
# The files of a model folder, by their part.
FILES = {"crf": "crf.crfsuite", "second-pass": "second-pass.lgbm",
         "page-type": "page-type.lgbm"}
# The decoding keys the second pass's trees read the labels of (the best
# path widened: victor.decoding.widened): trees trained on labels decoded
# with others are not the trees of a model that decodes with these.
TREE_INPUT_KEYS = ("keep-above", "fallback-share", "unit-bar", "list-bar")


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


# --- a config against a model's record ----------------------------------------

_UNSET = object()
# The recipe's groups (victor.config.recipe), and how their keys are named
# in a config file. Cleaning reads the first three; the other two say how
# the model was trained, and a config given with a model at cleaning time
# is not held to them, as nothing of them applies then.
_GROUPS = (("settings", ""), ("template", "template"), ("decoding", ""), ("crf", "crf."),
           ("second-pass", "second-pass."))
CLEANING = ("settings", "template", "decoding")


@dataclass(frozen=True)
class Difference:
    group: str  # of the recipe (victor.config.recipe)
    name: str   # as in the config file: keep-above, values.split.p, second-pass.keep, crf.c2
    here: Any   # the config's
    there: Any  # the model's record's


def differences(config: Config, recorded: dict[str, Any],
                groups: tuple[str, ...] = CLEANING) -> list[Difference]:
    """Every key of `config`'s recipe, in `groups`, whose value is not the
    one of the `recorded` recipe."""
    wanted = recipe(config)
    out: list[Difference] = []
    for group, prefix in _GROUPS:
        if group not in groups:
            continue
        a, b = wanted.get(group, _UNSET), recorded.get(group, _UNSET)
        if isinstance(a, dict) and isinstance(b, dict):
            out.extend(Difference(group, *c) for c in _compared(a, b, prefix))
        elif a != b:
            out.append(Difference(group, prefix.rstrip(".") or group, a, b))
    return out


def _compared(a: dict, b: dict, prefix: str) -> list[tuple[str, Any, Any]]:
    out = []
    for key in [*a, *(k for k in b if k not in a)]:
        x, y = a.get(key, _UNSET), b.get(key, _UNSET)
        if isinstance(x, dict) and isinstance(y, dict):
            out.extend(_compared(x, y, f"{prefix}{key}."))
        elif x != y:
            out.append((f"{prefix}{key}", x, y))
    return out


def _needs_training(d: Difference, model: TrainedModel, config: Config) -> bool:
    """Whether a model with the config's value takes training: a feature
    setting or the template does, and so does a second pass the model has
    no trees for, and a decoding key its trees read the labels of
    (TREE_INPUT_KEYS)."""
    if d.group != "decoding":
        return True
    if d.name == "second-pass":
        return config.second_pass is not None
    if d.name == "second-pass.page-type-share" and isinstance(d.here, (int, float)) and d.here:
        return model.trees is None or not model.trees.typed
    if d.name.startswith(("second-pass.article-bars", "second-pass.comment-sections",
                          "second-pass.review-sections", "second-pass.page-type-share")):
        return (model.page_type is None and config.second_pass is not None
                and config.second_pass.reads_page_type)
    return (model.trees is not None and config.second_pass is not None
            and d.name in TREE_INPUT_KEYS)


def _shown(value: Any) -> str:
    if value is _UNSET:
        return "unset"
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _differs(d: Difference, model: TrainedModel, more: int = 0) -> str:
    others = f" (and {more} more key{'s' * (more > 1)})" if more else ""
    return (f"key '{d.name}' is {_shown(d.here)} here but {_shown(d.there)} in the model "
            f"{model.name}{others}")


def _retrain(config: Config) -> str:
    return f"victor learn --config {config.path} -o NEW_FOLDER FILES.anno"


def check_recipe(model: TrainedModel, config: Config) -> None:
    """Refuses, in one line, a config that differs from the record of the
    model it is given with: cleaning follows the record, so a key that
    differs would silently not apply."""
    changed = differences(config, model.recipe)
    if not changed:
        return
    if any(_needs_training(d, model, config) for d in changed):
        how = f"or retrain: {_retrain(config)}"
    else:
        how = (f"or make a model with it, without training: victor learn --config "
               f"{config.path} --from-model {model.folder} -o NEW_FOLDER")
    raise VictorError(f"{config.path}: {_differs(changed[0], model, len(changed) - 1)}; "
                      "cleaning follows the model's record: give the model alone (--model), "
                      f"set the key to the model's value, {how}")


def with_decoding(model: TrainedModel, config: Config) -> TrainedModel:
    """The model with `config`'s decoding keys, made in memory without
    training: the same CRF, calibration and trees, and a record whose
    recipe's decoding is the config's (its training settings stay the ones
    the parts were trained with). Refused in one line where the config's
    features or template differ, where it asks for trees the model has none
    of, or changes how the labels its trees read are decoded
    (TREE_INPUT_KEYS)."""
    for d in differences(config, model.recipe):
        if _needs_training(d, model, config):
            raise VictorError(f"{config.path}: {_differs(d, model)}, and a model with it "
                              f"takes training: {_retrain(config)}")
    second = config.second_pass is not None
    # The classifier goes with the bars that read it: the article model,
    # whose bars are the article bars for every page, has none.
    kinds = second and config.second_pass.reads_page_type
    kept = {"crf", *(["second-pass"] if second else []), *(["page-type"] if kinds else [])}
    new_recipe = {**model.recipe, "decoding": recipe(config)["decoding"],
                  "second-pass": model.recipe["second-pass"] if second else None}
    record = {**model.record, "config": config.name, "config_path": portable(config.path),
              "config_sha256": config.digest, "recipe": new_recipe,
              "files": {part: entry for part, entry in model.record["files"].items()
                        if part in kept},
              "made_from": {"model": model.record.get("config"),
                            "decoding": model.recipe["decoding"]}}
    if not second:
        record.pop("second-pass", None)
    new_config = from_record(new_recipe, Path(model.name) / RECORD, config.name, config.digest)
    trees = replace(model.trees, settings=new_config.second_pass) if second else None
    return TrainedModel(None, record, new_config, model.crf, trees,
                        model.trees_text if second else None,
                        {part: path for part, path in model.sources.items()
                         if part in record["files"]},
                        model.page_type if kinds else None,
                        model.page_type_text if kinds else None)


# --- writing -------------------------------------------------------------------

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
