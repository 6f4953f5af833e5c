"""The answer of one run, as `--json` prints it, and as a person reads it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field, field_validator, model_validator

from agent.timefmt import hms


class Segment(BaseModel):
    """A time span the answer points at, with what is there and how bad (0..1)."""

    start_s: float = Field(ge=0, description="Start in seconds.")
    end_s: float = Field(ge=0, description="End in seconds.")
    label: str = Field(default="", description="What is there, e.g. 'flicker'.")
    severity: float = Field(default=0.0, ge=0, le=1, description="0 (none) .. 1 (severe).")

    @model_validator(mode="after")
    def _ordered(self) -> Segment:
        if self.end_s < self.start_s:
            self.start_s, self.end_s = self.end_s, self.start_s
        return self


class Answer(BaseModel):
    """What the agent answers: text, option letter, time segments, confidence, evidence."""

    answer: str
    choice: str | None = None
    segments: list[Segment] = Field(default_factory=list)
    confidence: float = Field(default=0.5, ge=0, le=1)
    evidence: list[dict[str, Any]] = Field(default_factory=list)
    trace_id: str = ""
    brain: str = ""
    steps: int = 0
    elapsed_s: float = 0.0

    @field_validator("choice")
    @classmethod
    def _letter(cls, v: str | None) -> str | None:
        if v is None:
            return None
        v = v.strip().upper().rstrip(".):")
        if not v or v in ("NONE", "NULL"):
            return None
        if len(v) != 1 or not "A" <= v <= "Z":
            raise ValueError(f"choice must be an option letter, got {v!r}")
        return v


def clamp_segments(segments: Sequence[Segment], duration_s: float) -> list[Segment]:
    """Segments clipped to the video; empty ones dropped; sorted by start."""
    out = []
    for s in segments:
        a, b = max(0.0, min(s.start_s, duration_s)), max(0.0, min(s.end_s, duration_s))
        if b > a or (duration_s == 0 and b == a):
            out.append(s.model_copy(update={"start_s": round(a, 3), "end_s": round(b, 3)}))
    return sorted(out, key=lambda s: s.start_s)


def render(ans: Answer, options: Sequence[str] = ()) -> str:
    """A readable answer: the text, the chosen option, the time segments, the evidence."""
    lines = [ans.answer.strip()]
    if ans.choice:
        i = ord(ans.choice) - ord("A")
        text = options[i] if 0 <= i < len(options) else ""
        lines.append(f"Choice: {ans.choice}" + (f". {text}" if text else ""))
    if ans.segments:
        lines.append("Segments:")
        for s in ans.segments:
            label = f"  {s.label}" if s.label else ""
            lines.append(f"  {hms(s.start_s)} - {hms(s.end_s)}{label}  (severity {s.severity:.2f})")
    if ans.evidence:
        lines.append("Evidence:")
        for ev in ans.evidence[:8]:
            lines.append(f"  - {ev.get('tool', '?')}: {ev.get('finding', '')}")
    lines.append(
        f"Confidence {ans.confidence:.2f} | brain {ans.brain} | {ans.steps} steps | "
        f"{ans.elapsed_s:.2f} s | trace {ans.trace_id}"
    )
    return "\n".join(lines)
