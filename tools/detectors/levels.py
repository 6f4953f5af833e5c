"""Absolute levels clean footage never reaches, declared for calibration.

Where a detector judges a level with no clean scene beside it (a degradation over the whole
video, over the shots at one end of it, a scene degraded throughout), the limit is what clean
real footage does not reach: the video-level percentile of every clean calibration video, the
level of every run of shots at its ends, the median of every clean shot.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from tools.detectors.calibration import CleanVideo, Quantity, declare
from tools.detectors.whole_video import END_RUN_MIN_S, END_RUN_MIN_SCENES, whole_key


def _pct(x: np.ndarray, q: float) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(np.nanpercentile(x, q)) if np.isfinite(x).any() else float("nan")


def end_run_key(signal: str, pct: float) -> str:
    return f"end_run.{signal}.p{pct:g}"


def floor_key(signal: str) -> str:
    return f"floor.{signal}"


# Offsets before the log scale for levels that reach 0 (as the spatial specs use them).
# Grey levels added to a whole video's median macroblock kinks before the log: it reads below
# zero where grain hides the grid (a grainy broadcast: -0.36), above it on every clean encode
# seen (the kinks of single samples, in coded.py and the twins, take 0.5 after clipping at 0).
WHOLE_KINK_OFFSET = 1.0
OFFSETS: dict[str, float] = {"black": 10.0, "noise": 0.3, "saturation": 20.0, "halo": 2.0,
                             "sharpness": 1.0, "impulse": 0.001, "mb": WHOLE_KINK_OFFSET}


# A spec's clean floor (SpatialSpec.floor): the level a clean video's spatial samples pass
# 1 % of the time (a few samples of any footage hit odd pictures: a title card, a flash),
# from videos with at least this many samples.
FLOOR_PERCENTILE = 99.0
FLOOR_MIN_SAMPLES = 10


def declare_whole(signal: str, pct: float, direction: int, default: float,
                  min_samples: int = 1) -> Quantity:
    """The video-level percentile of a spatial signal over each clean video (with at least
    `min_samples` finite samples)."""
    def measure(v: CleanVideo) -> list[float]:
        if signal not in v.samples:
            return []
        x = np.asarray(v.samples[signal], np.float64)
        return [_pct(x, pct)] if np.isfinite(x).sum() >= min_samples else []

    return declare(Quantity(
        key=whole_key(signal, pct), measure=measure, direction=direction, default=default,
        offset=OFFSETS.get(signal, 0.0), doc=f"p{pct:g} of {signal} over a whole clean video"))


def _end_runs(v: CleanVideo) -> list[tuple[np.ndarray, float, float]]:
    """Masks of the runs of >= END_RUN_MIN_SCENES whole shots spanning >= END_RUN_MIN_S at
    either end of a video (not all of it), with their spans."""
    t = np.asarray(v.samples.get("t", []), np.float64)
    scenes = v.scenes
    n = len(scenes)
    out = []
    for from_end in (False, True):
        for k in range(END_RUN_MIN_SCENES, n):
            run = scenes[n - k:] if from_end else scenes[:k]
            a, b = run[0].start_s, run[-1].end_s
            if b - a >= END_RUN_MIN_S:
                out.append(((t >= a) & (t < b), a, b))
    return out


def declare_end_run(signal: str, pct: float, direction: int, default: float) -> Quantity:
    """The percentile of a spatial signal over every run of shots at a clean video's ends."""
    def measure(v: CleanVideo) -> list[float]:
        if signal not in v.samples:
            return []
        x = np.asarray(v.samples[signal], np.float64)
        return [_pct(x[m], pct) for m, _, _ in _end_runs(v) if m.any()]

    return declare(Quantity(
        key=end_run_key(signal, pct), measure=measure, direction=direction, default=default,
        offset=OFFSETS.get(signal, 0.0),
        doc=f"p{pct:g} of {signal} over runs of >= {END_RUN_MIN_SCENES} shots at a clean "
            "video's start or end"))


def declare_floor(signal: str, default: float, log: bool = True) -> Quantity:
    """The median of a spatial signal in every clean shot (a shot's clean reference)."""
    def measure(v: CleanVideo) -> Sequence[float]:
        if signal not in v.samples or not v.scenes:
            return []
        t = np.asarray(v.samples["t"], np.float64)
        x = np.asarray(v.samples[signal], np.float64)
        out = []
        for s in v.scenes:
            m = (t >= s.start_s) & (t < s.end_s)
            if m.sum() >= 3:
                out.append(_pct(x[m], 50))
        return out

    return declare(Quantity(
        key=floor_key(signal), measure=measure, direction=+1, default=default, log=log,
        offset=OFFSETS.get(signal, 0.0), doc=f"median of {signal} in a clean shot"))


def declare_sample_max(key: str, signal: str, default: float,
                       where: tuple[str, float] | None = None) -> Quantity:
    """The largest per-sample value of a signal in a clean video (optionally only where
    another signal stays at or below a level)."""
    def measure(v: CleanVideo) -> list[float]:
        if signal not in v.samples:
            return []
        x = np.asarray(v.samples[signal], np.float64)
        if where is not None:
            x = x[np.asarray(v.samples[where[0]], np.float64) <= where[1]]
        x = x[np.isfinite(x)]
        return [float(x.max())] if len(x) else []

    cond = f" where {where[0]} <= {where[1]:g}" if where else ""
    return declare(Quantity(key=key, measure=measure, direction=+1, default=default,
                            offset=OFFSETS.get(signal, 0.0),
                            doc=f"largest {signal} in a clean video{cond}"))
