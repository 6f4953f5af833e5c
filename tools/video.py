"""Open a video with decord (in a worker with deadlines, tools/decord_worker.py): its facts,
frame times, frames at given times, and clear errors for bad input."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tools.decord_worker import DecordFailed, DecordReader, DecordStalled
from tools.errors import VideoError
from tools.ffmpeg import ffmpeg_exe
from tools.model import VideoInfo

_TIME_SLACK_S = 1e-4


def _probe_text(path: Path) -> str:
    """ffmpeg's own description of the input (stderr of `ffmpeg -i`), for codec and diagnosis."""
    try:
        out = subprocess.run(
            [ffmpeg_exe(), "-hide_banner", "-i", str(path)],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"probe failed: {exc}"
    return out.stderr


def _diagnose(path: Path, probe: str) -> str:
    """Turn ffmpeg's complaint about an unreadable file into a one-line reason."""
    low = probe.lower()
    if "moov atom not found" in low and not _looks_like_iso_media(path):
        return f"not a video file (no media container in it): {path}"
    if "moov atom not found" in low:
        return f"corrupt or truncated video (its index, the moov atom, is missing): {path}"
    if "invalid data found" in low:
        return f"not a video file (no decodable media in it): {path}"
    if "Stream #" in probe and "Video:" not in probe:
        return f"no video stream in file (audio or data only): {path}"
    if "Input #0" in probe and "Stream #" not in probe:
        return f"video has no frames (the container holds no stream data): {path}"
    if "end of file" in low:
        return f"corrupt or truncated video (it ends before its first frame): {path}"
    if "Video:" in probe:
        return f"cannot decode {_codec(probe)} video (no decoder for it read a frame): {path}"
    return f"cannot decode video: {path}"


def _looks_like_iso_media(path: Path) -> bool:
    """Whether the file starts like an MP4/MOV box structure (so a failure means damage)."""
    with open(path, "rb") as fh:
        head = fh.read(12)
    return len(head) >= 8 and head[4:8] in (b"ftyp", b"moov", b"mdat", b"free", b"wide", b"skip")


def iso_truncation(path: Path) -> str | None:
    """For MP4/MOV files: a reason if the top-level boxes run past the end of the file (a cut
    download or copy), else None. Reads only box headers."""
    if not _looks_like_iso_media(path):
        return None
    size = path.stat().st_size
    pos = 0
    with open(path, "rb") as fh:
        while pos + 8 <= size:
            fh.seek(pos)
            head = fh.read(16)
            box = int.from_bytes(head[:4], "big")
            if box == 1 and len(head) >= 16:
                box = int.from_bytes(head[8:16], "big")
            elif box == 0:
                return None
            if box < 8:
                return f"damaged box structure at byte {pos}"
            if pos + box > size:
                return f"file ends at byte {size} but its data runs to byte {pos + box}"
            pos += box
    return None


def _codec(probe: str) -> str:
    match = re.search(r"Video:\s*([A-Za-z0-9_]+)", probe)
    return match.group(1) if match else "unknown"


def check_path(path: str | os.PathLike[str]) -> Path:
    """Fail early, with a specific message, on paths that cannot be a video file."""
    p = Path(path)
    if not p.exists():
        raise VideoError(f"no such file: {p}")
    if p.is_dir():
        raise VideoError(f"is a directory, not a video file: {p}")
    if p.stat().st_size == 0:
        raise VideoError(f"empty file (0 bytes), not a video: {p}")
    return p


def open_reader(path: str | os.PathLike[str], width: int = -1, height: int = -1, threads: int = 2):
    """A decord reader (in the worker, every call under a deadline); for files decord refuses
    but ffmpeg reads (Ogg Theora has no stated duration) a reader with the same interface over
    ffmpeg; else a VideoError saying why the file cannot be read, or which stage stalled."""
    from tools.ffreader import FfmpegReader

    p = check_path(path)
    try:
        reader = DecordReader(p, width=width, height=height, threads=threads)
    except DecordFailed:  # decord refused the file, or crashed on it
        probe = _probe_text(p)
        if iso_truncation(p) or "Video:" not in probe:
            raise VideoError(_diagnose(p, probe)) from None
        try:
            reader = FfmpegReader(p, width=width, height=height)
        except VideoError:
            raise VideoError(_diagnose(p, probe)) from None
    if len(reader) == 0:
        raise VideoError(f"video has no frames: {p}")
    return reader


def frame_times(reader) -> np.ndarray:
    """Presentation time (s) of every frame, from the container's timestamps; a constant rate
    where those are unusable (H.264 in AVI has none: decord reads every frame as -3.7e17 s)."""
    n = len(reader)
    ts = np.asarray(reader.get_frame_timestamp(np.arange(n)), dtype=np.float64)
    ts = ts[:, 0] if ts.ndim == 2 else ts
    if _usable_stamps(ts):
        return ts
    fps = float(reader.get_avg_fps() or 0.0)
    return np.arange(n) / (fps if np.isfinite(fps) and fps > 0 else 25.0)


def _usable_stamps(ts: np.ndarray) -> bool:
    """Finite, non-decreasing, advancing, and of a sane magnitude (under a day)."""
    if len(ts) == 0 or not np.isfinite(ts).all() or np.any(np.diff(ts) < 0):
        return False
    return (len(ts) == 1 or ts[-1] > ts[0]) and abs(float(ts[0])) < 86400 and \
        float(ts[-1] - ts[0]) < 86400


def _is_vfr(times: np.ndarray) -> bool:
    if len(times) < 3:
        return False
    steps = np.diff(times)
    med = float(np.median(steps))
    return bool(med > 0 and (np.percentile(steps, 99) - np.percentile(steps, 1)) > 0.25 * med)


_PROBED: dict[tuple, np.ndarray | None] = {}  # the last probe's frame times (None: unreadable)


def _file_key(p: Path) -> tuple:
    st = p.stat()
    return (str(p.resolve()), st.st_size, st.st_mtime_ns)


def probe_video(path: str | os.PathLike[str]) -> VideoInfo:
    """Read the facts of a video file: duration, fps, frames, size, codec, variable frame rate.
    Its frame times are kept for `presentation_times`, so the file is opened once."""
    p = check_path(path)
    cut = iso_truncation(p)
    if cut:
        raise VideoError(f"corrupt or truncated video ({cut}): {p}")
    reader = open_reader(path, threads=1)
    n = len(reader)
    fps = float(reader.get_avg_fps() or 0.0)
    _PROBED.clear()
    try:
        times = frame_times(reader)
        _PROBED[_file_key(p)] = times
    except Exception:  # noqa: BLE001 - some containers lack per-frame timestamps
        times = np.arange(n) / (fps or 25.0)
        _PROBED[_file_key(p)] = None
    if fps <= 0:
        fps = (n - 1) / float(times[-1] - times[0]) if n > 1 and times[-1] > times[0] else 25.0
    duration = float(times[-1] + 1.0 / fps) if n else 0.0
    h, w = reader[0].shape[:2]
    probe = _probe_text(p)
    return VideoInfo(
        path=str(p.resolve()),
        duration_s=round(duration, 4),
        fps=round(fps, 4),
        n_frames=n,
        width=int(w),
        height=int(h),
        codec=_codec(probe),
        vfr=_is_vfr(times),
    )


def frames_at(
    path: str | os.PathLike[str],
    times: Sequence[float],
    size: tuple[int, int] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Decode the frames shown at `times` (s), as BGR uint8 (N,H,W,3), with their exact times.

    `size` is (width, height) to decode at a reduced resolution; None keeps the native size.
    """
    w, h = size if size else (-1, -1)
    reader = open_reader(path, width=w, height=h)
    stamps = frame_times(reader)
    # A frame's own time picks it even where decord's float32 stamp reads a hair later.
    idx = np.searchsorted(stamps, np.asarray(times, dtype=np.float64) + _TIME_SLACK_S,
                          side="right") - 1
    idx = np.clip(idx, 0, len(reader) - 1)
    frames = reader.get_batch(idx.tolist()).asnumpy()[..., ::-1]
    return np.ascontiguousarray(frames), stamps[idx]


def frames_between(
    path: str | os.PathLike[str],
    start_s: float,
    end_s: float,
    size: tuple[int, int] | None = None,
    max_frames: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every frame (or `max_frames` evenly spread) in [start_s, end_s), BGR, with their times."""
    w, h = size if size else (-1, -1)
    reader = open_reader(path, width=w, height=h)
    stamps = frame_times(reader)
    idx = np.flatnonzero((stamps >= start_s) & (stamps < end_s))
    if len(idx) == 0:
        idx = np.array([int(np.clip(np.searchsorted(stamps, start_s), 0, len(stamps) - 1))])
    if max_frames and len(idx) > max_frames:
        idx = idx[np.linspace(0, len(idx) - 1, max_frames).round().astype(int)]
    frames = reader.get_batch(idx.tolist()).asnumpy()[..., ::-1]
    return np.ascontiguousarray(frames), stamps[idx]


def presentation_times(path: str, info: VideoInfo) -> np.ndarray:
    """Presentation times of the frames, or a constant rate where the container's are not
    usable (MPEG program streams can read as -1e14 s; unordered or non-finite times)."""
    steady = np.arange(info.n_frames) / info.fps
    try:
        key = _file_key(Path(path))
        times = _PROBED[key] if key in _PROBED else frame_times(open_reader(path, threads=1))
        if times is None:  # the probe found no usable per-frame times
            return steady
        times = np.array(times, dtype=np.float64)  # a copy: the caller may shift it
    except DecordStalled:
        raise
    except Exception:  # noqa: BLE001 - fall back to a constant frame rate
        return steady
    if not _plausible_times(times, info):
        return steady
    return times


def _plausible_times(times: np.ndarray, info: VideoInfo) -> bool:
    """Finite, non-decreasing, starting near 0 and spanning about the stated duration."""
    if len(times) == 0 or not np.isfinite(times).all() or np.any(np.diff(times) < 0):
        return False
    span = float(times[-1] - times[0])
    return abs(float(times[0])) <= 2.0 and abs(span - info.duration_s) <= max(
        2.0, 0.1 * info.duration_s)
