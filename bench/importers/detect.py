"""Which importer a file needs (from its first record's fields), and importing a whole file:
bad records are either skipped and counted (the default) or stop the import before anything is
written (strict); with a video folder, an item whose video is not there is a bad record too.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from bench.importers.common import _split_from_name
from bench.importers.longvqubench import _NESTED_KEYS, from_longvqubench
from bench.importers.mmbench import from_mmbench_video
from bench.importers.qbench import from_qbench_video
from bench.importers.readers import read_records
from bench.importers.videomme import SETTINGS, apply_subtitles, from_videomme
from bench.items import Item, RecordError, load_items, validation_reason
from tools.errors import InputError

FORMATS: tuple[str, ...] = ("items", "qbench_video", "videomme", "mmbench_video", "longvqubench")
CONVERTERS = {
    "qbench_video": from_qbench_video,
    "videomme": from_videomme,
    "mmbench_video": from_mmbench_video,
    "longvqubench": from_longvqubench,
}


def _format_from_keys(keys: set[str]) -> str | None:
    if {"gold", "benchmark", "format"} <= keys:
        return "items"
    if {"video_name", "answers"} <= keys:
        return "qbench_video"
    if "task_type" in keys or {"domain", "sub_category"} <= keys:
        return "videomme"
    if {"video", "question", "dimensions"} <= keys:
        return "mmbench_video"
    lvq = {"level", "dimension", "distortions", "distortion", "spans", "segments", "ndqa"}
    if keys & lvq and "question" in keys:
        return "longvqubench"
    return None


def detect_format(path: str | os.PathLike[str]) -> str:
    """Guess a file's format from its first record's fields; ValueError lists the known ones."""
    p = Path(path)
    keys: set[str] = set()
    if p.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        keys = set(pq.read_schema(p).names)
    else:
        for _, _, rec in read_records(p):
            if isinstance(rec, dict):
                keys = set(rec)
                for k in ("questions", *_NESTED_KEYS):
                    nested = rec.get(k)
                    if isinstance(nested, list) and nested and isinstance(nested[0], dict):
                        keys |= set(nested[0])
                break
    fmt = _format_from_keys(keys)
    if fmt is None:
        raise ValueError(
            f"cannot tell the format of {p} from its fields {sorted(keys)}; "
            f"pass fmt= one of {', '.join(FORMATS)}"
        )
    return fmt


@dataclass(frozen=True)
class ImportOptions:
    """How a file is imported: strict stops at the first bad record; video_dir checks that every
    video is there; subtitle_* set Video-MME's with/without-subtitles setting."""

    strict: bool = False
    video_dir: str | None = None
    subtitles: str = "without"
    subtitle_dir: str | None = None
    subtitle_lines: int = 32


def _missing_video(item: Item, video_dir: Path) -> str | None:
    for v in item.videos:
        p = Path(v) if Path(v).is_absolute() else video_dir / v
        if not p.is_file():
            return f"unknown video {v!r} (not in {video_dir})"
    return None


def _convert(p: Path, fmt: str, split: str) -> tuple[list[tuple[Item, int, str]],
                                                       list[RecordError]]:
    """Every item with where it came from (number, unit), and every bad record."""
    if fmt == "items":
        items, errors = load_items(p)
        return [(it, 0, "line") for it in items], errors
    convert = CONVERTERS[fmt]
    out: list[tuple[Item, int, str]] = []
    errors: list[RecordError] = []
    seen: set[str] = set()
    for number, unit, rec in read_records(p):
        if isinstance(rec, RecordError):
            errors.append(rec)
            continue
        try:
            converted = convert(rec, index=number, split=split)
        except ValidationError as exc:
            errors.append(RecordError(str(p), number, validation_reason(exc), unit))
            continue
        except (KeyError, ValueError, TypeError, SyntaxError) as exc:
            errors.append(RecordError(str(p), number, str(exc) or type(exc).__name__, unit))
            continue
        for item in converted:
            if item.id in seen:
                errors.append(RecordError(str(p), number, f"duplicate id {item.id!r}", unit))
                continue
            seen.add(item.id)
            out.append((item, number, unit))
    return out, errors


def import_file(
    path: str | os.PathLike[str], fmt: str | None = None, *, split: str | None = None,
    options: ImportOptions | None = None,
) -> tuple[list[Item], list[RecordError]]:
    """Import a benchmark file as Items; bad records come back as errors and are skipped, or,
    with options.strict, the first one raises InputError naming the file and line.

    ``fmt`` is one of FORMATS (detected when None); ``split`` defaults to the one named in the
    file name (dev/val/test/train), else "test".
    """
    opts = options or ImportOptions()
    if opts.subtitles not in SETTINGS:
        raise ValueError(f"unknown subtitle setting {opts.subtitles!r}; valid: "
                         f"{', '.join(SETTINGS)}")
    p = Path(path)
    fmt = fmt or detect_format(p)
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; valid: {', '.join(FORMATS)}")
    pairs, errors = _convert(p, fmt, split or _split_from_name(p) or "test")
    if opts.video_dir is not None:
        vdir = Path(opts.video_dir)
        kept = []
        for item, number, unit in pairs:
            reason = _missing_video(item, vdir)
            if reason is None:
                kept.append((item, number, unit))
            else:
                errors.append(RecordError(str(p), number, reason, unit))
        pairs = kept
    errors.sort(key=lambda e: e.index)
    if opts.strict and errors:
        k = len(errors) - 1
        more = f" (and {k} more bad record{'s' if k > 1 else ''})" if k else ""
        raise InputError(f"{errors[0]}{more}; nothing written (strict)")
    items = [it for it, _, _ in pairs]
    if fmt == "videomme" and (opts.subtitles != "without" or opts.subtitle_dir):
        sub_dir = opts.subtitle_dir or str(p.parent / "subtitle")
        items = apply_subtitles(items, opts.subtitles, sub_dir, opts.subtitle_lines)
    return items, errors
