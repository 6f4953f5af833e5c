"""Measurements of the uniformly sampled frames: what the uniform track's local brain sees."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np


@dataclass
class Samples:
    """Measurements of the sampled frames (one value per frame per signal)."""

    times: np.ndarray
    signals: dict[str, np.ndarray]
    duration_s: float
    size: tuple[int, int] | None = None  # width, height of the measured frames

    def to_dict(self) -> dict[str, Any]:
        return {"times": self.times.tolist(), "duration_s": self.duration_s,
                "signals": {k: v.tolist() for k, v in self.signals.items()},
                "size": list(self.size) if self.size else None}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Samples:
        size = d.get("size")
        return cls(np.asarray(d["times"], dtype=np.float64),
                   {k: np.asarray(v, dtype=np.float64) for k, v in d["signals"].items()},
                   float(d["duration_s"]), (int(size[0]), int(size[1])) if size else None)


def measure(frames: np.ndarray, times: np.ndarray, duration_s: float) -> Samples:
    """Spatial and colour signals of each frame (tools.signals), plus its mean luminance."""
    from tools.signals import colour_signals, spatial_signals

    rows = []
    for f in frames:
        gray = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY)
        h, w = gray.shape
        small = cv2.resize(f, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
        rows.append({**spatial_signals(gray), **colour_signals(small),
                     "luma": float(gray.mean())})
    keys = list(rows[0]) if rows else []
    size = (int(frames[0].shape[1]), int(frames[0].shape[0])) if len(frames) else None
    return Samples(np.asarray(times, dtype=np.float64),
                   {k: np.array([r[k] for r in rows], dtype=np.float64) for k in keys},
                   float(duration_s), size)
