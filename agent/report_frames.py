"""Thumbnails for the HTML report: the frames a run zoomed into, decoded again from the video.

A trace keeps each zoom's window and frame count, not its pictures, so the frames are decoded
at the times `zoom_in` picks them (evenly over its window) and embedded as JPEG data URIs.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agent.timefmt import hms

MAX_THUMBS = 24  # frames decoded for one report at most
THUMB_SIDE = 320  # longer side of a thumbnail, pixels
ZOOM_DEFAULT_FRAMES = 6  # zoom_in's default max_frames
ZOOM_MAX_FRAMES = 8


@dataclass
class FrameGroup:
    """Frames shown together: a zoom step's picks or the answer's segments."""

    title: str
    times: list[float]
    crop: list[float] | None = None
    step: int | None = None  # the trace step that zoomed (None: not a zoom)
    frames: list[tuple[float, str]] = field(default_factory=list)  # (time, data URI)
    problem: str = ""  # why no frames could be decoded


def _clamp_frames(value: Any) -> int:
    try:
        n = int(value) if value is not None else ZOOM_DEFAULT_FRAMES
    except (TypeError, ValueError):
        n = ZOOM_DEFAULT_FRAMES
    return min(max(n, 1), ZOOM_MAX_FRAMES)


def clean_windows(value: Any) -> list[tuple[float, float]]:
    """A step's stored [start, end] windows; anything malformed is skipped."""
    out = []
    for w in value if isinstance(value, list) else []:
        if isinstance(w, list | tuple) and len(w) == 2 and all(
                isinstance(x, int | float) and not isinstance(x, bool) for x in w):
            out.append((float(w[0]), float(w[1])))
    return out


def pick_times(start_s: float, end_s: float, n: int, fps: float) -> list[float]:
    """Times `zoom_in` shows for a window: `n` frames evenly from its first to its last."""
    last = max(start_s, end_s - (1.0 / fps if fps > 0 else 0.0))
    return [round(float(t), 3) for t in np.linspace(start_s, last, max(1, n))]


def zoom_groups(trace: dict[str, Any], fps: float) -> list[FrameGroup]:
    """One group per successful zoom_in step, with the times its frames were shown."""
    groups = []
    for s in trace.get("steps") or []:
        if s.get("kind") != "tool" or s.get("tool") != "zoom_in" or \
                s.get("status", "success") != "success":
            continue
        wins = clean_windows(s.get("windows"))
        if not wins:
            continue
        a, b = float(wins[0][0]), float(wins[0][1])
        args = s.get("args") or {}
        crop = args.get("crop") if isinstance(args.get("crop"), list) else None
        title = f"step {s.get('n', '?')}: zoom_in {hms(a)} - {hms(b)}"
        groups.append(FrameGroup(title=title, step=s.get("n"),
                                 times=pick_times(a, b, _clamp_frames(args.get("max_frames")),
                                                  fps), crop=crop))
    return groups


def segment_group(trace: dict[str, Any]) -> FrameGroup | None:
    """The middle frame of each of the answer's segments (at most 6), or None."""
    segs = (trace.get("answer") or {}).get("segments") or []
    times = [round(0.5 * (float(s["start_s"]) + float(s["end_s"])), 3) for s in segs[:6]]
    return FrameGroup(title="the answer's segments (middle frame)", times=times) if times \
        else None


def _crop(frame: np.ndarray, crop: list[float] | None) -> np.ndarray:
    """The crop region (fractions x0, y0, x1, y1) of a frame; the frame if it is unusable."""
    if not crop or len(crop) != 4:
        return frame
    try:
        x0, y0, x1, y1 = (min(max(float(v), 0.0), 1.0) for v in crop)
    except (TypeError, ValueError):
        return frame
    h, w = frame.shape[:2]
    a, b, c, d = int(x0 * w), int(x1 * w), int(y0 * h), int(y1 * h)
    return frame[c:d, a:b] if b - a >= 16 and d - c >= 16 else frame


def data_uri(jpeg: bytes) -> str:
    """JPEG bytes as a data: URI an <img> shows without a request."""
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii")


def decode_groups(video: str, groups: list[FrameGroup]) -> None:
    """Fill each group's frames from `video` (at most MAX_THUMBS in all); a video that cannot
    be read leaves the reason in each group's `problem`."""
    from tools.video import frames_at
    from tools.zoom import to_jpeg

    budget = MAX_THUMBS
    for g in groups:
        times = g.times[:max(0, budget)]
        budget -= len(times)
        if not times:
            g.problem = "thumbnail budget reached"
            continue
        try:
            frames, _stamps = frames_at(video, times, size=None)
        except Exception as exc:  # noqa: BLE001 - a report without pictures is still a report
            g.problem = f"cannot decode {video}: {exc}"
            continue
        g.frames = [(t, data_uri(to_jpeg(_crop(f, g.crop), max_side=THUMB_SIDE, quality=80)))
                    for t, f in zip(times, frames, strict=False)]
