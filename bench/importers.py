"""Importers from public benchmark files to Items: Q-Bench-Video, Video-MME, MMBench-Video, and
LongVQUBench-style JSON/JSONL. Every Item keeps its source record verbatim in ``original``.

A bad record is reported (line/record number and reason) and skipped, never fatal.
"""

from __future__ import annotations

import ast
import csv
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bench.items import (
    LEVELS,
    OPEN_DIMENSION,
    Distortion,
    Item,
    RecordError,
    Span,
    canonical_dimension,
    dimension,
    duration_class,
    letter,
    load_items,
    strip_letter_prefix,
    validation_reason,
)

FORMATS: tuple[str, ...] = ("items", "qbench_video", "videomme", "mmbench_video", "longvqubench")

Converter = Callable[..., list[Item]]

# ---------------------------------------------------------------- small helpers


def _text(rec: dict[str, Any], *keys: str, required: bool = True) -> str | None:
    """The first non-empty value among keys, as stripped text."""
    for key in keys:
        value = rec.get(key)
        if value is not None and str(value).strip():
            return str(value).strip()
    if required:
        raise ValueError(f"missing field {' / '.join(keys)}")
    return None


def _as_list(value: Any) -> list[Any]:
    """A list from a list, a tuple, a numpy-like array, or a list written as text."""
    if value is None:
        return []
    if isinstance(value, str):
        s = value.strip()
        if not s:
            return []
        if s[0] in "[(":
            try:
                parsed = json.loads(s)
            except json.JSONDecodeError:
                parsed = ast.literal_eval(s)  # literals only, never eval
            return list(parsed)
        return [s]
    if hasattr(value, "tolist"):
        value = value.tolist()
    return list(value)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", text.lower())).strip()


_LEADING_LETTER = re.compile(r"^\(?([A-Za-z])(?:[.):](?:\s|$)|$)")


def gold_letter(value: Any, options: list[str]) -> str | None:
    """Resolve a correct-choice field to a letter: "B", "b", "B. text", 1 (0-based), option text."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise ValueError(f"correct choice {value!r} is a boolean")
    n = len(options)
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        i = int(value)
        if not 0 <= i < n:
            raise ValueError(f"correct choice index {i} out of range for {n} options")
        return letter(i)
    s = str(value).strip()
    m = _LEADING_LETTER.match(s)
    if m and 0 <= ord(m.group(1).upper()) - ord("A") < n:
        return m.group(1).upper()
    matches = [i for i, opt in enumerate(options) if _norm(opt) == _norm(s)]
    if len(matches) == 1:
        return letter(matches[0])
    raise ValueError(f"correct choice {s!r} is neither a letter within {n} options nor an option")


def _clean_options(raw: Any) -> list[str]:
    """Option texts without letter prefixes; a dict {"A": text} is read in letter order."""
    if isinstance(raw, dict):
        raw = [raw[k] for k in sorted(raw)]
    opts = [strip_letter_prefix(str(o)) for o in _as_list(raw)]
    while opts and not opts[-1]:
        opts.pop()  # Q-Bench-Video pads two-choice questions with empty answers
    if any(not o for o in opts):
        raise ValueError("an option is empty")
    return opts


def _split_from_name(path: Path) -> str | None:
    m = re.search(r"(?:^|[_\-.])(dev|val|validation|test|train)(?:[_\-.]|$)", path.name.lower())
    if not m:
        return None
    return {"validation": "val"}.get(m.group(1), m.group(1))


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


# ---------------------------------------------------------------- Q-Bench-Video

_DOUBLE_EXT = re.compile(r"(\.(?:mp4|mov|avi|mkv|webm))\1$", re.IGNORECASE)


def qbench_videos(video_name: str) -> list[str]:
    """Video files of a Q-Bench-Video item: "a.mp4_cat_b.mp4" is the pair [a.mp4, b.mp4]."""
    if "_cat_" not in video_name:
        return [video_name]
    first, second = video_name.split("_cat_", 1)
    return [first, _DOUBLE_EXT.sub(r"\1", second)]


def from_qbench_video(rec: dict[str, Any], *, index: int, split: str) -> list[Item]:
    """One Q-Bench-Video record (video_name, question, answers, question_type, context, ...)."""
    name = _text(rec, "video_name")
    videos = qbench_videos(name)
    qtype = str(rec.get("question_type") or "")
    is_open = "open" in qtype.lower()
    if is_open:
        options: list[str] = []
        gold = _text(rec, "correct_choice", "correct_answer", "reference", required=False)
        if gold is None:
            refs = [str(a).strip() for a in _as_list(rec.get("answers")) if str(a).strip()]
            gold = "\n".join(refs) or None
    else:
        options = _clean_options(rec.get("answers"))
        gold = gold_letter(rec.get("correct_choice"), options)
    tags = _drop_none(
        {
            "video_type": rec.get("video_type"),
            "context": rec.get("context"),
            "concern": rec.get("concern") or rec.get("quality_concern"),
            "pair": len(videos) == 2,
        }
    )
    item_id = _text(rec, "id", "question_id", required=False) or f"{index:05d}"
    return [
        Item(
            id=f"qbench_video-{split}-{item_id}",
            benchmark="qbench_video",
            split=split,
            videos=videos,
            question=_text(rec, "question"),
            format="open" if is_open else "mcq",
            options=options,
            gold=gold,
            question_type=qtype,
            tags=tags,
            original=rec,
        )
    ]


# ---------------------------------------------------------------- Video-MME


def _videomme_one(rec: dict[str, Any], original: Any, split: str) -> Item:
    vid = _text(rec, "videoID", "video_id")
    video = vid if Path(vid).suffix else f"{vid}.mp4"
    options = _clean_options(rec.get("options"))
    qid = _text(rec, "question_id")
    tags = _drop_none(
        {
            "duration": rec.get("duration"),
            "domain": rec.get("domain"),
            "sub_category": rec.get("sub_category"),
            "task_type": rec.get("task_type"),
        }
    )
    return Item(
        id=f"videomme-{qid}",
        benchmark="videomme",
        split=split,
        videos=[video],
        question=_text(rec, "question"),
        format="mcq",
        options=options,
        gold=gold_letter(rec.get("answer"), options),
        question_type=str(rec.get("task_type") or ""),
        tags=tags,
        original=original,
    )


def from_videomme(rec: dict[str, Any], *, index: int, split: str) -> list[Item]:
    """A Video-MME row (parquet/flat JSON) or a video record with nested "questions"."""
    nested = rec.get("questions")
    if nested is None:
        return [_videomme_one(rec, rec, split)]
    base = {k: v for k, v in rec.items() if k != "questions"}
    items = []
    for q in _as_list(nested):
        merged = {**base, **q}
        items.append(_videomme_one(merged, merged, split))
    return items


# ---------------------------------------------------------------- MMBench-Video


def _dimensions(value: Any) -> list[str]:
    """MMBench-Video "dimensions": a list, or a list literal as text (parsed, never eval'd)."""
    return [str(d).strip() for d in _as_list(value) if str(d).strip()]


def from_mmbench_video(rec: dict[str, Any], *, index: int, split: str) -> list[Item]:
    """One MMBench-Video row (index, video, question, answer, dimensions; open-ended)."""
    idx = _text(rec, "index")
    path = _text(rec, "video_path", required=False)
    if path:
        video = os.path.normpath(path)
    else:
        vid = _text(rec, "video")
        video = vid if Path(vid).suffix else f"{vid}.mp4"
    dims = _dimensions(rec.get("dimensions"))
    tags = _drop_none(
        {
            "dimensions": dims,
            "dimension": dims[0] if dims else None,
            "video_type": rec.get("video_type"),
        }
    )
    return [
        Item(
            id=f"mmbench_video-{idx}",
            benchmark="mmbench_video",
            split=split,
            videos=[video],
            question=_text(rec, "question"),
            format="open",
            gold=_text(rec, "answer", required=False),
            question_type="open",
            tags=tags,
            original=rec,
        )
    ]


# ---------------------------------------------------------------- LongVQUBench-style

_MCQ_WORDS = {"mcq", "multiple_choice", "multiple-choice", "multiple choice", "mc", "choice"}
_OPEN_WORDS = {"open", "open_ended", "open-ended", "open ended", "oe", "free_form", "free-form"}
_NESTED_KEYS = ("questions", "qa", "qa_pairs")


def _spans(raw: Any) -> list[Span]:
    spans = []
    for s in _as_list(raw):
        if isinstance(s, dict):
            start = s.get("start_s", s.get("start"))
            end = s.get("end_s", s.get("end"))
            label = s.get("label", s.get("type", ""))
            spans.append(Span(start_s=float(start), end_s=float(end), label=str(label or "")))
        else:
            start, end = _as_list(s)[:2]
            spans.append(Span(start_s=float(start), end_s=float(end)))
    return spans


def _distortions(rec: dict[str, Any]) -> list[Distortion]:
    raw = rec.get("distortions")
    if raw is None and isinstance(rec.get("distortion"), dict):
        raw = [rec["distortion"]]
    out = []
    for d in _as_list(raw):
        if isinstance(d, str):
            out.append(Distortion(type=d))
            continue
        params = dict(d.get("params") or {})
        if "intensity" in d and "intensity" not in params:
            params["intensity"] = d["intensity"]
        start = d.get("start_s", d.get("start"))
        end = d.get("end_s", d.get("end"))
        out.append(
            Distortion(
                type=str(d.get("type") or d.get("name") or ""),
                level=d.get("level"),
                params=params,
                start_s=None if start is None else float(start),
                end_s=None if end is None else float(end),
            )
        )
    return out


def _lvq_one(rec: dict[str, Any], original: Any, default_id: str, split: str) -> Item:
    if rec.get("videos"):
        videos = [str(v) for v in _as_list(rec["videos"])]
    else:
        vid = _text(rec, "video", "video_path", "video_name", "video_id")
        videos = [vid if Path(vid).suffix else f"{vid}.mp4"]
    raw_options = rec.get("options", rec.get("choices", rec.get("candidates")))
    options = _clean_options(raw_options)
    fmt_word = (_text(rec, "format", "question_format", required=False) or "").lower()
    if fmt_word in _MCQ_WORDS:
        fmt = "mcq"
    elif fmt_word in _OPEN_WORDS:
        fmt = "open"
    elif fmt_word:
        raise ValueError(f"unknown question format {fmt_word!r}")
    else:
        fmt = "mcq" if options else "open"
    gold_keys = ("gold", "answer", "correct_answer", "correct_choice", "label", "ground_truth")
    raw_gold = next((rec[k] for k in gold_keys if rec.get(k) is not None), None)
    if fmt == "mcq":
        gold = gold_letter(raw_gold, options)
    else:
        options = []
        gold = None if raw_gold is None else str(raw_gold).strip() or None

    tags: dict[str, Any] = dict(rec.get("tags") or {})
    level = _text(rec, "level", "task_level", required=False)
    dim_text = _text(rec, "dimension", "question_dimension", "sub_task", required=False)
    dim = canonical_dimension(dim_text) if dim_text else (OPEN_DIMENSION if fmt == "open" else None)
    if level is not None:
        level = level.upper()
        if level not in LEVELS:
            raise ValueError(f"level {level!r} is not one of {', '.join(LEVELS)}")
    if dim is not None and dim != OPEN_DIMENSION:
        dim_level = dimension(dim).level
        if level is not None and level != dim_level:
            raise ValueError(f"dimension {dim!r} belongs to {dim_level}, not {level}")
        level = dim_level
    distortions = _distortions(rec)
    duration = rec.get("duration_s", rec.get("duration"))
    if isinstance(duration, int | float) and not isinstance(duration, bool):
        tags["duration_s"] = float(duration)
        tags["duration"] = duration_class(float(duration))
    elif duration is not None:
        tags["duration"] = str(duration)
    ndqa = rec.get("ndqa")
    tags.update(
        _drop_none(
            {
                "level": level,
                "dimension": dim,
                "ndqa": ndqa if isinstance(ndqa, bool) else bool(distortions),
                "quality": rec.get("quality"),
            }
        )
    )
    raw_spans = next(
        (rec[k] for k in ("spans", "segments", "gold_spans", "time_spans") if k in rec), None
    )
    return Item(
        id=_text(rec, "id", "qid", "question_id", required=False) or default_id,
        benchmark=str(rec.get("benchmark") or "longvqubench"),
        split=str(rec.get("split") or split),
        videos=videos,
        question=_text(rec, "question"),
        format=fmt,
        options=options,
        gold=gold,
        question_type=str(rec.get("question_type") or ""),
        tags=tags,
        spans=_spans(raw_spans),
        distortions=distortions,
        original=original,
    )


def from_longvqubench(rec: dict[str, Any], *, index: int, split: str) -> list[Item]:
    """A LongVQUBench-style question record, or a video record with nested question records."""
    nested_key = next((k for k in _NESTED_KEYS if isinstance(rec.get(k), list)), None)
    if nested_key is None:
        return [_lvq_one(rec, rec, f"longvqubench-{split}-{index:05d}", split)]
    base = {k: v for k, v in rec.items() if k != nested_key}
    return [
        _lvq_one({**base, **q}, {**base, **q}, f"longvqubench-{split}-{index:05d}-{j}", split)
        for j, q in enumerate(rec[nested_key])
    ]


CONVERTERS: dict[str, Converter] = {
    "qbench_video": from_qbench_video,
    "videomme": from_videomme,
    "mmbench_video": from_mmbench_video,
    "longvqubench": from_longvqubench,
}

# ---------------------------------------------------------------- reading records

Record = dict[str, Any] | RecordError


def _is_json_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except json.JSONDecodeError:
        return False


def _read_json(path: Path) -> Iterator[tuple[int, str, Record]]:
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        first = next((ln for ln in text.splitlines() if ln.strip()), "")
        if _is_json_object(first):  # JSON Lines saved under a .json name
            yield from _read_jsonl(path)
            return
        yield exc.lineno, "line", RecordError(str(path), exc.lineno, f"invalid JSON: {exc.msg}")
        return
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        yield 0, "record", RecordError(str(path), 0, "top level is neither a list nor an object")
        return
    for i, rec in enumerate(data, start=1):
        if isinstance(rec, dict):
            yield i, "record", rec
        else:
            yield i, "record", RecordError(str(path), i, "record is not an object", "record")


def _read_jsonl(path: Path) -> Iterator[tuple[int, str, Record]]:
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                yield lineno, "line", RecordError(str(path), lineno, f"invalid JSON: {exc.msg}")
                continue
            if isinstance(rec, dict):
                yield lineno, "line", rec
            else:
                yield lineno, "line", RecordError(str(path), lineno, "line is not a JSON object")


def _read_tsv(path: Path) -> Iterator[tuple[int, str, Record]]:
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        width = len(reader.fieldnames or [])
        for row in reader:
            lineno = reader.line_num
            if None in row or any(v is None for v in row.values()):
                n = len([v for k, v in row.items() if k is not None and v is not None])
                n += len(row.get(None) or [])
                reason = f"expected {width} tab-separated fields, found {n}"
                yield lineno, "line", RecordError(str(path), lineno, reason)
                continue
            yield lineno, "line", dict(row)


def _read_parquet(path: Path) -> Iterator[tuple[int, str, Record]]:
    import pyarrow.parquet as pq

    for i, row in enumerate(pq.read_table(path).to_pylist(), start=1):
        yield i, "row", row


def read_records(path: str | os.PathLike[str]) -> Iterator[tuple[int, str, Record]]:
    """Yield (number, unit, record-or-error) from a .json, .jsonl, .tsv or .parquet file."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".jsonl":
        return _read_jsonl(p)
    if suffix == ".json":
        return _read_json(p)
    if suffix == ".tsv":
        return _read_tsv(p)
    if suffix == ".parquet":
        return _read_parquet(p)
    raise ValueError(f"unsupported file type {suffix!r}; expected .json, .jsonl, .tsv or .parquet")


# ---------------------------------------------------------------- detection and import


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


def import_file(
    path: str | os.PathLike[str], fmt: str | None = None, *, split: str | None = None
) -> tuple[list[Item], list[RecordError]]:
    """Import a benchmark file as Items; bad records are returned as errors and skipped.

    ``fmt`` is one of FORMATS (detected when None); ``split`` defaults to the one named in the
    file name (dev/val/test/train), else "test".
    """
    p = Path(path)
    fmt = fmt or detect_format(p)
    if fmt == "items":
        return load_items(p)
    if fmt not in CONVERTERS:
        raise ValueError(f"unknown format {fmt!r}; valid: {', '.join(FORMATS)}")
    convert = CONVERTERS[fmt]
    split = split or _split_from_name(p) or "test"
    items: list[Item] = []
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
            items.append(item)
    return items, errors
