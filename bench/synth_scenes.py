"""The clean timeline of a synthetic video: seeded scenes of real shots and procedural styles."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from bench.synth_procedural import STYLES, FrameFn, palette
from bench.synth_shots import Shot

SCENE_S = (4.0, 20.0)
PROCEDURAL_STYLES = ("shapes", "texture", "soft")
TONES = ("dark", "mid", "bright")
GRAIN_SIGMA = 2.0  # grey levels of sensor-like grain on procedural scenes


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
    draw = STYLES[scene.source](size, fps, rng, palette(rng, scene.params["tone"]))
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
