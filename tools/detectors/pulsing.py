"""Slow brightness pulsing: the whole picture brightening and darkening in a steady rhythm of
0.5 to a few cycles a second (auto-exposure hunting, a lamp beating against the shutter,
`eq=brightness='A*sin(2*PI*f*t)'` at a low f).

The flicker detector (flicker.py) counts frames whose brightness jumps against both
neighbours; a swing spread over many frames passes under it: a 1.2-Hz pulse at 30 fps moves
the mean by about one grey level a frame even when it swings 70 grey levels from trough to
peak. Here the frame brightness, less its 3-s running mean taken shot by shot (a cut's step
is no swing), is judged in 4-s windows every 0.5 s: how far it swings (peak to peak, 2
sqrt(2) times its standard deviation), whether it repeats with one period of at most 2 s (its
autocorrelation, corrected for the overlap, at the highest peak after its first zero, at
least the calibrated `flicker.periodicity` that clean flicker-like runs stay under), and
whether the whole picture moves with it (the brightness change at least WHOLE_PICTURE of the
frame difference, as for flicker, the frames at cuts left out). No window of the clean
footage passes the rhythm and the whole-picture tests together, whatever its swing: 0 of
14,814 judged windows of the 123 calibration minutes and 0 of 5,003 of the 42 evaluation
minutes (`python -m bench.figures.pulsing` counts them).
"""

from __future__ import annotations

import numpy as np

from tools.detectors.calibration import value
from tools.detectors.series import level_severity, merge_runs, runs
from tools.detectors.temporal import WHOLE_PICTURE, rolling
from tools.model import Event, Scene

TREND_S = 3.0  # the running mean taken off the brightness (seconds)
WINDOW_S = 4.0  # a judged window
STEP_S = 0.5  # between windows
MAX_PERIOD_S = 2.0  # at least two swings in a window
# Peak-to-peak swing (grey levels) from which a steady pulse is visible (severity 0.2) and at
# which it is glaring (1.0): the fast flicker's perceptual scale (1.5-12 grey levels from one
# frame to the next) said over a whole swing, as it builds up over several frames.
PULSE_LEVELS = (4.0, 40.0)
GAP_S = 1.0
SHORTEST_SHOT_S = 0.5
EDGE = 0.25  # frames whose swing envelope falls under this share of the event's swing are out


def _running_mean(x: np.ndarray, width: int) -> np.ndarray:
    width = max(1, int(width))
    pad = np.pad(x, (width // 2, width - 1 - width // 2), mode="edge")
    return np.convolve(pad, np.ones(width) / width, mode="valid")


def window_frames(fps: float) -> int:
    """Frames in a judged window."""
    return int(round(WINDOW_S * fps))


def pulse_windows(luma: np.ndarray, diff: np.ndarray, fps: float,
                  cut_frames: list[int]) -> dict[str, np.ndarray] | None:
    """Per 4-s window: start frame, swing, regularity, period (s), whole-picture share and
    whether it is judged (no shot under half a second in it); None when the video is shorter
    than a window."""
    m = np.asarray(luma, dtype=np.float64)
    n, w = len(m), window_frames(fps)
    lags = int(round(MAX_PERIOD_S * fps))
    if n < w or w < 8 or lags < 2:
        return None
    bounds = [0, *sorted(c for c in cut_frames if 0 < c < n), n]
    x = np.concatenate([_running_mean(seg - _running_mean(seg, round(TREND_S * fps)), 3)
                        for seg in (m[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True))
                        if len(seg)])  # detrended shot by shot: a cut's step is no swing
    starts = np.arange(0, n - w + 1, max(1, int(round(STEP_S * fps))))
    win = np.lib.stride_tricks.sliding_window_view(x, w)[starts]
    win = win - win.mean(axis=1, keepdims=True)
    energy = np.maximum((win * win).sum(axis=1), 1e-12)
    r = np.stack([(win[:, :-k] * win[:, k:]).sum(axis=1) / energy * w / (w - k)
                  for k in range(1, lags + 1)], axis=1)
    neg = r < 0
    first = np.argmax(neg, axis=1)
    past = np.where(np.arange(lags)[None, :] > first[:, None] + 1, r, -np.inf)
    reg = np.where(neg.any(axis=1), past.max(axis=1), 0.0)
    reg = np.where(np.isfinite(reg), reg, 0.0)
    # the period: the first lag nearly as alike as the best (two periods are as alike as one)
    best = np.argmax(past >= 0.9 * reg[:, None], axis=1)
    dm = np.abs(np.diff(m, prepend=m[0]))
    d = np.nan_to_num(np.asarray(diff, dtype=np.float64), nan=0.0).copy()
    dm[bounds[1:-1]] = d[bounds[1:-1]] = 0.0  # (the cut itself changes everything)
    cs, cd = np.concatenate([[0.0], np.cumsum(dm)]), np.concatenate([[0.0], np.cumsum(d)])
    whole = (cs[starts + w] - cs[starts]) / np.maximum(cd[starts + w] - cd[starts], 1e-6)
    # judged where the shots are long enough for a running mean: frames in shots shorter
    # than half a second are not
    short = np.zeros(n, dtype=bool)
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        short[a:b] = (b - a) < SHORTEST_SHOT_S * fps
    cn = np.concatenate([[0], np.cumsum(short)])
    return {"start": starts, "swing": 2.0 * np.sqrt(2.0) * np.sqrt(energy / w),
            "regularity": reg, "period_s": (best + 1) / fps, "whole": whole,
            "judged": (cn[starts + w] - cn[starts]) == 0, "x": x}


def pulsing(win: dict[str, np.ndarray], limit: float) -> np.ndarray:
    """Windows that pulse: judged, regular beyond `limit`, the whole picture, visible."""
    return (win["judged"] & (win["regularity"] >= limit) & (win["whole"] >= WHOLE_PICTURE)
            & (win["swing"] >= PULSE_LEVELS[0]))


def pulse_events(frames: dict[str, np.ndarray], scenes: list[Scene], fps: float) -> list[Event]:
    """One flicker event (brightness pulsing) per run of pulsing windows, its ends where the
    swing envelope rises and falls, graded by its swing on PULSE_LEVELS."""
    t = np.asarray(frames.get("t", []), dtype=np.float64)
    if len(t) == 0 or "luma" not in frames or "diff" not in frames:
        return []
    win = pulse_windows(frames["luma"], frames["diff"], fps, [s.start_frame for s in scenes[1:]])
    if win is None:
        return []
    hit = pulsing(win, value("flicker.periodicity"))
    if not hit.any():
        return []
    w, n, x = window_frames(fps), len(t), win["x"]
    spans = [(int(win["start"][a]), min(n, int(win["start"][b - 1]) + w)) for a, b in runs(hit)]
    out = []
    for a, b in merge_runs(spans, t, gap_s=GAP_S):
        inside = hit & (win["start"] >= a) & (win["start"] + w <= b)
        swing = float(np.median(win["swing"][inside])) if inside.any() else PULSE_LEVELS[0]
        period_s = float(np.median(win["period_s"][(inside if inside.any() else hit)]))
        # the swing's envelope: the largest |x| over one period around each frame
        envelope = rolling(np.abs(x[a:b]), max(3, int(round(period_s * fps))), np.nanmax)
        keep = np.flatnonzero(envelope >= EDGE * swing / 2.0)
        if len(keep) == 0:
            continue
        a, b = a + int(keep[0]), a + int(keep[-1]) + 1
        out.append(Event(
            type="flicker", subtype="brightness oscillation",
            start_s=round(float(t[a]), 2), end_s=round(float(t[min(b, n) - 1] + 1.0 / fps), 2),
            severity=round(level_severity(swing, PULSE_LEVELS), 3), score=round(swing, 3),
            evidence={"luma_swing": round(swing, 2), "period_s": round(period_s, 2),
                      "signal": "slow pulse", "frames": int(b - a)},
        ))
    return out
