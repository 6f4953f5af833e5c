"""LongVQUBench-style question records (LQU/CQR/GQU, 12 MCQ dimensions + open, NDQA
distortions and spans), flat or nested under a video record, as Items."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.importers.common import _as_list, _clean_options, _drop_none, _text, gold_letter
from bench.items import (
    LEVELS,
    OPEN_DIMENSION,
    Distortion,
    Item,
    Span,
    canonical_dimension,
    dimension,
    duration_class,
)

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


