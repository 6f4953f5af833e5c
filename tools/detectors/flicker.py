"""Flicker: brightness that swings up and down from frame to frame (not a cut, not motion).

Flicker swings every sample's tone: the spatial detectors after it ignore the samples inside
its events (the "temporal" kind of Context.explained).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tools.detectors.base import Context, Detector
from tools.detectors.calibration import CleanVideo, Quantity, declare, value
from tools.detectors.pulsing import pulse_events
from tools.detectors.series import level_severity, overlap_share, smooth_mask
from tools.detectors.temporal import (
    ACTIVE_SMOOTH_FRAMES,
    WHOLE_PICTURE,
    interval_events,
    near_cut,
    rolling,
)
from tools.model import Event

# A frame is a hit when its mean brightness departs from the mean of its neighbours by more
# than this (grey levels) ...
FLICKER_SWING = 1.5
# ... and the whole picture moves with it (temporal.WHOLE_PICTURE).
# Flicker where more than this share of the frames of a second are hits.
FLICKER_SHARE = 0.25
# The swing (grey levels) that counts as severity 1.
FLICKER_FULL = 150.0
# A flicker whose brightness swings repeat with one period (autocorrelation of the swings at
# their best lag of 2..MAX_PERIOD_S, at least PERIODIC) is a lamp, a shutter or an encoder
# pumping, never content: its severity is read on a perceptual scale, from PERIODIC_LEVELS
# grey levels of swing (just visible) to the second (glaring).
MAX_PERIOD_S = 1.0
PERIODIC_LEVELS = (1.5, 12.0)
# Samples this close (seconds) to a flicker event are its doing.
FLICKER_MARGIN_S = 0.5


def flicker_events(frames: dict[str, np.ndarray], scenes: list, fps: float) -> list[Event]:
    """Brightness that swings up and down from frame to frame (not a cut, not motion), graded
    on the perceptual scale when it swings with one period."""
    m = frames["luma"].astype(np.float64)
    return [_periodic(e, m, frames["t"], fps) for e in _raw_events(frames, scenes, fps)]


def _raw_events(frames: dict[str, np.ndarray], scenes: list, fps: float) -> list[Event]:
    m = frames["luma"].astype(np.float64)
    n = len(m)
    if n < 5:
        return []
    hp = np.zeros(n)
    hp[1:-1] = np.abs(m[1:-1] - 0.5 * (m[:-2] + m[2:]))
    dm = np.abs(np.diff(m, prepend=m[0]))
    diff = np.nan_to_num(frames["diff"], nan=0.0)
    glob = dm / np.maximum(diff, 1e-3)  # 1.0 when the whole picture brightens or darkens
    hit = (hp > FLICKER_SWING) & (glob > WHOLE_PICTURE) & ~near_cut(n, scenes)
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


def _clean_periodicity(video: CleanVideo) -> list[float]:
    m = video.frames["luma"].astype(np.float64)
    t = video.frames["t"]
    out = []
    for e in _raw_events(video.frames, video.scenes, video.fps):
        inside = (t >= e.start_s) & (t < e.end_s)
        out.append(periodicity(m[inside], video.fps))
    return out


PERIODIC = declare(Quantity(
    key="flicker.periodicity", measure=_clean_periodicity, direction=+1, default=0.5,
    log=False, doc="periodicity of the brightness swings in a clean video's flicker-like runs"))


def periodicity(m: np.ndarray, fps: float) -> float:
    """How regularly a brightness series swings: the autocorrelation of its detrended swings
    at the best lag between 2 frames and MAX_PERIOD_S (1 = a perfect oscillation)."""
    x = m - np.convolve(m, np.ones(5) / 5, mode="same")
    x = x[2:-2] - np.mean(x[2:-2]) if len(x) > 8 else x - np.mean(x)
    denom = float(np.dot(x, x))
    top = min(len(x) // 2, max(3, int(round(MAX_PERIOD_S * fps))))
    if denom <= 0 or top < 3:
        return 0.0
    return max(float(np.dot(x[:-k], x[k:])) / denom for k in range(2, top + 1))


def _periodic(e: Event, m: np.ndarray, t: np.ndarray, fps: float) -> Event:
    """The event graded on the perceptual scale when its swings repeat with one period."""
    inside = (t >= e.start_s) & (t < e.end_s)
    p = periodicity(m[inside], fps)
    evidence = {**e.evidence, "periodicity": round(p, 3)}
    if p < value(PERIODIC.key):
        return replace(e, evidence=evidence)
    sev = max(e.severity, level_severity(max(e.score, 1e-6), PERIODIC_LEVELS))
    return replace(e, severity=round(sev, 3), evidence=evidence)


def stronger(fast: list[Event], slow: list[Event]) -> list[Event]:
    """Both readings of the brightness swings in one list. A pulse that the frame-to-frame
    events touching it cover for half its length or more leaves those events, with the more
    severe grade of the two (their ends are frame-exact; a slow pulse moves each frame little,
    so the frame-to-frame test grades it low); a pulse they cover less of (they found only its
    sharpest moments) replaces them; pulses they do not touch are kept as they are."""
    def clash(e: Event, f: Event) -> bool:
        return e.start_s < f.end_s and f.start_s < e.end_s

    out, gone = [], set()
    for p in slow:
        hit = [i for i, e in enumerate(fast) if clash(e, p)]
        cover = overlap_share(p.start_s, p.end_s,
                              [(fast[i].start_s, fast[i].end_s) for i in hit])
        if hit and cover >= 0.5:
            continue  # (read into those events below)
        worst = max((fast[i].severity for i in hit), default=0.0)
        out.append(replace(p, severity=max(p.severity, worst)))
        gone.update(hit)
    for i, e in enumerate(fast):
        if i in gone:
            continue
        pulse = max((p for p in slow if clash(e, p)), key=lambda p: p.severity, default=None)
        if pulse is not None and pulse.severity > e.severity:
            e = replace(e, severity=pulse.severity, score=pulse.score,
                        evidence={**e.evidence, **{k: v for k, v in pulse.evidence.items()
                                                   if k != "frames"}})
        out.append(e)
    return sorted(out, key=lambda e: e.start_s)


class FlickerDetector(Detector):
    """Fast brightness oscillation; marks its samples as explained ("temporal")."""

    name = "flicker"
    types = ("flicker",)

    def detect(self, ctx: Context) -> list[Event]:
        """Flicker events, and the samples they explain for the spatial detectors."""
        if not ctx.has_frames:
            return []
        events = stronger(flicker_events(ctx.frames, ctx.scenes, ctx.fps),
                          pulse_events(ctx.frames, ctx.scenes, ctx.fps))
        t = ctx.sample_times
        covered = np.zeros(len(t), dtype=bool)
        for e in events:
            covered |= (t >= e.start_s - FLICKER_MARGIN_S) & (t < e.end_s + FLICKER_MARGIN_S)
        ctx.explain("temporal", covered)
        return events
