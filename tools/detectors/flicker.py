"""Flicker: brightness that swings up and down from frame to frame (not a cut, not motion).

Flicker swings every sample's tone: the spatial detectors after it ignore the samples inside
its events (the "temporal" kind of Context.explained).
"""

from __future__ import annotations

import numpy as np

from tools.detectors.base import Context, Detector
from tools.detectors.series import smooth_mask
from tools.detectors.temporal import ACTIVE_SMOOTH_FRAMES, interval_events, near_cut, rolling
from tools.model import Event

# A frame is a hit when its mean brightness departs from the mean of its neighbours by more
# than this (grey levels) ...
FLICKER_SWING = 1.5
# ... and the whole picture moves with it: the brightness change is at least this share of
# the frame difference (1.0 when the whole picture brightens or darkens).
FLICKER_GLOBAL = 0.45
# Flicker where more than this share of the frames of a second are hits.
FLICKER_SHARE = 0.25
# The swing (grey levels) that counts as severity 1.
FLICKER_FULL = 150.0
# Samples this close (seconds) to a flicker event are its doing.
FLICKER_MARGIN_S = 0.5


def flicker_events(frames: dict[str, np.ndarray], scenes: list, fps: float) -> list[Event]:
    """Brightness that swings up and down from frame to frame (not a cut, not motion)."""
    m = frames["luma"].astype(np.float64)
    n = len(m)
    if n < 5:
        return []
    hp = np.zeros(n)
    hp[1:-1] = np.abs(m[1:-1] - 0.5 * (m[:-2] + m[2:]))
    dm = np.abs(np.diff(m, prepend=m[0]))
    diff = np.nan_to_num(frames["diff"], nan=0.0)
    glob = dm / np.maximum(diff, 1e-3)  # 1.0 when the whole picture brightens or darkens
    hit = (hp > FLICKER_SWING) & (glob > FLICKER_GLOBAL) & ~near_cut(n, scenes)
    density = rolling(hit.astype(np.float64), max(3, int(round(fps))))
    active = smooth_mask(density > FLICKER_SHARE, ACTIVE_SMOOTH_FRAMES)
    strength = rolling(np.where(hit, hp, np.nan), max(3, int(round(fps))), np.nanmedian)
    return interval_events(
        np.nan_to_num(strength, nan=0.0),
        active,
        frames["t"],
        fps,
        "flicker",
        "brightness oscillation",
        FLICKER_FULL,
        "luma_swing",
    )


class FlickerDetector(Detector):
    """Fast brightness oscillation; marks its samples as explained ("temporal")."""

    name = "flicker"
    types = ("flicker",)

    def detect(self, ctx: Context) -> list[Event]:
        """Flicker events, and the samples they explain for the spatial detectors."""
        if not ctx.has_frames:
            return []
        events = flicker_events(ctx.frames, ctx.scenes, ctx.fps)
        t = ctx.sample_times
        covered = np.zeros(len(t), dtype=bool)
        for e in events:
            covered |= (t >= e.start_s - FLICKER_MARGIN_S) & (t < e.end_s + FLICKER_MARGIN_S)
        ctx.explain("temporal", covered)
        return events
