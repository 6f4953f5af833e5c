"""Writing raw BGR frames to an H.264 file through ffmpeg, atomically."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np


def ffmpeg_exe() -> str:
    """Path of the ffmpeg binary bundled with imageio-ffmpeg (OpenCV cannot write H.264 here)."""
    import imageio_ffmpeg

    return imageio_ffmpeg.get_ffmpeg_exe()


def _encoder(path: Path, size: tuple[int, int], fps: float, crf: int, preset: str,
             log: Any) -> subprocess.Popen:
    rate = Fraction(fps).limit_denominator(1001)
    cmd = [
        ffmpeg_exe(), "-hide_banner", "-nostats", "-loglevel", "error", "-y",
        "-f", "rawvideo", "-pix_fmt", "bgr24", "-s", f"{size[0]}x{size[1]}",
        "-r", f"{rate.numerator}/{rate.denominator}", "-i", "-",
        "-an", "-c:v", "libx264", "-preset", preset, "-crf", str(crf), "-pix_fmt", "yuv420p",
        "-movflags", "+faststart", "-f", "mp4", str(path),
    ]
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=log)


def write_video(path: str | Path, frames: Iterable[np.ndarray], size: tuple[int, int],
                fps: float, crf: int = 18, preset: str = "veryfast") -> int:
    """Encode BGR frames to H.264 (yuv420p) at ``path`` atomically; returns the frame count."""
    path = Path(path)
    part = path.with_name(path.name + ".part")
    count = 0
    with tempfile.TemporaryFile() as log:
        proc = _encoder(part, size, fps, crf, preset, log)
        try:
            for frame in frames:
                proc.stdin.write(np.ascontiguousarray(frame).data)
                count += 1
            proc.stdin.close()
        except BrokenPipeError:
            pass  # ffmpeg died: its log says why
        except BaseException:
            proc.kill()
            proc.wait()
            part.unlink(missing_ok=True)
            raise
        rc = proc.wait()
        if rc != 0:
            log.seek(0)
            part.unlink(missing_ok=True)
            raise RuntimeError(f"ffmpeg failed ({rc}): {log.read().decode(errors='replace')}")
    os.replace(part, path)
    return count
