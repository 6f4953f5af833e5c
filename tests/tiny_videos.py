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


def coded_window(src: Path, tmp: Path, seconds: float, a: float, b: float, qp: int) -> Path:
    """`src` looped for `seconds` (H.264 CRF 12), its [a, b) re-encoded by libx264 at `qp`
    and spliced back, the whole finished at CRF 20: a real low-bitrate window."""
    base, window, video = tmp / "base.mp4", tmp / "w.mp4", tmp / f"coded-qp{qp}.mp4"

    def run(*args: str) -> None:
        subprocess.run([ffmpeg_exe(), "-v", "error", "-y", *args], check=True)

    run("-stream_loop", "-1", "-i", str(src), "-t", f"{seconds:g}", "-an", "-c:v", "libx264",
        "-crf", "12", "-preset", "veryfast", "-pix_fmt", "yuv420p", str(base))
    run("-ss", f"{a:g}", "-t", f"{b - a:g}", "-i", str(base), "-an", "-c:v", "libx264",
        "-qp", str(qp), str(window))
    run("-i", str(base), "-i", str(window), "-filter_complex",
        f"[0:v]trim=0:{a:g},setpts=PTS-STARTPTS[a];[1:v]setpts=PTS-STARTPTS[b];"
        f"[0:v]trim={b:g}:{seconds:g},setpts=PTS-STARTPTS[c];[a][b][c]concat=n=3:v=1[v]",
        "-map", "[v]", "-c:v", "libx264", "-crf", "20", "-preset", "veryfast", str(video))
    return video
