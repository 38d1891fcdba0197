"""What made an output folder, recorded in it: Victor's version, the
config and model (by digest), and every option that changes an output.

A rerun keeps the outputs that exist, so that an interrupted batch is
finished by running it again. A rerun with other settings would keep them
too, and a corpus would mix two settings without anyone knowing: it is
refused, naming what differs, unless `--overwrite` is given. Formats are
recorded by the suffix of their files: `--format markdown` may follow
`--format cleaneval` into the same folder (their files differ), `--format
text` may not (both write NAME.txt).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from victor.errors import VictorError
from victor.files import filesystem, is_url, join, write_atomic
from victor.output import FORMATS

if TYPE_CHECKING:
    from victor.batch.workers import RunOptions
    from victor.cleaner import Cleaner

MANIFEST = ".victor.json"


@dataclass(frozen=True)
class Settings:
    """What an output folder's outputs were made with."""

    victor: str
    config: str  # the name or path given
    config_digest: str  # of its mapping, with its base's (victor.config)
    model: str  # the model file given, or "" for the config's
    model_digest: str  # of the model's metadata (its file's hash, calibration) and trees
    threshold: float | None
    favor: str | None
    language: str | None
    links: bool
    images: bool
    tables: bool
    url: str
    formats: dict[str, str] = field(default_factory=dict)  # output suffix -> format
    comments: str | None = None  # --comments (a manifest of before it: None)
    # The outputs (names in the folder) that --language skipped: a rerun
    # with the same settings does not clean their pages again.
    other_language: list[str] = field(default_factory=list)


def settings_of(cleaner: Cleaner, options: RunOptions, formats: list[str],
                url: str) -> Settings:
    import victor

    return Settings(
        victor=victor.__version__, config=options.config or cleaner.config.name,
        config_digest=cleaner.config.digest, model=options.model or "",
        model_digest=model_digest(cleaner), threshold=options.threshold, favor=options.favor,
        language=options.languages, links=options.rendering.links,
        images=options.rendering.images, tables=options.rendering.tables, url=url,
        formats={FORMATS[f].suffix: f for f in sorted(set(formats))}, comments=options.comments)


def model_digest(cleaner: Cleaner) -> str:
    """The model by its record (victor.model), which holds its recipe and
    each of its files' sha256: the CRF, its calibration and the trees."""
    record = cleaner.trained.record
    return hashlib.sha256(json.dumps({k: record.get(k) for k in ("recipe", "files", "crf")},
                                     sort_keys=True).encode()).hexdigest()


def differences(old: Settings, new: Settings) -> list[str]:
    """What `new` changes, each as the option that would give the old
    outputs, in the words of the command line."""
    said = []
    for suffix, fmt in new.formats.items():
        if old.formats.get(suffix, fmt) != fmt:
            said.append(f"--format {fmt}, was {old.formats[suffix]}")
    if old.config_digest != new.config_digest:
        said.append(f"--config {new.config}, was {old.config}"
                    + (" as it was then" if old.config == new.config else ""))
    # Another config brings its own model: that is said by the config.
    configs_model = not old.model and not new.model and old.config_digest != new.config_digest
    if old.model_digest != new.model_digest and not configs_model:
        said.append(f"model {new.model or 'of the config'} ({new.model_digest[:12]}), was "
                    f"{old.model or 'of the config'} ({old.model_digest[:12]})")
    for name in ("threshold", "favor", "comments", "language", "url"):
        was, now = getattr(old, name), getattr(new, name)
        if was != now:
            said.append(f"--{name} {_shown(now)}, was {_shown(was)}")
    for name in ("links", "images", "tables"):
        was, now = getattr(old, name), getattr(new, name)
        if was != now:
            said.append(f"--no-{name}" if not now else f"with {name}, was --no-{name}")
    if old.victor != new.victor:
        said.append(f"victor {new.victor}, was {old.victor}")
    return said


def _shown(value: Any) -> str:
    return "none" if value in (None, "") else str(value)


def check_and_record(outdir: str, settings: Settings, overwrite: bool) -> None:
    """Refuses a folder whose outputs were made with other settings, unless
    `overwrite`; then records `settings` (with the formats of earlier runs
    that this one does not contradict)."""
    path = join(outdir, MANIFEST)
    old = read(path)
    if old is not None:
        changed = differences(old, settings)
        if changed and not overwrite:
            raise VictorError(f"{outdir}: its outputs were made with other settings "
                              f"({'; '.join(changed)}); give --overwrite to replace them, "
                              "or choose another folder with -o")
        if not changed:
            settings = Settings(**{**settings.__dict__,
                                   "formats": {**old.formats, **settings.formats},
                                   "other_language": old.other_language})
    if old != settings:
        write_atomic(path, json.dumps(settings.__dict__, indent=1, sort_keys=True) + "\n")


def read(path: str) -> Settings | None:
    """The settings recorded at `path`; None where there are none (a new
    folder, or one an older Victor wrote, whose settings are unknown)."""
    try:
        if is_url(path):
            fs, inner = filesystem(path)
            with fs.open(inner, "r", encoding="utf-8") as f:
                text = f.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise VictorError(f"{path}: cannot read what made this folder ({e}); remove it or "
                          "choose another folder with -o") from None
    try:
        recorded = json.loads(text)
        # A record of another version may lack a field: it then differs.
        return Settings(**{f.name: recorded.get(f.name) for f in fields(Settings)
                           if f.name not in ("formats", "other_language")},
                        formats=dict(recorded.get("formats") or {}),
                        other_language=list(recorded.get("other_language") or []))
    except (ValueError, TypeError, AttributeError) as e:
        raise VictorError(f"{path}: not the record of what made this folder ({e}); remove "
                          "it or choose another folder with -o") from None


def record_skipped(outdir: str, names: list[str]) -> None:
    """Adds the outputs whose pages --language skipped to the folder's
    record, so that a rerun passes over them as over outputs that exist."""
    path = join(outdir, MANIFEST)
    settings = read(path)
    if settings is None or not names:
        return
    settings = replace(settings, other_language=sorted(set(settings.other_language) | set(names)))
    write_atomic(path, json.dumps(settings.__dict__, indent=1, sort_keys=True) + "\n")


def skipped_before(outdir: str) -> set[str]:
    """The outputs whose pages an earlier run skipped for their language."""
    settings = read(join(outdir, MANIFEST))
    return set(settings.other_language) if settings is not None else set()
