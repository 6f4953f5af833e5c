"""Per-frame quality measurements, vectorised: temporal ones on tiny frames, spatial on native ones.

Temporal signals (every frame, small grey image): mean luminance, contrast, frame-to-frame
difference, global motion from integral projections. Spatial signals (a few frames a second,
native resolution so the 8x8 coding grid and fine detail survive): sharpness, noise, impulse
noise, blockiness, halo (over-sharpening), clipping; colour from the small colour frame.
"""

from __future__ import annotations

import cv2
import numpy as np

# Names of the per-frame (temporal) columns and the per-sample (spatial) columns.
FRAME_SIGNALS: tuple[str, ...] = (
    "luma", "contrast", "diff", "corr", "motion_x", "motion_y", "motion_conf"
)
SAMPLE_SIGNALS: tuple[str, ...] = (
    "sharpness",
    "noise",
    "impulse",
    "blockiness",
    "grid",
    "halo",
    "black",
    "white",
    "contrast_range",
    "saturation",
    "hue_x",
    "hue_y",
)

_IMMERKAER_I = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], dtype=np.float32)


def _phase_motion(g: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Global translation of each frame against the previous one (phase correlation), with the
    correlation peak's strength; robust to objects moving on their own. Shape (N, 3)."""
    h, w = g.shape[1:]
    win = _hanning(w, h)
    out = np.empty((len(g), 3), dtype=np.float32)
    prev = first
    for i in range(len(g)):
        (dx, dy), resp = cv2.phaseCorrelate(prev, g[i], win)
        out[i] = (dx, dy, resp)
        prev = g[i]
    return out


_WINDOWS: dict[tuple[int, int], np.ndarray] = {}


def _hanning(w: int, h: int) -> np.ndarray:
    if (w, h) not in _WINDOWS:
        _WINDOWS[(w, h)] = cv2.createHanningWindow((w, h), cv2.CV_32F)
    return _WINDOWS[(w, h)]


def temporal_signals(gray: np.ndarray, prev: np.ndarray | None) -> dict[str, np.ndarray]:
    """Measure a chunk of consecutive small grey frames (N,H,W uint8); `prev` is the frame before.

    diff is the mean absolute difference to the previous frame (0 for a repeated frame); corr
    the correlation of the two frames' normalised pixels (1 = same structure);
    motion_x/y the global translation (in small-frame pixels) by phase correlation and
    motion_conf the strength of its peak (low when there is no single global motion).
    """
    g = gray.astype(np.float32)
    luma = g.mean(axis=(1, 2))
    contrast = g.std(axis=(1, 2))
    first = (prev if prev is not None else gray[0]).astype(np.float32)
    before = np.concatenate([first[None], g[:-1]])
    diff = np.abs(g - before).mean(axis=(1, 2))
    # Structural similarity to the previous frame, blind to brightness and contrast changes:
    # a cut breaks it, a tone change (exposure, colour, flicker) does not.
    za = (g - luma[:, None, None]) / np.maximum(contrast, 1e-3)[:, None, None]
    bm, bs = before.mean(axis=(1, 2)), before.std(axis=(1, 2))
    zb = (before - bm[:, None, None]) / np.maximum(bs, 1e-3)[:, None, None]
    corr = (za * zb).mean(axis=(1, 2))
    motion = _phase_motion(g, first)
    mx, my, mr = motion[:, 0], motion[:, 1], motion[:, 2]
    if prev is None:
        diff[0], corr[0], mx[0], my[0], mr[0] = np.nan, 1.0, 0.0, 0.0, 1.0
    return {
        "luma": luma.astype(np.float32),
        "contrast": contrast.astype(np.float32),
        "diff": diff.astype(np.float32),
        "corr": corr.astype(np.float32),
        "motion_x": mx,
        "motion_y": my,
        "motion_conf": mr,
    }


def sharpness(gray: np.ndarray) -> float:
    """Variance of the Laplacian: high for crisp detail, falls with any kind of blur."""
    _, std = cv2.meanStdDev(cv2.Laplacian(gray, cv2.CV_16S, ksize=3))
    return float(std[0, 0] ** 2)


def noise_sigma(gray: np.ndarray) -> float:
    """Immerkaer's noise estimate on the flatter half of the picture (edges excluded)."""
    resp = cv2.convertScaleAbs(cv2.filter2D(gray, cv2.CV_16S, _IMMERKAER_I))
    local = cv2.blur(resp, (7, 7))
    cut = float(np.median(local[::4, ::4]))
    mask = cv2.compare(local, cut, cv2.CMP_LE)
    return float(np.sqrt(np.pi / 2.0) * cv2.mean(resp, mask=mask)[0] / 6.0)


def impulse_fraction(gray: np.ndarray) -> float:
    """Share of isolated outlier pixels (salt-and-pepper): far from their 3x3 median."""
    med = cv2.medianBlur(gray, 3)
    return float((cv2.absdiff(gray, med) > 60).mean())


def _grid_ratio(profile: np.ndarray, period: int) -> tuple[float, int]:
    """How much stronger the gradient is on one phase of a `period` grid than on the rest."""
    n = (len(profile) // period) * period
    if n < 4 * period:
        return 1.0, 0
    phase = profile[:n].reshape(-1, period).mean(axis=0)
    best = int(np.argmax(phase))
    rest = np.delete(phase, best).mean()
    return float(phase[best] / max(rest, 1e-6)), best


def blockiness(gray: np.ndarray) -> tuple[float, float]:
    """(8x8 grid discontinuity, strongest other grid period's ratio): 1.0 means no blocks.

    The first is the classic coding-block measure on the native grid; the second catches
    pixelation whose blocks are larger than 8 pixels.
    """
    dx = cv2.reduce(cv2.absdiff(gray[:, 1:], gray[:, :-1]), 0, cv2.REDUCE_AVG, dtype=cv2.CV_32F)[0]
    dy = cv2.reduce(cv2.absdiff(gray[1:], gray[:-1]), 1, cv2.REDUCE_AVG, dtype=cv2.CV_32F)[:, 0]
    # Diffs between column 7|8 sit at index 7, 15, ...: phase 7 of an 8-grid.
    px8 = dx[: (len(dx) // 8) * 8].reshape(-1, 8).mean(axis=0)
    py8 = dy[: (len(dy) // 8) * 8].reshape(-1, 8).mean(axis=0)
    b8 = 0.5 * (px8[7] / max(np.delete(px8, 7).mean(), 1e-6)) + 0.5 * (
        py8[7] / max(np.delete(py8, 7).mean(), 1e-6)
    )
    scale = max(1, gray.shape[0] // 90)
    best = 1.0
    for period in range(3 * scale, 40 * scale, scale):
        rx, _ = _grid_ratio(dx, period)
        ry, _ = _grid_ratio(dy, period)
        best = max(best, min(rx, ry))
    return float(b8), float(best)


def halo(gray: np.ndarray) -> float:
    """Ringing/overshoot next to strong edges, as over-sharpening leaves (unsharp-mask halos)."""
    smooth = cv2.blur(gray, (5, 5))
    detail = cv2.absdiff(gray, smooth)
    grad = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    cut = max(24.0, float(np.percentile(grad[::4, ::4], 90)))
    mask = cv2.compare(grad, cut, cv2.CMP_GT)
    return float(cv2.mean(detail, mask=mask)[0]) if cv2.countNonZero(mask) else float("nan")


def colour(bgr_small: np.ndarray) -> tuple[float, float, float]:
    """(mean saturation 0..255, hue vector x, hue vector y) weighted by saturation."""
    hsv = cv2.cvtColor(bgr_small, cv2.COLOR_BGR2HSV_FULL)
    h = hsv[..., 0].astype(np.float32) * (2 * np.pi / 256.0)
    s = hsv[..., 1].astype(np.float32)
    w = s / 255.0
    return float(s.mean()), float((w * np.cos(h)).mean()), float((w * np.sin(h)).mean())


def spatial_signals(gray: np.ndarray) -> dict[str, float]:
    """Detail measurements of one native-resolution grey frame."""
    b8, grid = blockiness(gray)
    return {
        "sharpness": sharpness(gray),
        "noise": noise_sigma(gray),
        "impulse": impulse_fraction(gray),
        "blockiness": b8,
        "grid": grid,
        "halo": halo(gray),
    }


def colour_signals(bgr_small: np.ndarray) -> dict[str, float]:
    """Tone and colour of one small BGR frame: black/white points, range, saturation, hue."""
    small_gray = cv2.cvtColor(bgr_small, cv2.COLOR_BGR2GRAY)
    p1, p99 = np.percentile(small_gray[::2, ::2], [1, 99])
    sat, hx, hy = colour(bgr_small)
    return {
        "black": float(p1),
        "white": float(p99),
        "contrast_range": float(p99 - p1),
        "saturation": sat,
        "hue_x": hx,
        "hue_y": hy,
    }
