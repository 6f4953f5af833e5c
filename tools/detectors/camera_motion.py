"""Fast camera motion: the moments the picture travels much faster than the footage around
it, where softness is the camera's own motion blur (a whip pan, a jolt of a hand-held
camera), not a degradation of the video.

A blur filter, a defocus or a low-resolution stretch leaves the global motion as it was; a
camera that swings smears the picture exactly while it swings. So a sample is explained when
the global motion around it is both fast in itself (PAN_FLOOR) and a multiple of the motion
in the footage around it (PAN_RATIO): hand-held footage that moves all the time keeps its
blur judged against itself.
"""

from __future__ import annotations

import numpy as np

# Global motion, in pixels per frame of the 90-pixel-high analysis picture (see
# tools/stream.plan_for), from which motion blur is visible: 1 px is 1.1 % of the picture
# height per frame, a streak of ~6 px per frame on a 1080-line picture with the usual
# half-frame shutter.
PAN_FLOOR = 1.0
# ... and how many times faster than the footage around it, and than its shot's usual
# motion, it must be: twice.
PAN_RATIO = 2.0
# The footage around a sample that sets its usual motion (s, each side).
CONTEXT_S = 30.0
# The motion of a sample: the median over this much time around it (s, each side).
LOCAL_S = 0.5


def _speed(frames: dict[str, np.ndarray]) -> np.ndarray:
    """Global motion per frame (px/frame), NaN where unknown."""
    mx = np.asarray(frames.get("motion_x", []), dtype=np.float64)
    my = np.asarray(frames.get("motion_y", []), dtype=np.float64)
    return np.hypot(mx, my)


def _window_medians(t: np.ndarray, x: np.ndarray, at: np.ndarray, half: float) -> np.ndarray:
    """Median of x over the frames within `half` seconds of each time in `at` (NaN if none)."""
    lo = np.searchsorted(t, at - half, side="left")
    hi = np.searchsorted(t, at + half, side="right")
    out = np.full(len(at), np.nan)
    for i, (a, b) in enumerate(zip(lo, hi, strict=True)):
        seg = x[a:b]
        seg = seg[np.isfinite(seg)]
        if len(seg):
            out[i] = np.median(seg)
    return out


def fast_motion(frames: dict[str, np.ndarray], sample_t: np.ndarray,
                sample_scenes: np.ndarray | None = None) -> np.ndarray:
    """The samples (at times `sample_t`, in shots `sample_scenes`) taken while the camera
    moved fast for its footage: for the minute around it and for its own shot (a shot that
    pans all through is judged against itself by the spatial detectors anyway)."""
    t = np.asarray(frames.get("t", []), dtype=np.float64)
    sample_t = np.asarray(sample_t, dtype=np.float64)
    out = np.zeros(len(sample_t), dtype=bool)
    if len(t) < 2 or not len(sample_t) or "motion_x" not in frames:
        return out
    speed = _speed(frames)
    local = _window_medians(t, speed, sample_t, LOCAL_S)
    # The usual motion around a sample, from the per-sample motion (cheap, and a short swing
    # barely moves the median of a minute).
    usual = _window_medians(sample_t, local, sample_t, CONTEXT_S)
    if sample_scenes is not None and len(sample_scenes) == len(sample_t):
        for sid in np.unique(sample_scenes):
            sel = sample_scenes == sid
            if np.isfinite(local[sel]).any():
                usual[sel] = np.fmax(usual[sel], np.nanmedian(local[sel]))
    with np.errstate(invalid="ignore"):
        out = (local >= PAN_FLOOR) & (local >= PAN_RATIO * usual)
    return np.nan_to_num(out, nan=False).astype(bool)
