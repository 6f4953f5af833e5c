"""The spatial measurements in their fast forms give, to the bit, what the straightforward
float32 / int16 numpy forms give, on real decoded frames (and the same frames woven from two
moments, as interlacing leaves them, and smeared along one direction, as motion blur does)."""

from __future__ import annotations

import math
import subprocess

import cv2
import numpy as np
import pytest

from tools.ffmpeg import ffmpeg_exe
from tools.signals import COMB_STEP, anisotropy, combing


def _reference_anisotropy(gray: np.ndarray) -> float:
    """The float32 form: four full-frame filters, squared and averaged."""
    second = np.array([1, -2, 1], dtype=np.float32)
    diagonal = np.array([[1, 0, 0], [0, -2, 0], [0, 0, 1]], dtype=np.float32)
    g = gray.astype(np.float32)
    energy = []
    for kernel in (second[None, :], second[:, None], diagonal, diagonal[:, ::-1]):
        d = cv2.filter2D(g, cv2.CV_32F, np.ascontiguousarray(kernel))
        energy.append(float(cv2.mean(cv2.multiply(d, d))[0]) + 1e-3)
    return max(abs(math.log(energy[0] / energy[1])), abs(math.log(energy[2] / energy[3])))


def _reference_combing(gray: np.ndarray) -> float:
    """The int16 numpy form of the alternating-pair share."""
    g = gray.astype(np.int16)
    up, mid, down = g[:-2], g[1:-1], g[2:]
    a, b = mid - up, mid - down
    high = (a > COMB_STEP) & (b > COMB_STEP)
    low = (a < -COMB_STEP) & (b < -COMB_STEP)
    pairs = (high[:-1] & low[1:]) | (low[:-1] & high[1:])
    runs = pairs[:, 1:-1] & pairs[:, :-2] & pairs[:, 2:]
    return float(np.count_nonzero(runs)) / max(1, runs.size)


@pytest.fixture(scope="module")
def frames(make_clip) -> list[np.ndarray]:
    """Native grey frames of a video of real clips, plus woven and smeared versions."""
    path, _ = make_clip(8.0, seed=5, width=640, height=360)
    raw = subprocess.run([ffmpeg_exe(), "-v", "error", "-i", str(path), "-an", "-vf",
                          "format=gray", "-fps_mode", "passthrough", "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    video = np.frombuffer(raw, np.uint8).reshape(-1, 360, 640)
    out = []
    for i in range(0, len(video) - 3, 9):
        out.append(video[i])
        woven = video[i].copy()
        woven[1::2] = video[i + 3][1::2]  # the odd field three frames later
        out.append(woven)
        out.append(cv2.blur(video[i], (9, 1)))  # smeared along x
    odd = video[0][:181, :321]  # odd sizes: the borders count
    out += [odd, np.ascontiguousarray(odd[::-1]), np.zeros((5, 7), np.uint8)]
    return out


def test_anisotropy_matches_the_float32_form(frames) -> None:
    values = [anisotropy(g) for g in frames]
    assert values == [_reference_anisotropy(g) for g in frames]
    assert max(values) > 3 * np.median(values)  # the smeared frames stand out


def test_combing_matches_the_int16_form(frames) -> None:
    values = [combing(g) for g in frames]
    assert values == [_reference_combing(g) for g in frames]
    assert max(values[1::3]) > 10 * max(max(values[0::3]), 1e-6)  # woven frames have teeth
