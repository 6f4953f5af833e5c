"""Build (or reuse) the index of every video of an item file ahead of a run, once each."""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench.items import load_items
from bench.run.execute import resolve_videos
from tools.errors import InputError


def _index_one(args: tuple[str, str | None]) -> dict[str, Any]:
    from tools.index import get_index

    video, cache = args
    t0 = time.perf_counter()
    index = get_index(video, cache_dir=Path(cache) if cache else None, progress=False,
                      clip=False)
    cached = bool(index.meta.get("cached"))
    return {"video": video, "cached": cached,
            "build_s": 0.0 if cached else float(index.meta.get("build_s") or 0.0),
            "wall_s": round(time.perf_counter() - t0, 2),
            "duration_s": float(index.info.duration_s), "events": len(index.events)}


def build_indexes(items_path: str | os.PathLike[str], cache_dir: str | Path | None = None,
                  video_dir: str | Path | None = None, workers: int = 1) -> list[dict[str, Any]]:
    """Build (or reuse) the index of every video of an item file, once each; their timings."""
    items, errors = load_items(items_path)
    if not items:
        reason = f": {errors[0]}" if errors else ""
        raise InputError(f"no valid items in {items_path}{reason}")
    vdir = Path(video_dir) if video_dir else Path(items_path).parent
    videos = sorted({v for it in items for v in resolve_videos(it, vdir)})
    jobs = [(v, str(cache_dir) if cache_dir else None) for v in videos]
    if workers <= 1:
        return [_index_one(j) for j in jobs]
    with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=mp.get_context("spawn")) as ex:
        return list(ex.map(_index_one, jobs))
