"""The table S5 distortions: registry, and each level moving its frame measure the right way."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench import distort
from tools.model import EVENT_TYPES

SPATIAL = {
    "brightness", "contrast", "defocus_blur", "gaussian_blur", "gaussian_noise", "hue_shift",
    "jpeg", "motion_blur", "pixelation", "poisson_noise", "salt_pepper", "saturation",
    "sharpening", "speckle_noise",
}
TEMPORAL = {"flicker", "frame_drop", "jitter", "stutter"}
LEVELS = (1, 2, 3)


def _frame(h: int = 180, w: int = 320, seed: int = 0) -> np.ndarray:
    """A mid-grey, moderately saturated frame with smooth shading, edges and fine texture."""
    rng = np.random.default_rng(seed)
    small = rng.uniform(60, 190, (h // 20, w // 20, 3)).astype(np.float32)
    img = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    for _ in range(12):
        x, y = int(rng.integers(0, w - 40)), int(rng.integers(0, h - 30))
        colour = tuple(float(c) for c in rng.uniform(40, 210, 3))
        cv2.rectangle(img, (x, y), (x + int(rng.integers(10, 60)), y + int(rng.integers(10, 40))),
                      colour, -1)
    img += rng.normal(0, 4, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _apply(name: str, level: int, frame: np.ndarray, seed: int = 1) -> np.ndarray:
    x = distort.intensity(name, level)
    return distort.apply_spatial(name, frame, x, np.random.default_rng(seed))


def _lapvar(f: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


def _blockiness(f: np.ndarray) -> float:
    """Mean jump across 8-px column boundaries over the mean jump inside 8x8 blocks."""
    g = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY).astype(np.float64)
    d = np.abs(np.diff(g, axis=1)).mean(axis=0)  # d[j] = |g[:, j+1] - g[:, j]|
    edge = d[7::8].mean()
    inside = np.delete(d, np.s_[7::8]).mean()
    return float(edge / max(inside, 1e-6))


def _hsv(f: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(f, cv2.COLOR_BGR2HSV_FULL).astype(np.float64)


# ----------------------------------------------------------------------------- registry


def test_registry_matches_table_s5():
    assert {n for n, d in distort.DISTORTIONS.items() if d.kind == "spatial"} == SPATIAL
    assert {n for n, d in distort.DISTORTIONS.items() if d.kind == "temporal"} == TEMPORAL
    for name, d in distort.DISTORTIONS.items():
        assert d.name == name
        assert d.event_type in EVENT_TYPES
        assert d.doc
        assert len(d.levels) == (1 if name == "poisson_noise" else 3)
    assert distort.DISTORTIONS["jpeg"].levels == (30, 10, 3)
    assert distort.DISTORTIONS["gaussian_blur"].levels == (7, 21, 45)
    assert distort.DISTORTIONS["stutter"].levels == (5, 15, 25)
    groups = {n: d.event_type for n, d in distort.DISTORTIONS.items()}
    assert groups["motion_blur"] == groups["defocus_blur"] == "blur"
    assert groups["salt_pepper"] == groups["poisson_noise"] == "noise"
    assert groups["pixelation"] == "compression" and groups["contrast"] == "exposure"
    assert groups["hue_shift"] == "colour" and groups["stutter"] == "stutter"


def test_intensity_and_errors():
    assert distort.intensity("salt_pepper", 2) == pytest.approx(0.10)
    assert distort.intensity("flicker", 3) == pytest.approx(1.2)
    assert distort.intensity("poisson_noise", 1) is None
    assert distort.intensity("poisson_noise", 3) is None
    with pytest.raises(ValueError, match="level must be 1, 2 or 3"):
        distort.intensity("jpeg", 4)
    with pytest.raises(ValueError, match="valid names: .*gaussian_blur.*stutter"):
        distort.intensity("gausian_blur", 1)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="temporal distortion"):
        distort.apply_spatial("flicker", _frame(), 0.2, rng)
    with pytest.raises(ValueError, match="spatial distortion"):
        distort.temporal_source_map("jpeg", 10, 30, 25.0, rng)
    with pytest.raises(ValueError, match="uint8"):
        distort.apply_spatial("jpeg", _frame().astype(np.float32), 30, rng)


def test_pixel_sizes_scale_with_height():
    assert distort.at_height(45, 540, floor=0.5) == pytest.approx(22.5)
    assert distort.at_height(5, 108, floor=1.0) == pytest.approx(1.0)  # floor
    # Pixelation level 1 (10 px at 1080p) makes 5-px blocks on a 540-px-tall frame.
    out = _apply("pixelation", 1, _frame(540, 960))
    row = out[100, :, 1].astype(int)
    starts = np.flatnonzero(np.diff(row) != 0) + 1
    runs = np.diff(starts)
    assert np.median(runs) == pytest.approx(5, abs=1)


# ----------------------------------------------------------------------------- spatial


@pytest.mark.parametrize("name", sorted(SPATIAL))
def test_spatial_keeps_shape_and_is_seeded(name):
    f = _frame()
    a, b = _apply(name, 2, f, seed=5), _apply(name, 2, f, seed=5)
    assert a.shape == f.shape and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert not np.array_equal(a, f)


@pytest.mark.parametrize("name", ["gaussian_noise", "poisson_noise", "speckle_noise",
                                  "salt_pepper"])
def test_noise_raises_laplacian_variance_and_differs_per_draw(name):
    f = _frame()
    levels = (1,) if name == "poisson_noise" else LEVELS
    spread = []
    for level in levels:
        out = _apply(name, level, f)
        assert _lapvar(out) > 1.5 * _lapvar(f)
        spread.append(float(np.std(out.astype(float) - f)))
    assert spread == sorted(spread)
    assert not np.array_equal(_apply(name, 1, f, seed=1), _apply(name, 1, f, seed=2))


def test_gaussian_noise_has_the_table_sigma():
    f = np.full((180, 320, 3), 128, np.uint8)
    for level, sigma in zip(LEVELS, (15, 30, 80), strict=True):
        d = _apply("gaussian_noise", level, f).astype(float) - 128
        clipped = np.clip(np.random.default_rng(0).normal(0, sigma, 100_000), -128, 127)
        assert np.std(d) == pytest.approx(np.std(clipped), rel=0.05)


def test_salt_pepper_fraction():
    f = np.full((180, 320, 3), 128, np.uint8)
    for level in LEVELS:
        out = _apply("salt_pepper", level, f)
        hit = np.all(out != 128, axis=2).mean()
        assert hit == pytest.approx(distort.intensity("salt_pepper", level), rel=0.1)


@pytest.mark.parametrize("name", ["gaussian_blur", "defocus_blur", "motion_blur"])
def test_blur_lowers_laplacian_variance_more_each_level(name):
    f = _frame()
    sharp = [_lapvar(_apply(name, level, f)) for level in LEVELS]
    assert sharp[0] < 0.8 * _lapvar(f)
    assert sharp[0] > sharp[1] > sharp[2]


def test_motion_blur_is_horizontal():
    yy, xx = np.mgrid[0:180, 0:320]
    f = np.repeat((((yy // 16 + xx // 16) % 2) * 120 + 60).astype(np.uint8)[..., None], 3, 2)
    out = _apply("motion_blur", 3, f).astype(float)
    g = f.astype(float)
    dx = (np.diff(out, axis=1) ** 2).mean() / (np.diff(g, axis=1) ** 2).mean()
    dy = (np.diff(out, axis=0) ** 2).mean() / (np.diff(g, axis=0) ** 2).mean()
    assert dx < 0.3 * dy and dy > 0.5


def test_sharpening_raises_laplacian_variance_each_level():
    f = cv2.GaussianBlur(_frame(), (0, 0), 1.0)
    sharp = [_lapvar(_apply("sharpening", level, f)) for level in LEVELS]
    assert _lapvar(f) * 2 < sharp[0] < sharp[1] < sharp[2]


def test_brightness_raises_mean_each_level():
    f = _frame()
    means = [float(_apply("brightness", level, f).mean()) for level in LEVELS]
    assert f.mean() + 25 < means[0] < means[1] < means[2]
    assert means[2] > 225  # "almost white"


def test_contrast_lowers_std_and_keeps_mean():
    f = _frame()
    outs = [_apply("contrast", level, f) for level in LEVELS]
    stds = [float(o.std()) for o in outs]
    assert f.std() > stds[0] > stds[1] > stds[2]
    assert stds[2] == pytest.approx(0.2 * f.std(), rel=0.1)
    for o in outs:
        assert o.mean() == pytest.approx(f.mean(), abs=1.5)


def test_hue_shift_rotates_hue_by_the_table_angle():
    f = _frame()
    base = _hsv(f)
    coloured = base[..., 1] > 60
    for level, degrees in zip(LEVELS, (15, 60, 130), strict=True):
        hue = _hsv(_apply("hue_shift", level, f))[..., 0]
        d = (hue - base[..., 0]) * 360 / 256
        d = (d + 180) % 360 - 180
        assert np.median(d[coloured]) == pytest.approx(degrees, abs=6)


def test_saturation_shift_moves_mean_saturation():
    f = _frame()
    s0 = _hsv(f)[..., 1].mean()
    s = [_hsv(_apply("saturation", level, f))[..., 1].mean() for level in LEVELS]
    assert s[0] < 0.9 * s0
    assert s0 * 1.4 < s[1] < s[2]


def test_jpeg_raises_block_edge_discontinuity():
    f = _frame()
    b0 = _blockiness(f)
    b = [_blockiness(_apply("jpeg", level, f)) for level in LEVELS]
    assert b0 == pytest.approx(1.0, abs=0.15)  # no grid in the source
    assert b[0] > b0 + 0.1
    assert b[2] > b[0]


def test_pixelation_makes_flat_blocks():
    f = _frame()
    flat0 = float((np.diff(f.astype(int), axis=1) == 0).mean())
    flat = [float((np.diff(_apply("pixelation", lv, f).astype(int), axis=1) == 0).mean())
            for lv in LEVELS]
    assert flat0 < 0.2
    assert 0.4 < flat[0] < flat[1] < flat[2]


# ----------------------------------------------------------------------------- temporal


def _held_fraction(m: np.ndarray) -> float:
    return float((m != np.arange(len(m))).mean())


@pytest.mark.parametrize("level", LEVELS)
def test_frame_drop_map_holds_the_expected_fraction(level):
    p = distort.intensity("frame_drop", level)
    m = distort.temporal_source_map("frame_drop", 3000, p, 25.0, np.random.default_rng(level))
    i = np.arange(len(m))
    assert m[0] == 0
    assert np.all(m <= i) and np.all(np.diff(m) >= 0)
    shown = m == i
    assert np.array_equal(m[shown], i[shown])  # a shown frame is the current one: motion jumps
    assert _held_fraction(m) == pytest.approx(p, abs=0.04)


@pytest.mark.parametrize("level", LEVELS)
def test_stutter_map_freezes_for_intensity_frames_then_catches_up(level):
    length = int(distort.intensity("stutter", level))
    fps = 25.0
    m = distort.temporal_source_map("stutter", 1500, length, fps, np.random.default_rng(level))
    i = np.arange(len(m))
    assert np.all(m <= i) and np.all(np.diff(m) >= 0)
    values, counts = np.unique(m, return_counts=True)
    freezes = counts[counts > 1]
    assert np.all(freezes[:-1] == length)  # the last freeze may be cut by the window end
    assert 1500 / (length + 2 * fps) - 1 <= len(freezes) <= 1500 / (length + fps) + 1
    after = values[counts > 1][:-1] + length  # frame after each freeze shows real time again
    assert np.array_equal(m[after], after)
    expected = (length - 1) / (length + 1.5 * fps)
    assert _held_fraction(m) == pytest.approx(expected, rel=0.25)


def test_stutter_starts_within_half_a_second():
    for seed in range(5):
        m = distort.temporal_source_map("stutter", 100, 5, 25.0, np.random.default_rng(seed))
        first_held = int(np.flatnonzero(m != np.arange(100))[0])
        assert first_held <= 13


@pytest.mark.parametrize("name", ["flicker", "jitter"])
def test_per_frame_temporal_maps_are_identity(name):
    m = distort.temporal_source_map(name, 50, 1.0, 25.0, np.random.default_rng(0))
    assert np.array_equal(m, np.arange(50))


def _flicker_means(level: int, frame: np.ndarray, n: int = 50) -> np.ndarray:
    rng = np.random.default_rng(level)
    x = distort.intensity("flicker", level)
    return np.array([
        distort.apply_temporal_frame("flicker", frame, i, 25.0, x, rng).mean() for i in range(n)
    ])


def test_flicker_is_a_rapid_luminance_oscillation_growing_with_level():
    f = _frame()
    swings = []
    for level in LEVELS:
        dev = _flicker_means(level, f) - f.mean()
        steps = np.abs(np.diff(dev))
        # Rapid strobing, not a slow fade: big frame-to-frame steps and frequent sign changes.
        assert np.median(steps) > 0.1 * distort.intensity("flicker", level) * f.mean()
        assert np.count_nonzero(np.diff(np.sign(dev)) != 0) >= 20
        lag1 = np.corrcoef(dev[:-1], dev[1:])[0, 1]
        assert lag1 < 0
        swings.append(float(dev.std()))
    assert swings[0] > 3 and swings[0] < swings[1] < swings[2]


def test_flicker_is_visible_in_a_dark_scene():
    dark = (_frame() * 0.25).astype(np.uint8)
    dev = _flicker_means(1, dark) - dark.mean()
    assert dev.std() > 5


def _shift(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    ga, gb = (cv2.cvtColor(x, cv2.COLOR_BGR2GRAY).astype(np.float32) for x in (a, b))
    (dx, dy), _ = cv2.phaseCorrelate(ga, gb)
    return dx, dy


@pytest.mark.parametrize("level", LEVELS)
def test_jitter_shifts_each_frame_randomly_within_the_scaled_amplitude(level):
    f = _frame(360, 640)
    x = distort.intensity("jitter", level)
    amp = round(distort.at_height(x, 360, floor=1.0))
    rng = np.random.default_rng(level)
    shifts = [_shift(f, distort.apply_temporal_frame("jitter", f, i, 25.0, x, rng))
              for i in range(20)]
    mags = np.abs(np.array(shifts))
    assert np.all(mags <= amp + 0.6)
    assert mags.max() >= 0.6 * amp
    assert len({(round(dx), round(dy)) for dx, dy in shifts}) >= 5


@pytest.mark.parametrize("name", ["frame_drop", "stutter"])
def test_drop_and_stutter_have_no_per_frame_part(name):
    f = _frame()
    out = distort.apply_temporal_frame(name, f, 3, 25.0, 0.4, np.random.default_rng(0))
    assert np.array_equal(out, f)
