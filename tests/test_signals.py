"""The fast helpers of tools.signals give, to the bit, what the calls they replace gave."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tools.signals import (
    _best_grid,
    _grid_ratio,
    _masked_mean,
    _median,
    _percentiles,
    macroblocking,
    temporal_signals,
)


def _images(seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for h, w in [(1, 1), (1, 2), (2, 3), (7, 5), (45, 80), (90, 160), (181, 321)]:
        out.append(rng.integers(0, 256, (h, w), dtype=np.uint8))
        out.append(rng.integers(0, 3, (h, w), dtype=np.uint8) * 40)  # many ties
        out.append(np.full((h, w), 9, np.uint8))
    return out


@pytest.mark.parametrize("img", _images())
def test_median_and_percentiles_match_numpy(img: np.ndarray) -> None:
    for view in (img, img[::4, ::4], img[::2, ::2]):
        assert _median(view) == np.median(view)
        for qs in [(90,), (1, 99), (0, 100), (37.5, 50)]:
            assert _percentiles(view, qs) == np.percentile(view, list(qs)).tolist()


@pytest.mark.parametrize("img", _images(1))
def test_masked_mean_matches_cv2_mean(img: np.ndarray) -> None:
    for cut in (0, 40, 128, 255):
        mask = (img >= cut).astype(np.uint8) * 255
        expected = cv2.mean(img, mask=mask)[0] if cv2.countNonZero(mask) else -1.0
        assert _masked_mean(img, mask, empty=-1.0) == expected


def test_best_grid_matches_the_full_search() -> None:
    rng = np.random.default_rng(2)
    for n, m, scale in [(1279, 719, 8), (159, 89, 1), (639, 359, 4), (30, 20, 1)]:
        for blocks in (0, 3, 12):
            dx = rng.random(n).astype(np.float32)
            dy = rng.random(m).astype(np.float32)
            if blocks:
                dx[blocks - 1 :: blocks] += 2.0
                dy[blocks - 1 :: blocks] += 2.0
            full = 1.0
            for period in range(3 * scale, 40 * scale, scale):
                full = max(full, min(_grid_ratio(dx, period)[0], _grid_ratio(dy, period)[0]))
            assert _best_grid(dx, dy, scale) == full


def test_coarse_structure_survives_grain_and_breaks_at_a_cut():
    rng = np.random.default_rng(0)
    shot_a = cv2.GaussianBlur(rng.integers(0, 255, (72, 128)).astype(np.uint8), (0, 0), 6)
    shot_b = cv2.GaussianBlur(rng.integers(0, 255, (72, 128)).astype(np.uint8), (0, 0), 6)
    grainy = np.clip(shot_a + rng.normal(0, 40, shot_a.shape), 0, 255).astype(np.uint8)
    s = temporal_signals(np.stack([shot_a, grainy, shot_b]), None)
    assert s["corr"][1] < 0.5 < s["coarse_corr"][1]  # grain starts: fine structure only
    assert s["coarse_corr"][2] < 0.5 and s["corr"][2] < 0.5  # a new shot breaks both


def _blocks(rng: np.random.Generator, h: int = 288, w: int = 352) -> np.ndarray:
    """16-px blocks, each its own tilted plane: they meet at kinks on the grid."""
    yy, xx = np.mgrid[0:16, 0:16].astype(np.float32)
    img = np.zeros((h, w), np.float32)
    for by in range(0, h, 16):
        for bx in range(0, w, 16):
            a, gx, gy = rng.uniform(60, 190), rng.uniform(-3, 3), rng.uniform(-3, 3)
            img[by:by + 16, bx:bx + 16] = a + gx * (xx - 7.5) + gy * (yy - 7.5)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_macroblocking_reads_kinks_on_the_16px_grid_only():
    rng = np.random.default_rng(5)
    coded = _blocks(rng)
    texture = cv2.GaussianBlur(rng.uniform(0, 255, coded.shape).astype(np.float32), (0, 0), 1.5)
    texture = np.clip(texture, 0, 255).astype(np.uint8)
    assert macroblocking(coded) > 2.0
    # the same blocks off the grid (moved by 8 px), blurred, or texture of no grid: no kinks
    assert abs(macroblocking(np.ascontiguousarray(np.roll(coded, 8, axis=(0, 1))))) < 0.5
    assert macroblocking(cv2.GaussianBlur(coded, (0, 0), 3)) < 0.3 * macroblocking(coded)
    assert abs(macroblocking(texture)) < 0.3
