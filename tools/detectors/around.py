"""What the footage around a frame usually shows, and how long a departure from it lasts:
the two judgements the motion detectors (frame-rate drops, camera shake) share; and which
samples lie around an event, in its shots (what coder_softness and blur_grade compare with)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from tools.detectors.series import merge_runs, runs
from tools.model import Event, Scene

# The footage that sets a frame's usual level: the median over this much time each side.
# Longer than any degradation found as a departure (a look lasting minutes is the footage's
# own), short enough to follow a long video's change of material.
USUAL_HALF_S = 60.0
# The usual level is computed every this many seconds and interpolated between (cheap).
USUAL_STEP_S = 1.0


def usual_level(x: np.ndarray, fps: float, half_s: float = USUAL_HALF_S) -> np.ndarray:
    """Each frame's usual value: the median of `x` over `half_s` seconds each side (NaNs
    ignored; NaN where there is nothing around)."""
    n = len(x)
    if n == 0:
        return np.zeros(0)
    step = max(1, int(round(USUAL_STEP_S * fps)))
    half = max(1, int(round(half_s * fps)))
    at = np.arange(0, n, step)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        med = np.array([np.nanmedian(x[max(0, i - half): i + half + 1]) for i in at])
    ok = np.isfinite(med)
    if not ok.any():
        return np.full(n, np.nan)
    return np.interp(np.arange(n), at[ok], med[ok])


def held_for(x: np.ndarray, fps: float, seconds: float) -> np.ndarray:
    """The lowest value of `x` over every `seconds`-long stretch ending at each frame (-inf
    before the first full stretch): the level `x` holds for that long."""
    w = max(1, int(round(seconds * fps)))
    out = np.full(len(x), -np.inf)
    if len(x) >= w:
        out[w - 1:] = np.lib.stride_tricks.sliding_window_view(
            np.where(np.isfinite(x), x, -np.inf), w).min(axis=1)
    return out


def lasting_runs(active: np.ndarray, t: np.ndarray, fps: float, min_s: float,
                 gap_s: float) -> list[tuple[int, int]]:
    """Runs of active frames lasting at least `min_s`, joined across gaps up to `gap_s`."""
    step = 1.0 / fps
    long = [(a, b) for a, b in runs(active) if t[b - 1] - t[a] + step >= min_s]
    return merge_runs(long, t, gap_s=gap_s)


def longest_departure(x: np.ndarray, fps: float, seconds: float) -> list[float]:
    """The highest level `x` holds for `seconds` anywhere (empty when never that long): what
    one clean video contributes to a departure threshold."""
    held = held_for(x, fps, seconds)
    held = held[np.isfinite(held)]
    return [float(held.max())] if len(held) else []


def around(e: Event, t: np.ndarray, scenes: list[Scene], others: Sequence[Event],
           near_s: float) -> tuple[np.ndarray, np.ndarray]:
    """(inside, near): the samples inside the event, and those within `near_s` of it in the
    shots it touches, outside every other event."""
    inside = (t >= e.start_s) & (t < e.end_s)
    shots = [(s.start_s, s.end_s) for s in scenes if s.end_s > e.start_s and s.start_s < e.end_s]
    near = (t >= e.start_s - near_s) & (t < e.end_s + near_s) & ~inside
    in_shot = np.zeros(len(t), dtype=bool)
    for a, b in shots or [(0.0, float("inf"))]:
        in_shot |= (t >= a) & (t < b)
    near &= in_shot
    for o in others:
        near &= ~((t >= o.start_s) & (t < o.end_s))
    return inside, near
