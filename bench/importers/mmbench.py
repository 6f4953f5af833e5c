"""MMBench-Video rows (open-ended, with their capability dimensions) as Items."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bench.importers.common import _as_list, _drop_none, _text
from bench.items import Item


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


