"""The detail ratio (blur signal): falls with blur, blind to the amount of contrast."""

from __future__ import annotations

import cv2
import numpy as np

from tools.signals import anisotropy, detail_ratio


def _texture(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 256, (180, 320), dtype=np.uint8)
    return cv2.resize(base, (640, 360), interpolation=cv2.INTER_CUBIC)


def test_blur_lowers_the_detail_ratio_and_contrast_does_not_move_it():
    img = _texture()
    sharp = detail_ratio(img)
    blurred = detail_ratio(cv2.GaussianBlur(img, (0, 0), 1.5))
    flat = detail_ratio(cv2.convertScaleAbs(img, alpha=0.4, beta=77))
    assert blurred < 0.8 * sharp
    assert abs(np.log(flat / sharp)) < 0.1


def _smear(img: np.ndarray, length: int, angle: float) -> np.ndarray:
    """Motion blur: a line kernel of `length` px at `angle` degrees."""
    k = np.zeros((length, length), np.float32)
    k[length // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle, 1.0)
    k = cv2.warpAffine(k, rot, (length, length))
    return cv2.filter2D(img, -1, k / k.sum())


def test_motion_blur_in_any_direction_raises_anisotropy_and_plain_blur_does_not():
    img = _texture()
    base = anisotropy(img)
    assert base < 0.2
    assert anisotropy(cv2.GaussianBlur(img, (0, 0), 2.0)) < 0.2
    for angle in (0.0, 45.0, 90.0, 135.0):
        assert anisotropy(_smear(img, 7, angle)) > base + 0.7, angle
    # a slight smear (3 px: level 1 of table S5 at 360p) already shows
    assert anisotropy(_smear(img, 3, 0.0)) > base + 0.3
