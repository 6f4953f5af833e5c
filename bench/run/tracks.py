"""What every track shares: the track names, the frame budget, and the Prediction record.

- ``uniform`` (bench.run.uniform_track): a single pass over n frames sampled uniformly (at
  most 1 FPS), as in LongVQUBench; a model brain gets the frames and the appendix-B.2 prompt
  in one request (bench.uniform_model), the ``local`` brain reads their measurements with
  simple rules (bench.run.uniform_rules).
- ``agent`` (bench.run.agent_track): the LangGraph agent with the same brain, exploring the
  cached quality index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

TRACKS: tuple[str, ...] = ("uniform", "agent")
DEFAULT_FRAMES = 32
MAX_FPS = 1.0
MAX_SIDE = 640  # uniform frames are decoded with their longer side at most this


@dataclass
class Prediction:
    """What a track answered for one item, and what it cost."""

    response: str
    choice: str | None = None
    segments: list[dict[str, Any]] = field(default_factory=list)
    frames: list[float] = field(default_factory=list)  # frame times looked at (uniform)
    windows: list[list[float]] = field(default_factory=list)  # windows looked at (agent)
    steps: int = 1
    tokens: dict[str, int] | None = None
    latency_s: float = 0.0
    trace_id: str | None = None
    sent: dict[str, Any] | None = None  # uniform: {"mode": images|numbers, "frames", "size"}

    def as_dict(self) -> dict[str, Any]:
        """The prediction as a plain dict."""
        return asdict(self)


def check_track(track: str) -> str:
    """The track name, or a ValueError listing the valid ones."""
    t = (track or "").strip().lower()
    if t not in TRACKS:
        raise ValueError(f"unknown track {track!r}; valid tracks: {', '.join(TRACKS)}")
    return t


def sent_record(mode: str, n_frames: int, size: Sequence[int] | None) -> dict[str, Any]:
    """What a uniform answer was given: images or numbers, of how many frames, of what size."""
    return {"mode": mode, "frames": int(n_frames),
            "size": [int(size[0]), int(size[1])] if size else None}
