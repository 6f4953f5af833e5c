"""Shot boundaries from per-frame structure and difference series (no video needed)."""

from __future__ import annotations

import numpy as np

from tools.scenes import ShotDetector, structural_breaks


def _flicker(n: int = 200, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per-frame corr/diff of a flickering shot: structure kept, every difference large."""
    rng = np.random.default_rng(seed)
    corr = np.clip(0.97 + 0.01 * rng.standard_normal(n), 0, 1)
    diff = 40.0 + 15.0 * rng.random(n)
    return corr, diff


def test_a_cut_inside_flicker_is_a_structural_break():
    corr, diff = _flicker()
    corr[120], diff[120] = -0.2, 60.0  # the new shot: structure gone, difference ordinary
    assert structural_breaks(corr, diff).tolist() == [120]


def test_flicker_and_noise_alone_break_nothing():
    corr, diff = _flicker()
    assert structural_breaks(corr, diff).size == 0
    rng = np.random.default_rng(3)  # heavy noise: every frame correlates poorly
    noisy = 0.2 + 0.05 * rng.standard_normal(200)
    assert structural_breaks(noisy, np.full(200, 30.0) + rng.random(200)).size == 0


def test_scenes_include_the_cut_the_content_detector_missed():
    corr, diff = _flicker()
    corr[120] = -0.2
    t = np.arange(200) / 25.0
    scenes = ShotDetector(25.0).scenes(t, corr, diff)
    assert [s.start_frame for s in scenes] == [0, 120]
