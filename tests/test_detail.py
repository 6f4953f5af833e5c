"""The detail ratio (blur signal): falls with blur, blind to the amount of contrast."""

from __future__ import annotations

import cv2
import numpy as np

from tools.signals import detail_ratio


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
