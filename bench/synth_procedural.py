"""Procedural scene styles of synthetic videos: shapes, textures and soft light, frame by frame."""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

FrameFn = Callable[[int], np.ndarray]


def palette(rng: np.random.Generator, tone: str, count: int = 4) -> np.ndarray:
    """``count`` BGR colours (float32, 0-255) of a random hue family at the scene's tone."""
    lo, hi = {"dark": (0.12, 0.35), "mid": (0.35, 0.7), "bright": (0.65, 0.95)}[tone]
    base = rng.uniform(0, 180)
    hsv = np.stack([
        (base + rng.normal(0, 25, count)) % 180,
        rng.uniform(0.15, 0.75, count) * 255,
        rng.uniform(lo, hi, count) * 255,
    ], axis=1).astype(np.float32)
    return cv2.cvtColor(hsv[None].astype(np.uint8), cv2.COLOR_HSV2BGR)[0].astype(np.float32)


def _fractal(h: int, w: int, rng: np.random.Generator, cell: float, octaves: int,
             persistence: float = 0.5) -> np.ndarray:
    """Multi-octave value noise in [0, 1]: smooth at ``cell`` px, finer detail per octave."""
    acc = np.zeros((h, w), np.float32)
    amp = 1.0
    for _ in range(octaves):
        grid = rng.random((max(2, math.ceil(h / cell) + 1), max(2, math.ceil(w / cell) + 1)))
        acc += amp * cv2.resize(grid.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        amp *= persistence
        cell = max(1.0, cell / 2)
    lo, hi = float(acc.min()), float(acc.max())
    return (acc - lo) / max(hi - lo, 1e-6)


def _gradient(h: int, w: int, c0: np.ndarray, c1: np.ndarray, angle: float) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = xx * math.cos(angle) + yy * math.sin(angle)
    t = (t - t.min()) / max(float(t.max() - t.min()), 1e-6)
    return c0 + (c1 - c0) * t[..., None]


def _to_u8(img: np.ndarray) -> np.ndarray:
    return np.clip(img, 0, 255).astype(np.uint8)


def _orbit(rng: np.random.Generator, centre: tuple[float, float], reach: tuple[float, float],
           period: tuple[float, float]) -> Callable[[float], tuple[float, float]]:
    """A smooth Lissajous path around ``centre``: position at time t, no jumps, bounded."""
    ax, ay = (rng.uniform(0.5, 1.0) * r for r in reach)
    wx, wy = (2 * math.pi / rng.uniform(*period) for _ in range(2))
    px, py = rng.uniform(0, 2 * math.pi, 2)

    def at(t: float) -> tuple[float, float]:
        return centre[0] + ax * math.sin(wx * t + px), centre[1] + ay * math.sin(wy * t + py)

    return at


def _ellipse(rng: np.random.Generator, centre: tuple[float, float], radii: tuple[float, float],
             speed: float) -> Callable[[float], tuple[float, float]]:
    """An elliptical path travelled at about ``speed`` px/s: it never stops (no freeze)."""
    rx, ry = radii
    w = speed / max(0.5 * (rx + ry), 1e-6) * (1 if rng.random() < 0.5 else -1)
    p = rng.uniform(0, 2 * math.pi)

    def at(t: float) -> tuple[float, float]:
        return centre[0] + rx * math.cos(w * t + p), centre[1] + ry * math.sin(w * t + p)

    return at


def _panning_canvas(canvas: np.ndarray, size: tuple[int, int], fps: float,
                    rng: np.random.Generator, spin_deg_s: float) -> FrameFn:
    """A camera gliding (and slowly turning) over a larger canvas, 0.5-1 % of height a frame."""
    width, height = size
    ch, cw = canvas.shape[:2]
    speed = rng.uniform(0.005, 0.01) * height * fps
    path = _ellipse(rng, (cw / 2, ch / 2), ((cw - width) * 0.45, (ch - height) * 0.45), speed)
    spin = rng.uniform(-spin_deg_s, spin_deg_s)

    def frame(k: int) -> np.ndarray:
        t = k / fps
        cx, cy = path(t)
        mat = cv2.getRotationMatrix2D((cx, cy), spin * t, 1.0)
        mat[:, 2] += (width / 2 - cx, height / 2 - cy)
        return cv2.warpAffine(canvas, mat, size, flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)

    return frame


def _texture_scene(size: tuple[int, int], fps: float, rng: np.random.Generator,
                   colours: np.ndarray) -> FrameFn:
    """A detailed natural-looking surface (clouds, terrain) panning and turning slowly."""
    width, height = size
    ch, cw = int(height * 1.5), int(width * 1.5)
    t = _fractal(ch, cw, rng, cell=height / 2, octaves=6, persistence=0.55)[..., None]
    c0, c1, c2 = colours[:3]
    img = np.where(t < 0.5, c0 + (c1 - c0) * (2 * t), c1 + (c2 - c1) * (2 * t - 1))
    detail = _fractal(ch, cw, rng, cell=max(2.0, height / 40), octaves=3) - 0.5
    img = img + rng.uniform(25, 50) * detail[..., None]
    return _panning_canvas(_to_u8(img), size, fps, rng, spin_deg_s=2.0)


def _unit_shape(rng: np.random.Generator) -> np.ndarray:
    """Vertices (k x 2, radius ~1) of a random polygon, star, ellipse or circle."""
    kind = rng.integers(0, 4)
    if kind == 0:  # regular polygon
        k = int(rng.integers(3, 7))
        ang = np.linspace(0, 2 * math.pi, k, endpoint=False)
        return np.stack([np.cos(ang), np.sin(ang)], axis=1)
    if kind == 1:  # star
        k = int(rng.integers(4, 7)) * 2
        ang = np.linspace(0, 2 * math.pi, k, endpoint=False)
        r = np.where(np.arange(k) % 2 == 0, 1.0, rng.uniform(0.4, 0.6))
        return np.stack([r * np.cos(ang), r * np.sin(ang)], axis=1)
    ang = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    squash = rng.uniform(0.45, 0.8) if kind == 2 else 1.0
    return np.stack([np.cos(ang), squash * np.sin(ang)], axis=1)


def _shapes_scene(size: tuple[int, int], fps: float, rng: np.random.Generator,
                  colours: np.ndarray) -> FrameFn:
    """Shapes gliding and turning over a textured gradient that pans slowly."""
    width, height = size
    ch, cw = int(height * 1.4), int(width * 1.4)
    bg = _gradient(ch, cw, colours[0], colours[1], rng.uniform(0, 2 * math.pi))
    bg = bg + 40 * (_fractal(ch, cw, rng, cell=height / 3, octaves=5) - 0.5)[..., None]
    bg = bg + 14 * (_fractal(ch, cw, rng, cell=max(2.0, height / 60), octaves=2) - 0.5)[..., None]
    background = _panning_canvas(_to_u8(bg), size, fps, rng, spin_deg_s=0.0)
    shapes = []
    for _ in range(int(rng.integers(4, 9))):
        colour = colours[int(rng.integers(0, len(colours)))] * rng.uniform(0.6, 1.4)
        colour = tuple(float(c) for c in np.clip(colour + rng.normal(0, 30, 3), 0, 255))
        path = _orbit(rng, (rng.uniform(0.15, 0.85) * width, rng.uniform(0.15, 0.85) * height),
                      (0.3 * width, 0.3 * height), (6.0, 20.0))
        shapes.append((_unit_shape(rng), rng.uniform(0.05, 0.16) * height, path,
                       rng.uniform(0, 360), rng.uniform(-60, 60), colour, rng.random() < 0.5))

    def frame(k: int) -> np.ndarray:
        t = k / fps
        out = background(k)
        for unit, radius, path, rot0, spin, colour, outline in shapes:
            a = math.radians(rot0 + spin * t)
            rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
            pts = unit @ rot.T * radius + np.array(path(t))
            poly = [np.rint(pts * 16).astype(np.int32)]  # 4 fractional bits: sub-pixel motion
            cv2.fillPoly(out, poly, colour, lineType=cv2.LINE_AA, shift=4)
            if outline:
                dark = tuple(c * 0.45 for c in colour)
                cv2.polylines(out, poly, True, dark, 2, lineType=cv2.LINE_AA, shift=4)
        return out

    return frame


def _soft_scene(size: tuple[int, int], fps: float, rng: np.random.Generator,
                colours: np.ndarray) -> FrameFn:
    """Out-of-focus light: soft discs drifting over a gradient (a soft but clean scene)."""
    width, height = size
    f = 6  # render at 1/6 size: the upscale is the softness
    sw, sh = max(8, width // f), max(8, height // f)
    bg = _to_u8(_gradient(sh, sw, colours[0], colours[1], rng.uniform(0, 2 * math.pi)))
    blobs = []
    for _ in range(int(rng.integers(8, 17))):
        colour = tuple(float(c) for c in np.clip(colours[int(rng.integers(0, len(colours)))]
                                                 * rng.uniform(0.8, 1.5), 0, 255))
        path = _ellipse(rng, (rng.uniform(0, sw), rng.uniform(0, sh)),
                        (rng.uniform(0.1, 0.3) * sw, rng.uniform(0.1, 0.3) * sh),
                        rng.uniform(0.01, 0.02) * sh * fps)
        blobs.append((path, rng.uniform(0.04, 0.18) * sh, colour))

    def frame(k: int) -> np.ndarray:
        t = k / fps
        small = bg.copy()
        for path, radius, colour in blobs:
            x, y = path(t)
            cv2.circle(small, (round(x * 16), round(y * 16)), max(16, round(radius * 16)),
                       colour, -1, lineType=cv2.LINE_AA, shift=4)
        small = cv2.GaussianBlur(small, (0, 0), 0.8)
        return cv2.resize(small, size, interpolation=cv2.INTER_CUBIC)

    return frame


STYLES = {"shapes": _shapes_scene, "texture": _texture_scene, "soft": _soft_scene}
