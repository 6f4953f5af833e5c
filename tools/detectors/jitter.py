"""Jitter: global motion that jerks back and forth instead of flowing (camera shake)."""

from __future__ import annotations

import numpy as np

from tools.detectors.base import Context, Detector
from tools.detectors.repeats import frozen
from tools.detectors.series import overlap_share, smooth_mask
from tools.detectors.temporal import ACTIVE_SMOOTH_FRAMES, interval_events, near_cut, rolling
from tools.model import Event

# Rolling-median jerk (small-frame pixels) above which motion counts as shaky. Scale: pixels
# of the small analysis frame (90 px high); 0.7 px there is ~8 px at 1080p.
JITTER_PX = 0.7
# The jerk (small-frame pixels) that counts as severity 1, and the shortest event (seconds).
JITTER_FULL = 2.5
JITTER_MIN_S = 1.5
# Frames whose global-motion estimate has less confidence than this are not judged.
MOTION_CONFIDENCE = 0.15
# Jitter lying for at least this share inside noise of at least NOISY_SEVERITY (or inside
# flicker) is their doing (see noise_not_jitter).
NOISY_SEVERITY = 0.5
NOISY_SHARE = 0.5


def jitter_events(frames: dict[str, np.ndarray], scenes: list, sid: np.ndarray,
                  fps: float) -> list[Event]:
    """Global motion that jerks back and forth instead of flowing (camera shake).

    The jerk is the departure of each frame's global motion from the mean of its neighbours';
    smooth pans, zooms and objects moving on their own keep it near zero.
    """
    vx, vy = frames["motion_x"].astype(np.float64), frames["motion_y"].astype(np.float64)
    n = len(vx)
    if n < 7:
        return []
    jerk = np.zeros(n)
    jerk[1:-1] = np.hypot(vx[1:-1] - 0.5 * (vx[:-2] + vx[2:]), vy[1:-1] - 0.5 * (vy[:-2] + vy[2:]))
    held = frozen(frames["diff"], sid)
    bad = near_cut(n, scenes) | held | np.roll(held, 1) | np.roll(held, -1)
    if "motion_conf" in frames:
        bad |= frames["motion_conf"] < MOTION_CONFIDENCE
    jerk[bad] = np.nan
    level = np.nan_to_num(rolling(jerk, max(5, int(round(fps))), np.nanmedian), nan=0.0)
    active = smooth_mask(level > JITTER_PX, ACTIVE_SMOOTH_FRAMES)
    return interval_events(level, active, frames["t"], fps, "jitter", "camera shake",
                           JITTER_FULL, "jerk_px", min_s=JITTER_MIN_S)


def noise_not_jitter(ctx: Context, events: list[Event]) -> list[Event]:
    """Drop jitter found mostly inside strong noise or flicker: grain, impulses and brightness
    swings break the global-motion estimate into random jerks, so there the shake is their
    doing, not the camera's."""
    noisy = [(e.start_s, e.end_s) for e in events
             if (e.type == "noise" and e.severity >= NOISY_SEVERITY) or e.type == "flicker"]
    return [e for e in events
            if e.type != "jitter" or overlap_share(e.start_s, e.end_s, noisy) < NOISY_SHARE]


class JitterDetector(Detector):
    """Camera shake: jerky global motion."""

    name = "jitter"
    types = ("jitter",)

    def detect(self, ctx: Context) -> list[Event]:
        """Jitter events (none without per-frame signals)."""
        if not ctx.has_frames:
            return []
        return jitter_events(ctx.frames, ctx.scenes, ctx.frame_scenes, ctx.fps)
