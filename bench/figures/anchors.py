"""ffmpeg's own detectors as the anchor to beat: freezedetect run on the same items."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tools.ffmpeg import ffmpeg_exe

_START = re.compile(r"freeze_start: ([\d.]+)")
_END = re.compile(r"freeze_end: ([\d.]+)")


def freezedetect(video: Path, noise_db: float = -60.0,
                 min_s: float = 2.0) -> list[tuple[float, float]]:
    """Frozen spans ffmpeg's `freezedetect` reports (its defaults: -60 dB, 2 s)."""
    cmd = [ffmpeg_exe(), "-hide_banner", "-nostats", "-i", str(video), "-map", "0:v:0",
           "-vf", f"freezedetect=n={noise_db}dB:d={min_s}", "-f", "null", "-"]
    log = subprocess.run(cmd, capture_output=True, text=True, check=False).stderr
    starts = [float(x) for x in _START.findall(log)]
    ends = [float(x) for x in _END.findall(log)]
    if len(ends) < len(starts):  # frozen to the end of the file
        ends.append(float("inf"))
    return list(zip(starts, ends, strict=False))
