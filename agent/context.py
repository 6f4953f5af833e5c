"""Run settings of one question: the video, the options, the budget. Settings, not state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent.trace import TraceRecorder


@dataclass
class RunContext:
    """What every node and brain may read during a run (never changed by the graph).

    `vision` is set by brains that can look at images: zoom_in then attaches its frames.
    """

    video: str
    duration_s: float
    question: str = ""
    options: list[str] = field(default_factory=list)
    max_steps: int = 12
    vision: bool = False
    trace: TraceRecorder | None = None

    @property
    def letters(self) -> list[str]:
        """Option letters A, B, C... for the options given."""
        return [chr(ord("A") + i) for i in range(len(self.options))]
