"""Look closer: decode one short window densely, at native frame rate, and measure it.

Every frame of the window is decoded small (temporal signals: brightness swings, repeated
frames, jerky motion need every frame); a few frames are decoded at native resolution,
optionally cropped, for the spatial measurements (sharpness, noise, blocks need full detail)
and to be looked at.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from tools.signals import colour_signals, spatial_signals, temporal_signals
from tools.timeline import flicker_swing, jerk
from tools.video import frames_at, frames_between

MAX_WINDOW_S = 20.0  # longer windows are cut to this (centred): zoom is for a closer look
MAX_DECODE_FRAMES = 600  # frame budget for the dense pass
MAX_PICKS = 12  # native-resolution frames at most
SMALL_WIDTH = 320


@dataclass
class ZoomResult:
    """A window looked at closely: its frame times, picked frames and measurements."""

    start_s: float
    end_s: float
    fps: float
    n_frames: int
    times: np.ndarray  # every decoded frame's time
    pick_times: np.ndarray  # times of the native-resolution frames
    picks: list[np.ndarray] = field(default_factory=list)  # BGR, cropped when asked
    measurements: dict[str, Any] = field(default_factory=dict)


def _crop(frame: np.ndarray, crop: tuple[float, float, float, float] | None) -> np.ndarray:
    if not crop:
        return frame
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = crop
    a, b = int(round(x0 * w)), int(round(x1 * w))
    c, d = int(round(y0 * h)), int(round(y1 * h))
    if b - a < 16 or d - c < 16:
        raise ValueError("crop is smaller than 16 pixels; give fractions 0..1 of the frame")
    return frame[c:d, a:b]


def check_crop(crop: Any) -> tuple[float, float, float, float] | None:
    """A crop as (x0, y0, x1, y1) fractions of the frame, ordered and inside 0..1."""
    if crop is None:
        return None
    vals = [float(v) for v in crop]
    if len(vals) != 4:
        raise ValueError("crop must be [x0, y0, x1, y1] as fractions 0..1 of the frame")
    x0, y0, x1, y1 = (float(np.clip(v, 0.0, 1.0)) for v in vals)
    x0, x1 = min(x0, x1), max(x0, x1)
    y0, y1 = min(y0, y1), max(y0, y1)
    if x1 - x0 < 0.02 or y1 - y0 < 0.02:
        raise ValueError("crop is empty; give [x0, y0, x1, y1] with x0 < x1 and y0 < y1")
    return (x0, y0, x1, y1)


def _small_size(width: int, height: int) -> tuple[int, int]:
    if width <= SMALL_WIDTH:
        return width, height
    h = int(round(height * SMALL_WIDTH / width / 2)) * 2
    return SMALL_WIDTH, max(2, h)


def _temporal(gray: np.ndarray, fps: float) -> dict[str, Any]:
    sig = temporal_signals(gray, None)
    luma = sig["luma"].astype(np.float64)
    diff = np.nan_to_num(sig["diff"].astype(np.float64), nan=np.inf)
    swing = flicker_swing(luma)
    rep = diff <= 0.08
    holds, run = [], 0
    for r in rep[1:]:
        if r:
            run += 1
        elif run:
            holds.append(run)
            run = 0
    if run:
        holds.append(run)
    jk = jerk(sig["motion_x"], sig["motion_y"])
    finite = diff[np.isfinite(diff)]
    return {
        "luma_mean": round(float(luma.mean()), 2),
        "luma_min": round(float(luma.min()), 2),
        "luma_max": round(float(luma.max()), 2),
        "luma_swing_median": round(float(np.median(swing)), 3),
        "luma_swing_max": round(float(swing.max()), 3),
        "frame_diff_median": round(float(np.median(finite)), 3) if len(finite) else None,
        "repeated_frames": int(rep[1:].sum()),
        "holds": len(holds),
        "longest_hold_s": round(max(holds, default=0) / fps, 3) if fps > 0 else None,
        "motion_jerk_median": round(float(np.median(jk)), 3),
        "motion_jerk_p90": round(float(np.percentile(jk, 90)), 3),
    }


def _spatial(picks: list[np.ndarray]) -> dict[str, Any]:
    rows = []
    for bgr in picks:
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        h, w = gray.shape
        small = cv2.resize(bgr, (max(16, w // 4), max(16, h // 4)), interpolation=cv2.INTER_AREA)
        rows.append({**spatial_signals(gray), **colour_signals(small)})
    if not rows:
        return {}
    out: dict[str, Any] = {}
    for k in ("sharpness", "noise", "impulse", "blockiness", "grid", "halo", "black", "white",
              "contrast_range", "saturation"):
        vals = np.array([r[k] for r in rows], dtype=np.float64)
        out[k] = round(float(np.median(vals)), 4)
    hue = np.degrees(np.arctan2(np.median([r["hue_y"] for r in rows]),
                                np.median([r["hue_x"] for r in rows])))
    out["hue_deg"] = round(float(hue), 1)
    out["sharpness_per_frame"] = [round(r["sharpness"], 1) for r in rows]
    return out


def zoom(
    path: str | os.PathLike[str],
    start_s: float,
    end_s: float,
    crop: tuple[float, float, float, float] | None = None,
    n_picks: int = 6,
    fps: float | None = None,
    frame_size: tuple[int, int] | None = None,
) -> ZoomResult:
    """Decode [start_s, end_s) densely and measure it; `n_picks` native frames are kept.

    Windows longer than MAX_WINDOW_S (or than the frame budget at this fps) are cut to their
    centre. `crop` is (x0, y0, x1, y1) in fractions of the frame, applied to the spatial part.
    `frame_size` (width, height) spares a probe when the caller knows it.
    """
    a, b = float(start_s), float(end_s)
    if b <= a:
        raise ValueError(f"empty window {a:.2f}-{b:.2f} s")
    limit = MAX_WINDOW_S
    if fps and fps > 0:
        limit = min(limit, MAX_DECODE_FRAMES / fps)
    if b - a > limit:
        mid = 0.5 * (a + b)
        a, b = mid - limit / 2, mid + limit / 2
    if frame_size:
        w, h = frame_size
    else:
        probe, _ = frames_at(path, [a], size=None)
        h, w = probe.shape[1:3]
    small, times = frames_between(path, a, b, size=_small_size(w, h),
                                  max_frames=MAX_DECODE_FRAMES)
    n = len(times)
    real_fps = (n - 1) / float(times[-1] - times[0]) if n > 1 and times[-1] > times[0] else (
        fps or 0.0)
    gray = np.stack([cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) for f in small])
    n_picks = int(np.clip(n_picks, 1, MAX_PICKS))
    pick_times = times[np.unique(np.linspace(0, n - 1, min(n_picks, n)).round().astype(int))]
    native, pick_times = frames_at(path, pick_times, size=None)
    picks = [_crop(f, crop) for f in native]
    meas = {"temporal": _temporal(gray, real_fps), "spatial": _spatial(picks)}
    if crop:
        meas["crop"] = list(crop)
    return ZoomResult(
        start_s=round(float(times[0]), 3) if n else a,
        end_s=round(float(times[-1]) + (1.0 / real_fps if real_fps else 0.0), 3) if n else b,
        fps=round(real_fps, 3),
        n_frames=n,
        times=np.asarray(times),
        pick_times=np.asarray(pick_times),
        picks=picks,
        measurements=meas,
    )


def to_jpeg(frame: np.ndarray, max_side: int = 512, quality: int = 85) -> bytes:
    """A frame as JPEG bytes, scaled down so its longer side is at most `max_side`."""
    h, w = frame.shape[:2]
    s = max_side / max(h, w)
    if s < 1:
        frame = cv2.resize(frame, (max(1, int(w * s)), max(1, int(h * s))),
                           interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("could not encode frame as JPEG")
    return buf.tobytes()
