"""How a benchmark run answers its items: track, brain and their settings."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from bench.run.tracks import DEFAULT_FRAMES, MAX_FPS, check_track

RESULT_VERSION = 1


def _numbers_asked() -> bool:
    """Whether $LVQ_UNIFORM_NUMBERS asks for the measured-numbers uniform variant."""
    return os.environ.get("LVQ_UNIFORM_NUMBERS", "").strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class RunConfig:
    """How items are answered: track, brain and their settings."""

    track: str
    brain: str = "local"
    frames: int = DEFAULT_FRAMES
    max_fps: float = MAX_FPS
    max_steps: int = 12
    workers: int = 1
    cache_dir: str | None = None
    video_dir: str | None = None
    model: str | None = None
    base_url: str | None = None
    judge_model: str | None = None
    open_scoring: bool = True
    fsync: bool = False
    # uniform + openai: send the frames' measurements, not the frames (only when asked)
    uniform_numbers: bool = field(default_factory=_numbers_asked)

    def check(self) -> RunConfig:
        """The config itself, or a ValueError naming the bad setting."""
        check_track(self.track)
        if self.brain not in ("local", "openai"):
            raise ValueError(f"unknown brain {self.brain!r}; valid brains: local, openai")
        if self.frames < 1 or self.workers < 1 or self.max_steps < 1:
            raise ValueError("--frames, --workers and --max-steps must be at least 1")
        return self

    @property
    def label(self) -> str:
        """track/brain, as tables name a run."""
        return f"{self.track}/{self.brain}"

    @property
    def sends(self) -> str | None:
        """What a uniform answer is given: "images" or "numbers" (None on the agent track)."""
        if self.track != "uniform":
            return None
        return "images" if self.brain == "openai" and not self.uniform_numbers else "numbers"
