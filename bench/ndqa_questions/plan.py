"""The planned video an NDQA question is about, and its ground truth (trend, stability, grade)."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from bench.ndqa_questions.wording import category

SEGMENT_S = 15.0
# Weight of each level in the overall impairment (share of the video x weight).
LEVEL_WEIGHT = {1: 0.25, 2: 0.6, 3: 1.0}
GRADE_CUTS = (0.3, 0.7)  # impairment: <= 0.3 Good, <= 0.7 Fair, else Poor (0: Excellent)
GRADE_MARGIN = 0.03  # impairments this close to a cut get a yes/no question instead


@dataclass(frozen=True)
class Needle:
    """One planned distortion: table-S5 name, level 1-3, and its span in seconds."""

    distortion: str
    level: int
    start_s: float
    end_s: float

    @property
    def category(self) -> str:
        return category(self.distortion)


@dataclass
class VideoPlan:
    """One video: its level, pattern, duration, content seed and needles."""

    key: str
    level: str
    pattern: str
    duration_s: float
    seed: int
    needles: list[Needle] = field(default_factory=list)

    @property
    def path(self) -> str:
        return f"videos/{self.key}.mp4"

    @property
    def n_segments(self) -> int:
        return int(round(self.duration_s / SEGMENT_S))

    def segment(self, i: int) -> tuple[float, float]:
        return i * SEGMENT_S, (i + 1) * SEGMENT_S

    def clean_segments(self) -> list[int]:
        """Segments no needle touches."""
        return [i for i in range(self.n_segments)
                if not any(n.start_s < (i + 1) * SEGMENT_S and n.end_s > i * SEGMENT_S
                           for n in self.needles)]

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "level": self.level, "pattern": self.pattern,
                "duration_s": self.duration_s, "seed": self.seed, "path": self.path,
                "needles": [asdict(n) for n in self.needles]}


# ---------------------------------------------------------------- ground-truth facts


def impairment(p: VideoPlan) -> float:
    """0 (clean) .. 1: the share of the video under a needle, weighted by level."""
    return sum(LEVEL_WEIGHT[n.level] * (n.end_s - n.start_s) for n in p.needles) / p.duration_s


def grade(imp: float) -> str:
    """Overall grade from the impairment (Excellent only when clean)."""
    if imp <= 0:
        return "Excellent"
    return "Good" if imp <= GRADE_CUTS[0] else "Fair" if imp <= GRADE_CUTS[1] else "Poor"


def trend_of(p: VideoPlan) -> str | None:
    """improving | degrading | stable | fluctuating; None when no one word fits."""
    return {"degrading": "degrading", "improving": "improving", "stable": "stable",
            "clean": "stable", "fluctuating": "fluctuating"}.get(p.pattern)


def stability_of(p: VideoPlan) -> str:
    return {"clean": "stable", "stable": "stable", "dominant": "occasional",
            "fluctuating": "fluctuating"}.get(p.pattern, "drifting")


def dominant_of(p: VideoPlan) -> Needle | None:
    """The needle type with the largest level-weighted time (None for a clean video)."""
    load: Counter[str] = Counter()
    for n in p.needles:
        load[n.distortion] += LEVEL_WEIGHT[n.level] * (n.end_s - n.start_s)
    if not load:
        return None
    top = load.most_common(1)[0][0]
    return max((n for n in p.needles if n.distortion == top), key=lambda n: n.level)
