"""Q-Bench-Video records (single videos and "a.mp4_cat_b.mp4" pairs) as Items."""

from __future__ import annotations

import re
from typing import Any

from bench.importers.common import _as_list, _clean_options, _drop_none, _text, gold_letter
from bench.items import Item

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


