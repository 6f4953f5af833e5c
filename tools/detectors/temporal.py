"""Shared machinery of the per-frame detectors: rolling statistics, cut guards, and events
from runs of active frames."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from tools.detectors.series import merge_runs, runs
from tools.model import Event, Scene

# Frames this near a cut (either side) show two shots: never a temporal hit.
CUT_REACH_FRAMES = 3
# Active runs this close (seconds) join into one event.
INTERVAL_GAP_S = 1.0
# Shortest temporal event (seconds), unless its detector asks for more.
INTERVAL_MIN_S = 0.8
# Active frames are a majority vote over this many frames (drops blips, fills gaps).
ACTIVE_SMOOTH_FRAMES = 5
# The whole picture moves with a brightness change when that change is at least this share
# of the frame difference (1.0 when the whole picture brightens or darkens): flicker and slow
# pulsing, not a lamp in a busy picture or a camera pan.
WHOLE_PICTURE = 0.45


def rolling(x: np.ndarray, width: int, fn: Callable[..., np.ndarray] = np.nanmean) -> np.ndarray:
    """Centered rolling statistic over `width` frames (edges use what is there)."""
    n = len(x)
    if n == 0:
        return x
    half = width // 2
    pad = np.concatenate([np.full(half, np.nan), x, np.full(width - half - 1, np.nan)])
    view = np.lib.stride_tricks.sliding_window_view(pad, width)
    with warnings.catch_warnings():  # all-NaN windows give NaN, as intended
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(view, axis=1)


def near_cut(n: int, scenes: list[Scene], reach: int = CUT_REACH_FRAMES) -> np.ndarray:
    """Frames within `reach` frames of a cut."""
    mask = np.zeros(n, dtype=bool)
    for s in scenes[1:]:
        mask[max(0, s.start_frame - reach) : min(n, s.start_frame + reach)] = True
    return mask


def interval_events(
    score: np.ndarray,
    active: np.ndarray,
    t: np.ndarray,
    fps: float,
    kind: str,
    subtype: str,
    full: float,
    evidence_name: str,
    min_s: float = INTERVAL_MIN_S,
) -> list[Event]:
    """Events over the runs of active frames (joined across short gaps, at least `min_s`
    long), graded by the median score in them (severity 1 at `full`)."""
    events = []
    step = 1.0 / fps
    for a, b in merge_runs(runs(active), t, gap_s=INTERVAL_GAP_S):
        if t[b - 1] - t[a] + step < min_s:
            continue
        level = float(np.nanmedian(score[a:b]))
        sev = float(np.clip(0.2 + 0.8 * level / full, 0, 1))
        events.append(
            Event(
                type=kind,
                subtype=subtype,
                start_s=round(float(t[a]), 2),
                end_s=round(float(t[b - 1] + step), 2),
                severity=round(sev, 3),
                score=round(level, 3),
                evidence={evidence_name: round(level, 3), "frames": int(b - a)},
            )
        )
    return events
