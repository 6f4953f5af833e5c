"""Decord's reader interface over ffmpeg, for valid files decord cannot open.

Decord refuses some containers whose headers state no duration (Ogg Theora: "Failed to measure
duration/frame-count"). ffmpeg reads them: the frame times come from the packet list (a stream
copy, nothing decoded), and frames from a seek plus a short decode into a raw pipe.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tools.errors import VideoError
from tools.ffmpeg import ffmpeg_exe

_TB = re.compile(r"^#tb 0: (\d+)/(\d+)", re.M)
_DIMS = re.compile(r"^#dimensions 0: (\d+)x(\d+)", re.M)
_NOPTS = -(2**63)


def packet_list_timeout_s(path: Path) -> float:
    """A stream copy reads at disk speed: a minute, plus a second per 20 MB of file."""
    try:
        size_mb = path.stat().st_size / 1e6
    except OSError:
        size_mb = 0.0
    return 60.0 + size_mb / 20.0


def packet_list(path: Path) -> tuple[np.ndarray, tuple[int, int]]:
    """Presentation times (s, from 0, sorted) of every video packet, and the (width, height)."""
    cmd = [ffmpeg_exe(), "-hide_banner", "-nostdin", "-loglevel", "error", "-i", str(path),
           "-map", "0:v:0", "-c", "copy", "-f", "framecrc", "-"]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                             timeout=packet_list_timeout_s(Path(path)))
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise VideoError(f"cannot read video: {path} ({exc})") from None
    tb, dims = _TB.search(res.stdout), _DIMS.search(res.stdout)
    if res.returncode != 0 or not tb or not dims:
        raise VideoError(f"cannot decode video: {path}")
    unit = int(tb.group(1)) / int(tb.group(2))
    ticks = []
    for line in res.stdout.splitlines():
        if line.startswith("#"):
            continue
        cols = [c.strip() for c in line.split(",")]
        if len(cols) >= 3 and cols[0] == "0":
            stamp = _tick(cols[2])  # pts, else dts (AVI packets carry only a dts)
            stamp = _tick(cols[1]) if stamp is None else stamp
            if stamp is not None:
                ticks.append(stamp)
    if not ticks:
        raise VideoError(f"video has no frames: {path}")
    times = np.sort(np.asarray(ticks, dtype=np.float64)) * unit
    return times - times[0], (int(dims.group(1)), int(dims.group(2)))


def _tick(text: str) -> int | None:
    """A framecrc timestamp, or None when it is missing (AV_NOPTS_VALUE is -2**63)."""
    if not text.lstrip("-").isdigit():
        return None
    value = int(text)
    return None if value == _NOPTS else value


class FfmpegReader:
    """The part of decord.VideoReader this project uses: len, fps, frame times, frames (RGB)."""

    def __init__(self, path: str | Path, width: int = -1, height: int = -1) -> None:
        self.path = Path(path)
        self.stamps, (w, h) = packet_list(self.path)
        self.size = (width if width > 0 else w, height if height > 0 else h)
        steps = np.diff(self.stamps)
        step = float(np.median(steps[steps > 0])) if np.any(steps > 0) else 0.04
        self.step = step
        self.fps = 1.0 / step

    def __len__(self) -> int:
        return len(self.stamps)

    def get_avg_fps(self) -> float:
        return self.fps

    def get_frame_timestamp(self, idx: Sequence[int] | np.ndarray) -> np.ndarray:
        """(N, 2) start and end time of the frames `idx`, as decord gives them."""
        start = self.stamps[np.asarray(idx, dtype=np.int64)]
        return np.stack([start, start + self.step], axis=1)

    def __getitem__(self, i: int) -> np.ndarray:
        return self.get_batch([i]).asnumpy()[0]

    def get_batch(self, idx: Sequence[int]) -> _Frames:
        """Frames `idx` (RGB, N,H,W,3): one seek and decode per run of nearby frames."""
        order = np.asarray(idx, dtype=np.int64)
        if len(order) == 0:
            return _Frames(np.zeros((0, self.size[1], self.size[0], 3), np.uint8))
        wanted = np.unique(order)
        got: dict[int, np.ndarray] = {}
        gap = max(1, int(round(2.0 * self.fps)))  # frames further apart than 2 s: seek again
        cuts = np.flatnonzero(np.diff(wanted) > gap) + 1
        for run in np.split(wanted, cuts):
            frames = self._decode(int(run[0]), int(run[-1]) - int(run[0]) + 1)
            for i in run:
                k = min(int(i) - int(run[0]), len(frames) - 1)
                got[int(i)] = frames[k]
        return _Frames(np.stack([got[int(i)] for i in order]))

    def _decode(self, first: int, count: int) -> np.ndarray:
        """`count` frames from frame `first` on, decoded at the reader's size."""
        w, h = self.size
        at = max(0.0, float(self.stamps[first]) - 0.5 * self.step)
        cmd = [ffmpeg_exe(), "-hide_banner", "-nostdin", "-loglevel", "error", "-ss", f"{at:.6f}",
               "-i", str(self.path), "-map", "0:v:0", "-frames:v", str(count),
               "-vf", f"scale={w}:{h}", "-fps_mode", "passthrough", "-f", "rawvideo",
               "-pix_fmt", "rgb24", "pipe:1"]
        try:  # half a minute, plus two seconds per second of video asked for
            res = subprocess.run(cmd, capture_output=True,
                                 timeout=30.0 + 2.0 * count * max(self.step, 1e-3))
        except subprocess.TimeoutExpired:
            raise VideoError(f"ffmpeg stalled decoding {self.path} at frame {first}; it was "
                             "stopped") from None
        n = len(res.stdout) // (w * h * 3)
        if n == 0:
            msg = res.stderr.decode(errors="replace").strip().splitlines()
            raise VideoError(f"no frame could be decoded from {self.path} at "
                             f"{self.stamps[first]:.2f} s: {msg[-1] if msg else 'no output'}")
        return np.frombuffer(res.stdout[: n * w * h * 3], np.uint8).reshape(n, h, w, 3)


class _Frames:
    """A decoded batch with decord's `asnumpy()`."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def asnumpy(self) -> np.ndarray:
        return self.array
