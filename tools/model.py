"""Plain data records shared by every part of the index: facts, scenes, events."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# Event types the detectors emit (LongVQUBench distortion pool, grouped as a viewer sees them).
EVENT_TYPES: tuple[str, ...] = (
    "blur",
    "noise",
    "compression",
    "exposure",
    "colour",
    "sharpening",
    "flicker",
    "frame_drop",
    "stutter",
    "jitter",
    "freeze",
    "corruption",
    "interlace",
)


@dataclass(frozen=True)
class VideoInfo:
    """Facts about a video file, read from its container and stream headers."""

    path: str
    duration_s: float
    fps: float
    n_frames: int
    width: int
    height: int
    codec: str
    vfr: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Scene:
    """One shot: [start_s, end_s) with its first and last frame numbers."""

    start_s: float
    end_s: float
    start_frame: int
    end_frame: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Event:
    """A quality anomaly found on the timeline.

    `severity` is 0..1 (how bad it looks), `score` the detector's own statistic (how far from
    the scene baseline, in robust z units), `evidence` the numbers behind it.
    """

    type: str
    start_s: float
    end_s: float
    severity: float
    score: float
    subtype: str = ""
    evidence: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
