"""Very small test videos made with ffmpeg's test pattern (fractions of a second to build)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tools.ffmpeg import ffmpeg_exe


def tiny_video(path: Path, seconds: float = 3.0, size: str = "160x90", fps: int = 25,
               codec: str = "libx264", exe: str | None = None) -> Path:
    """Write `seconds` of moving test pattern to `path` with `codec`; returns the path."""
    cmd = [exe or ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
           "-i", f"testsrc=size={size}:rate={fps}", "-t", str(seconds), "-c:v", codec]
    if codec == "libx264":
        cmd += ["-preset", "ultrafast", "-pix_fmt", "yuv420p"]
    subprocess.run([*cmd, str(path)], check=True)
    return path
