"""Video-MME rows (the published parquet/JSON layout) as Items, with duration class and the
with/without-subtitles setting."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bench.importers.common import _as_list, _clean_options, _drop_none, _text, gold_letter
from bench.items import Item


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




SETTINGS: tuple[str, ...] = ("without", "with", "both")


def apply_subtitles(items: list[Item], setting: str, subtitle_dir: str | os.PathLike[str],
                    lines: int) -> list[Item]:
    """Video-MME's settings: "without" tags each item; "with" gives the items whose video has
    subtitles a copy (id + "-sub") whose question carries them; "both" keeps the two."""
    from bench.importers.subtitles import find_subtitles, subtitle_block, with_subtitles

    if setting not in SETTINGS:
        raise ValueError(f"unknown subtitle setting {setting!r}; valid: {', '.join(SETTINGS)}")
    out: list[Item] = []
    blocks: dict[str, str] = {}
    for it in items:
        if setting in ("without", "both"):
            out.append(it.model_copy(update={"tags": {**it.tags, "subtitles": "without"}}))
        if setting == "without":
            continue
        vid = Path(it.videos[0]).stem
        if vid not in blocks:
            path = find_subtitles(vid, subtitle_dir)
            blocks[vid] = subtitle_block(path, None, lines) if path else ""
        if blocks[vid]:
            tags = {**it.tags, "subtitles": "with"}
            out.append(it.model_copy(update={"id": f"{it.id}-sub", "tags": tags,
                                             "question": with_subtitles(it.question,
                                                                        blocks[vid])}))
    return out
