"""Synthetic signal series for the event-detection tests: clean spatial samples, per-frame
signals and scenes at 25 fps, and the one-span assertion."""

from __future__ import annotations

import numpy as np

from tools.model import Scene
from tools.signals import SAMPLE_SIGNALS

FPS = 25.0
SIX = [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0]  # a minute of six 10-s shots
NINE = [0.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0, 140.0, 160.0, 180.0]  # 3 min, 20-s shots


def _samples(duration_s: float, rate: float = 2.0, seed: int = 0) -> dict[str, np.ndarray]:
    """Clean, slightly noisy spatial samples of a textured picture."""
    rng = np.random.default_rng(seed)
    t = np.arange(0, duration_s, 1 / rate)
    n = len(t)

    def around(v: float, rel: float = 0.03) -> np.ndarray:
        return (v * (1 + rel * rng.standard_normal(n))).astype(np.float32)

    s = {
        "sharpness": around(300.0), "noise": around(0.3), "impulse": np.zeros(n, np.float32),
        "blockiness": around(1.05, 0.01), "grid": around(1.1, 0.01), "halo": around(8.0),
        "detail": around(0.25), "aniso": around(0.1), "black": around(16.0), "white": around(235.0),
        "contrast_range": around(219.0), "saturation": around(45.0),
        "hue_x": around(0.2), "hue_y": around(0.1), "comb": around(0.001), "mb": around(0.3),
    }
    assert set(s) == set(SAMPLE_SIGNALS)
    s["t"] = t
    s["frame"] = np.round(t * FPS).astype(np.int64)
    return s


def _frames(duration_s: float) -> dict[str, np.ndarray]:
    n = int(duration_s * FPS)
    rng = np.random.default_rng(1)
    return {
        "t": np.arange(n) / FPS, "luma": np.full(n, 100.0) + rng.normal(0, 0.2, n),
        "contrast": np.full(n, 50.0), "diff": np.full(n, 2.0) + rng.normal(0, 0.1, n),
        "corr": np.full(n, 0.98), "motion_x": rng.normal(0, 0.05, n),
        "motion_y": rng.normal(0, 0.05, n), "motion_conf": np.full(n, 0.6),
    }


def _scenes(bounds: list[float]) -> list[Scene]:
    pairs = zip(bounds[:-1], bounds[1:], strict=True)
    return [Scene(a, b, int(a * FPS), int(b * FPS) - 1) for a, b in pairs]


def _one_span(events: list, kind: str, start_s: float, end_s: float) -> None:
    """Exactly one event of this type (or subtype), from start_s to end_s to within 1 s."""
    found = [e for e in events if kind in (e.type, e.subtype)]
    assert len(found) == 1, events
    assert abs(found[0].start_s - start_s) <= 1.0 and abs(found[0].end_s - end_s) <= 1.0, found
