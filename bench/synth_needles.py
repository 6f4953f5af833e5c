"""Needles of a synthetic video: inserted distortions with exact spans, streamed onto frames."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from bench import distort


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


def frame_span(nd: Needle, fps: float, n_frames: int) -> tuple[int, int]:
    """Frames [a, b) whose time i/fps lies in [start_s, end_s), clamped to the video."""
    a = math.ceil(nd.start_s * fps - 1e-9)
    b = math.ceil(nd.end_s * fps - 1e-9)
    return min(a, n_frames), min(b, n_frames)


@dataclass
class NeedleWindow:
    """One needle in frames: its kind, frames [start, end), random stream and source map."""

    needle: Needle
    kind: str
    start: int
    end: int
    rng: np.random.Generator
    source: np.ndarray | None  # absolute source frame of each window frame (temporal only)


def needle_windows(needles: Sequence[Needle], fps: float, n_frames: int,
                   seed: int) -> list[NeedleWindow]:
    """Each needle's window, seeded per needle; ValueError when temporal needles overlap."""
    wins = []
    for k, nd in enumerate(needles):
        kind = distort.get(nd.distortion).kind
        a, b = frame_span(nd, fps, n_frames)
        rng = np.random.default_rng([seed, 7919, k])
        src = None
        if kind == distort.TEMPORAL:
            src = a + distort.temporal_source_map(nd.distortion, b - a, nd.intensity, fps, rng)
        wins.append(NeedleWindow(nd, kind, a, b, rng, src))
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
    wins = needle_windows(needles, fps, n_frames, seed)
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
