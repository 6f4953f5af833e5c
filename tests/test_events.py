"""Event detection on synthetic signal series: baselines, steps, cuts (no video needed)."""

from __future__ import annotations

import numpy as np

from tools.events import detect_events
from tools.model import Scene
from tools.signals import SAMPLE_SIGNALS

FPS = 25.0


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
        "detail": around(0.25), "black": around(16.0), "white": around(235.0),
        "contrast_range": around(219.0), "saturation": around(90.0),
        "hue_x": around(0.2), "hue_y": around(0.1),
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


def test_blur_covering_most_of_a_scene_is_found_against_its_clean_start():
    s = _samples(60.0)
    inside = (s["t"] >= 24.0) & (s["t"] < 40.0)  # scene 20-40: 80 % blurred
    s["detail"][inside] *= 0.6
    s["sharpness"][inside] *= 0.5
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    blur = [e for e in events if e.type == "blur"]
    assert len(blur) == 1, events
    assert abs(blur[0].start_s - 24.0) <= 1.0 and abs(blur[0].end_s - 40.0) <= 1.0


def test_tone_of_a_whole_other_scene_is_not_bridged_into_an_event():
    s = _samples(60.0)
    dark = (s["t"] >= 20.0) & (s["t"] < 40.0)  # a naturally dark, flat middle scene
    s["contrast_range"][dark] = 50.0
    s["white"][dark] = 66.0
    dip = (s["t"] >= 17.0) & (s["t"] < 20.0)  # and a small natural dip before its cut
    s["contrast_range"][dip] *= 0.6
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert not [e for e in events if e.type == "exposure" and e.end_s > 21.0], events


def test_clean_series_gives_no_event():
    events = detect_events(_frames(60.0), _samples(60.0), _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert events == []
