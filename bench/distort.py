"""LongVQUBench table S5 distortions: 14 spatial and 4 temporal, three intensity levels each.

Sizes in pixels (blur kernels, pixelation blocks, jitter displacement) are given at 1080p, as in
the table, and scaled by ``frame height / 1080`` so that a level looks equally severe at any
resolution; a small floor keeps level 1 from becoming a no-op on tiny test frames.

Spatial distortions map one BGR uint8 frame to another. Temporal ones are split so they can be
applied while streaming a long video frame by frame:

- ``temporal_source_map`` says which window-relative source frame each output frame shows
  (frame drop and stutter hold an earlier frame; ``map[i] <= i`` always: a display cannot show
  the future, so a streaming writer only ever needs frames it has already produced);
- ``apply_temporal_frame`` is the per-frame part (flicker's luminance swing, jitter's shift).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

REFERENCE_HEIGHT = 1080

SPATIAL = "spatial"
TEMPORAL = "temporal"


@dataclass(frozen=True)
class Distortion:
    """One row of table S5: its levels' intensities and the detector category it belongs to."""

    name: str
    kind: str  # "spatial" | "temporal"
    levels: tuple[float | None, ...]
    event_type: str
    doc: str  # what the intensity means


def _d(name: str, kind: str, levels: tuple, event_type: str, doc: str) -> Distortion:
    return Distortion(name, kind, tuple(levels), event_type, doc)


DISTORTIONS: dict[str, Distortion] = {
    d.name: d
    for d in (
        _d("brightness", SPATIAL, (30, 80, 150), "exposure",
           "grey levels (0-255) added to every channel, saturating"),
        _d("contrast", SPATIAL, (0.8, 0.4, 0.2), "exposure",
           "factor on the deviation from the frame's mean (1 = unchanged; mean kept)"),
        _d("defocus_blur", SPATIAL, (10, 25, 50), "blur",
           "radius in px at 1080p of a uniform disk (lens defocus) kernel"),
        _d("gaussian_blur", SPATIAL, (7, 21, 45), "blur",
           "kernel size in px at 1080p; sigma = 0.3*((k-1)/2-1)+0.8 (OpenCV's rule), scaled"),
        _d("gaussian_noise", SPATIAL, (15, 30, 80), "noise",
           "standard deviation in grey levels of additive per-pixel, per-channel noise"),
        _d("hue_shift", SPATIAL, (15, 60, 130), "colour",
           "rotation in degrees of the 360-degree hue circle"),
        _d("jpeg", SPATIAL, (30, 10, 3), "compression",
           "JPEG quality (lower is worse): encode and decode the frame"),
        _d("motion_blur", SPATIAL, (10, 25, 50), "blur",
           "length in px at 1080p of a horizontal line (camera pan) kernel"),
        _d("pixelation", SPATIAL, (10, 70, 130), "compression",
           "block edge in px at 1080p: area-average down, nearest-neighbour back up"),
        _d("poisson_noise", SPATIAL, (None,), "noise",
           "no intensity: shot noise at 0.25 photons per grey level (std ~2*sqrt(value))"),
        _d("salt_pepper", SPATIAL, (0.03, 0.10, 0.30), "noise",
           "fraction of pixels set to black or white (half each)"),
        _d("saturation", SPATIAL, (0.8, 2.0, 4.0), "colour",
           "factor on HSV saturation (<1 duller, >1 more vivid), saturating"),
        _d("sharpening", SPATIAL, (2.0, 6.0, 12.0), "sharpening",
           "unsharp-mask amount: x + a*(x - G(x)), G a Gaussian of sigma 3 px at 1080p"),
        _d("speckle_noise", SPATIAL, (0.1, 0.4, 0.8), "noise",
           "standard deviation of multiplicative noise: x * (1 + n)"),
        _d("flicker", TEMPORAL, (0.2, 0.7, 1.2), "flicker",
           "relative luminance swing of a ~10 Hz strobing light (1.2 = near black/white)"),
        _d("frame_drop", TEMPORAL, (0.1, 0.4, 0.7), "frame_drop",
           "probability that a frame is dropped (the display holds the last shown frame)"),
        _d("jitter", TEMPORAL, (5, 15, 30), "jitter",
           "maximum random per-frame displacement in px at 1080p (border replicated)"),
        _d("stutter", TEMPORAL, (5, 15, 25), "stutter",
           "frames one frame is shown for in each freeze; a freeze every 1-2 s"),
    )
}


def get(name: str) -> Distortion:
    """The registry entry for ``name``; a ValueError lists the valid names otherwise."""
    try:
        return DISTORTIONS[name]
    except KeyError:
        valid = ", ".join(sorted(DISTORTIONS))
        raise ValueError(f"unknown distortion {name!r}; valid names: {valid}") from None


def intensity(name: str, level: int) -> float | None:
    """Table S5 intensity of ``name`` at level 1..3 (None for poisson_noise, any level)."""
    d = get(name)
    if d.levels == (None,):
        return None
    if level not in (1, 2, 3):
        raise ValueError(f"level must be 1, 2 or 3, got {level!r}")
    return float(d.levels[level - 1])


def at_height(value_1080: float, height: int, floor: float) -> float:
    """A pixel size given at 1080p, scaled to a frame ``height`` px tall, at least ``floor``."""
    return max(float(value_1080) * height / REFERENCE_HEIGHT, floor)


# ----------------------------------------------------------------------------- spatial


def _lut(frame: np.ndarray, table: np.ndarray) -> np.ndarray:
    return cv2.LUT(frame, np.clip(np.rint(table), 0, 255).astype(np.uint8))


_RAMP = np.arange(256, dtype=np.float32)


def _brightness(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    return _lut(frame, _RAMP + x)


def _contrast(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    mean = float(frame.mean())
    return _lut(frame, mean + x * (_RAMP - mean))


def _disk_kernel(radius: float) -> np.ndarray:
    r = int(math.ceil(radius))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1].astype(np.float32)
    # Anti-aliased disk: coverage falls from 1 to 0 across the last pixel of the radius.
    k = np.clip(radius + 0.5 - np.sqrt(xx * xx + yy * yy), 0.0, 1.0)
    return k / k.sum()


def _defocus_blur(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    h, w = frame.shape[:2]
    radius = at_height(x, h, floor=1.0)
    # A wide disk keeps no fine detail: blur a reduced copy (radius <= 4 px, a kernel small
    # enough for OpenCV's direct path) and scale the result back up.
    factor = max(1.0, radius / 4.0)
    if factor == 1.0:
        return cv2.filter2D(frame, -1, _disk_kernel(radius), borderType=cv2.BORDER_REFLECT)
    small = cv2.resize(frame, (max(1, round(w / factor)), max(1, round(h / factor))),
                       interpolation=cv2.INTER_AREA)
    small = cv2.filter2D(small, -1, _disk_kernel(radius / factor), borderType=cv2.BORDER_REFLECT)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _gaussian_blur(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    sigma_1080 = 0.3 * ((x - 1) / 2 - 1) + 0.8
    sigma = at_height(sigma_1080, frame.shape[0], floor=0.5)
    return cv2.GaussianBlur(frame, (0, 0), sigma, borderType=cv2.BORDER_REFLECT)


def _randn(shape: tuple[int, ...], sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Normal float32 noise drawn by OpenCV (2-3x numpy's speed), seeded from ``rng``."""
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
    out = np.empty((math.prod(shape), 1), np.float32)  # one channel: randn's sigma is per channel
    cv2.randn(out, 0.0, float(sigma))
    return out.reshape(shape)


def _gaussian_noise(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    return cv2.add(frame, _randn(frame.shape, x, rng), dtype=cv2.CV_8U)


def _hsv_apply(frame: np.ndarray, fn: Callable[[np.ndarray], None]) -> np.ndarray:
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV_FULL)
    fn(hsv)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR_FULL)


def _hue_shift(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    # HSV_FULL hue spans 0..255 for 0..360 degrees; uint8 arithmetic wraps around the circle.
    step = np.uint8(round(x * 256.0 / 360.0) % 256)

    def shift(hsv: np.ndarray) -> None:
        hsv[..., 0] += step

    return _hsv_apply(frame, shift)


def _saturation(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    table = np.clip(np.rint(_RAMP * x), 0, 255).astype(np.uint8)

    def scale(hsv: np.ndarray) -> None:
        hsv[..., 1] = cv2.LUT(hsv[..., 1], table)

    return _hsv_apply(frame, scale)


def _jpeg(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(round(x))])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _motion_blur(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    length = at_height(x, frame.shape[0], floor=2.0)
    k = 2 * int(round(length / 2)) + 1  # odd, so the streak stays centred
    return cv2.blur(frame, (k, 1), borderType=cv2.BORDER_REFLECT)


def _pixelation(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    h, w = frame.shape[:2]
    block = at_height(x, h, floor=2.0)
    small = cv2.resize(frame, (max(1, round(w / block)), max(1, round(h / block))),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST)


POISSON_PHOTONS_PER_LEVEL = 0.25


def _poisson_noise(frame: np.ndarray, x: float | None, rng: np.random.Generator) -> np.ndarray:
    # Shot noise: value v carries v*k photons, so its std is sqrt(v/k) grey levels. Drawn with
    # the normal approximation of the Poisson law (20x faster than numpy's sampler).
    v = frame.astype(np.float32)
    std = cv2.sqrt(v * np.float32(1.0 / POISSON_PHOTONS_PER_LEVEL))
    return cv2.add(v, _randn(frame.shape, 1.0, rng) * std, dtype=cv2.CV_8U)


def _salt_pepper(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    u = rng.random(frame.shape[:2], dtype=np.float32)
    out = frame.copy()
    out[u < x / 2] = 0
    out[(u >= x / 2) & (u < x)] = 255
    return out


def _sharpening(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    sigma = at_height(3.0, frame.shape[0], floor=0.8)
    blurred = cv2.GaussianBlur(frame, (0, 0), sigma, borderType=cv2.BORDER_REFLECT)
    # addWeighted saturates to uint8: (1 + a) * x - a * G(x).
    return cv2.addWeighted(frame, 1.0 + x, blurred, -x, 0.0)


def _speckle_noise(frame: np.ndarray, x: float, rng: np.random.Generator) -> np.ndarray:
    gain = _randn(frame.shape, x, rng)
    gain += 1.0
    return cv2.multiply(frame, gain, dtype=cv2.CV_8U)


_SPATIAL_FNS: dict[str, Callable[[np.ndarray, float, np.random.Generator], np.ndarray]] = {
    "brightness": _brightness,
    "contrast": _contrast,
    "defocus_blur": _defocus_blur,
    "gaussian_blur": _gaussian_blur,
    "gaussian_noise": _gaussian_noise,
    "hue_shift": _hue_shift,
    "jpeg": _jpeg,
    "motion_blur": _motion_blur,
    "pixelation": _pixelation,
    "poisson_noise": _poisson_noise,
    "salt_pepper": _salt_pepper,
    "saturation": _saturation,
    "sharpening": _sharpening,
    "speckle_noise": _speckle_noise,
}


def _check_frame(frame: np.ndarray) -> None:
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"expected a uint8 HxWx3 BGR frame, got {frame.dtype} {frame.shape}")


def _check_kind(name: str, kind: str) -> Distortion:
    d = get(name)
    if d.kind != kind:
        names = ", ".join(sorted(n for n, e in DISTORTIONS.items() if e.kind == kind))
        raise ValueError(f"{name!r} is a {d.kind} distortion; {kind} ones are: {names}")
    return d


def apply_spatial(
    name: str, frame_bgr: np.ndarray, intensity: float | None, rng: np.random.Generator
) -> np.ndarray:
    """Apply spatial distortion ``name`` at ``intensity`` to one BGR frame; returns a new frame."""
    d = _check_kind(name, SPATIAL)
    _check_frame(frame_bgr)
    if intensity is None and d.levels != (None,):
        raise ValueError(f"{name!r} needs an intensity (table S5 levels: {d.levels})")
    return _SPATIAL_FNS[name](frame_bgr, intensity, rng)


# ----------------------------------------------------------------------------- temporal

FLICKER_HZ = 10.0  # 50 Hz mains light (100 Hz) aliased by a 30 fps camera beats at 10 Hz


def _frame_drop_map(n: int, p: float, fps: float, rng: np.random.Generator) -> np.ndarray:
    """Each frame after the first is dropped with probability p; the last shown frame holds."""
    shown = rng.random(n) >= p
    if n:
        shown[0] = True
    idx = np.where(shown, np.arange(n), 0)
    return np.maximum.accumulate(idx)


def _stutter_map(n: int, length: float, fps: float, rng: np.random.Generator) -> np.ndarray:
    """Freezes of ``length`` frames every 1-2 s of playback; after one, playback catches up."""
    out = np.arange(n)
    hold = max(2, int(round(length)))
    t = int(rng.integers(0, max(1, round(0.5 * fps))))  # first freeze within half a second
    while t < n:
        out[t : t + hold] = t
        t += hold + max(1, int(round(rng.uniform(1.0, 2.0) * fps)))
    return out


def temporal_source_map(
    name: str, n_frames: int, intensity: float, fps: float, rng: np.random.Generator
) -> np.ndarray:
    """For each output frame i of a window, the window-relative source frame it shows (<= i).

    Identity for flicker and jitter (their effect is per frame); frame_drop and stutter hold
    earlier frames, so ``map[i] <= i`` and the map never decreases.
    """
    _check_kind(name, TEMPORAL)
    if n_frames < 0:
        raise ValueError(f"n_frames must be >= 0, got {n_frames}")
    if name == "frame_drop":
        return _frame_drop_map(n_frames, float(intensity), fps, rng)
    if name == "stutter":
        return _stutter_map(n_frames, float(intensity), fps, rng)
    return np.arange(n_frames)


def _flicker_phase(i: int, fps: float, rng: np.random.Generator) -> float:
    """Signed strobe phase in [-1, 1] of window frame i: a ~10 Hz square wave, random depth."""
    hz = min(FLICKER_HZ, 0.4 * fps)  # keep it below Nyquist so it reads as rapid strobing
    phase = 1.0 if math.cos(2.0 * math.pi * hz * i / fps) >= 0 else -1.0
    return phase * float(rng.uniform(0.6, 1.0))


def _flicker(frame: np.ndarray, i: int, fps: float, x: float, rng: np.random.Generator):
    w = _flicker_phase(i, fps, rng)
    # Swing proportional to (value + 128) / 2 so dark scenes flicker visibly too.
    return _lut(frame, _RAMP + x * w * (_RAMP + 128.0) / 2.0)


def _jitter(frame: np.ndarray, i: int, fps: float, x: float, rng: np.random.Generator):
    h, w = frame.shape[:2]
    amp = int(round(at_height(x, h, floor=1.0)))
    dx, dy = (int(v) for v in rng.integers(-amp, amp + 1, size=2))
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(frame, m, (w, h), flags=cv2.INTER_NEAREST,
                          borderMode=cv2.BORDER_REPLICATE)


def apply_temporal_frame(
    name: str, frame: np.ndarray, i: int, fps: float, intensity: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """Per-frame part of temporal distortion ``name`` for window frame i (no-op for drop/stutter).

    flicker: rapid luminance strobing; jitter: random integer shift, borders replicated.
    """
    _check_kind(name, TEMPORAL)
    _check_frame(frame)
    if name == "flicker":
        return _flicker(frame, i, fps, float(intensity), rng)
    if name == "jitter":
        return _jitter(frame, i, fps, float(intensity), rng)
    return frame
