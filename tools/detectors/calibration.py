"""Thresholds measured on clean real footage: declared by the detectors, stored in one file.

A detector declares each threshold it needs as a `Quantity`: what one clean video contributes
(values of a statistic), which way a degradation moves it, and the false-alarm rate it may
reach on clean footage. `bench calibrate` measures every declared quantity on the calibration
part of the real corpus and writes `calibration.json` beside this module; detectors read the
values with `value(key)`. Nothing here is read off the project's generated sets.

The limit for a quantity is where a normal fit of the clean values (on a log scale for
ratios and levels) puts the stated false-alarm rate, and never inside the clean values
themselves: no clean calibration video would trip it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")
# False-alarm rate per clean value (a video's level, a shot's median, a cluster's holds) of
# the normal fit that places a limit ...
VIDEO_ALPHA = 0.001
# ... and the least distance a limit keeps from the most extreme clean value: a factor on
# the (offset) level. A few dozen clean videos do not show the extremes of all real footage.
MARGIN = 1.25


@dataclass(frozen=True)
class CleanVideo:
    """The measured signals of one clean video (what `bench calibrate` hands a quantity)."""

    name: str
    fps: float
    frames: dict[str, np.ndarray]
    samples: dict[str, np.ndarray]
    scenes: list[Any]
    raw_cuts: list[int]
    shared: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def once(self, key: str, compute: Callable[[], Any]) -> Any:
        """`compute()` for this video, computed once: quantities that read the same
        measurement share it (`calibrate` asks each quantity of every video in turn)."""
        if key not in self.shared:
            self.shared[key] = compute()
        return self.shared[key]


@dataclass(frozen=True)
class Quantity:
    """One threshold a detector needs, measured on clean footage."""

    key: str
    doc: str
    measure: Callable[[CleanVideo], Sequence[float]]  # what one clean video contributes
    direction: int  # +1: a degradation raises the statistic, -1: lowers it
    default: float  # before any calibration (tests of the machinery only)
    alpha: float = VIDEO_ALPHA
    log: bool = True
    offset: float = 0.0  # added before the log, for levels that reach 0
    # fit only the side a degradation moves the statistic toward (the spread of the values
    # beyond their median, as a half-normal): for statistics whose other side spreads for
    # reasons of its own (how far a blur lowers the kinks says nothing of how far it raises)
    one_sided: bool = False


QUANTITIES: dict[str, Quantity] = {}


def declare(q: Quantity) -> Quantity:
    """Register a detector's threshold for `bench calibrate` (keys are unique)."""
    if q.key in QUANTITIES and QUANTITIES[q.key] != q:
        raise ValueError(f"calibration key {q.key!r} declared twice")
    QUANTITIES[q.key] = q
    return q


def tail_limit(values: Sequence[float], direction: int, alpha: float, log: bool = True,
               offset: float = 0.0, one_sided: bool = False) -> float:
    """The level clean footage passes with probability `alpha` (normal fit of log(value +
    offset), or of the value; `one_sided`: a half-normal fit of the values beyond their
    median), and at least MARGIN beyond the most extreme clean value."""
    x = np.asarray([v for v in values if v is not None and math.isfinite(v)], dtype=np.float64)
    if len(x) == 0:
        raise ValueError("no clean values to calibrate on")
    x = np.log(np.maximum(x + offset, 1e-9)) if log else x
    z = NormalDist().inv_cdf(1.0 - alpha)
    if one_sided:
        centre = float(np.median(x))
        beyond = x[direction * (x - centre) > 0] - centre
        sd = float(np.sqrt(np.mean(beyond ** 2))) if len(beyond) else 0.0
    else:
        centre = float(x.mean())
        sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
    fit = centre + direction * z * sd
    if log:
        extreme = float(x.max() + math.log(MARGIN)) if direction > 0 else float(
            x.min() - math.log(MARGIN))
    else:
        extreme = float(x.max() * MARGIN) if direction > 0 else float(x.min() / MARGIN)
    lim = max(fit, extreme) if direction > 0 else min(fit, extreme)
    return float(math.exp(lim) - offset) if log else lim


def least_quiet(found: Callable[[float], bool], top: float, steps: int = 16) -> float:
    """The least limit at which `found(limit)` is False (a clean video shows nothing),
    bisected between 0 and `top` (`top` itself when even that finds something)."""
    lo, hi = 0.0, top
    if found(hi):
        return hi
    for _ in range(steps):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if found(mid) else (lo, mid)
    return hi


def calibrate(videos: Sequence[CleanVideo], keys: Sequence[str] | None = None) -> dict[str, Any]:
    """Measure the declared quantities on clean videos: {key: {value, n, clean range, ...}}."""
    out: dict[str, Any] = {}
    for key in keys or sorted(QUANTITIES):
        q = QUANTITIES[key]
        vals = [float(v) for vid in videos for v in q.measure(vid)]
        vals = [v for v in vals if math.isfinite(v)]
        if not vals:
            continue
        out[key] = {
            "value": round(tail_limit(vals, q.direction, q.alpha, q.log, q.offset,
                                      q.one_sided), 6),
            "direction": q.direction,
            **({"fit": "one-sided"} if q.one_sided else {}),
            "alpha": q.alpha,
            "margin": MARGIN,
            "n": len(vals),
            "clean_min": round(min(vals), 6),
            "clean_max": round(max(vals), 6),
            "doc": q.doc,
        }
    return out


@lru_cache(maxsize=1)
def _stored() -> dict[str, Any]:
    try:
        data = json.loads(CALIBRATION_FILE.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def reload() -> None:
    """Forget the cached file (after `bench calibrate` rewrote it)."""
    _stored.cache_clear()


def value(key: str) -> float:
    """A calibrated threshold; the declared default when the file does not hold it yet."""
    entry = _stored().get("thresholds", {}).get(key)
    if isinstance(entry, dict) and isinstance(entry.get("value"), int | float):
        return float(entry["value"])
    if key in QUANTITIES:
        return QUANTITIES[key].default
    raise KeyError(f"no calibrated threshold {key!r}")


def clean_extreme(key: str) -> float | None:
    """The most extreme value the clean calibration videos showed for a quantity (its
    largest where higher is worse, else its smallest); None when the file does not hold it."""
    entry = _stored().get("thresholds", {}).get(key)
    if not isinstance(entry, dict):
        return None
    got = entry.get("clean_max" if entry.get("direction", 1) > 0 else "clean_min")
    return float(got) if isinstance(got, int | float) else None


# Events are gated by how long they last: content mimics a degradation for a few seconds
# (a fade, a pan, a flash) far more often than for a minute.
DURATION_CLASSES: tuple[tuple[str, float], ...] = (("short", 6.0), ("medium", 20.0),
                                                   ("long", float("inf")))


def duration_class(seconds: float) -> str:
    """'short' (< 6 s), 'medium' (< 20 s) or 'long'."""
    return next(name for name, below in DURATION_CLASSES if seconds < below)


def gate_key(event_type: str, subtype: str, seconds: float) -> str:
    return f"{event_type}/{subtype}/{duration_class(seconds)}"


def gate(event_type: str, subtype: str = "", seconds: float = 0.0) -> float:
    """Smallest severity an event of this type, subtype and duration class needs: above
    every such event the detectors found on clean calibration footage (0 when none)."""
    entry = _stored().get("gates", {}).get(gate_key(event_type, subtype, seconds))
    return float(entry["value"]) if isinstance(entry, dict) else 0.0


def summary() -> dict[str, Any]:
    """What the stored calibration was made from (for index metadata and the README)."""
    data = _stored()
    return {k: data.get(k) for k in ("version", "made_by", "alpha", "clips", "clean_minutes")}
