"""Locate the ffmpeg executable: the static build shipped by the imageio-ffmpeg wheel."""

from __future__ import annotations

import os
import shutil
from functools import lru_cache


@lru_cache(maxsize=1)
def ffmpeg_exe() -> str:
    """Path of an ffmpeg binary: $LVQ_FFMPEG, then imageio-ffmpeg's, then one on PATH."""
    env = os.environ.get("LVQ_FFMPEG")
    if env:
        return env
    try:
        import imageio_ffmpeg

        return imageio_ffmpeg.get_ffmpeg_exe()
    except Exception:  # noqa: BLE001 - fall back to PATH below
        found = shutil.which("ffmpeg")
        if found:
            return found
        raise RuntimeError("ffmpeg not found: install imageio-ffmpeg or set LVQ_FFMPEG") from None
