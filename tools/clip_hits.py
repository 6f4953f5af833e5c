"""CLIP search results: frames matching a query, and neighbouring hits merged into spans."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Hit:
    """One sampled frame matching a query: its time and cosine similarity."""

    time_s: float
    score: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Span:
    """Neighbouring hits merged: [start_s, end_s], best score and the time it was reached."""

    start_s: float
    end_s: float
    score: float
    peak_s: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def merge_spans(hits: Sequence[Hit], gap_s: float, pad_s: float = 0.0) -> list[Span]:
    """Merge hits no more than gap_s apart into spans (padded by pad_s), best score first."""
    spans: list[Span] = []
    group: list[Hit] = []
    for hit in sorted(hits, key=lambda h: h.time_s):
        if group and hit.time_s - group[-1].time_s > gap_s:
            spans.append(_span_of(group, pad_s))
            group = []
        group.append(hit)
    if group:
        spans.append(_span_of(group, pad_s))
    return sorted(spans, key=lambda s: (-s.score, s.start_s))


def _span_of(group: Sequence[Hit], pad_s: float) -> Span:
    peak = max(group, key=lambda h: h.score)
    start = max(0.0, group[0].time_s - pad_s)
    return Span(start, group[-1].time_s + pad_s, peak.score, peak.time_s)
