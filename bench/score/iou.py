"""Temporal IoU of predicted against gold time spans (unions of spans, in seconds)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bench.items import Span

# ---------------------------------------------------------------- temporal IoU

SpanLike = Span | Sequence[float] | Mapping[str, Any]


def _bounds(span: SpanLike) -> tuple[float, float]:
    if isinstance(span, Span):
        return span.start_s, span.end_s
    if isinstance(span, Mapping):
        return float(span.get("start_s", span.get("start"))), float(
            span.get("end_s", span.get("end"))
        )
    start, end = span[0], span[1]
    return float(start), float(end)


def merge_spans(spans: Iterable[SpanLike]) -> list[tuple[float, float]]:
    """Sorted, non-overlapping union of spans; empty and reversed spans are dropped."""
    ivs = sorted(b for b in map(_bounds, spans) if b[1] > b[0])
    merged: list[tuple[float, float]] = []
    for s, e in ivs:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def _length(ivs: Sequence[tuple[float, float]]) -> float:
    return math.fsum(e - s for s, e in ivs)


def temporal_iou(pred: Iterable[SpanLike], gold: Iterable[SpanLike]) -> float:
    """IoU of the union of predicted spans with the union of gold spans, in [0, 1].

    Both empty scores 1.0 (both say "nothing there"); exactly one empty scores 0.0.
    """
    p, g = merge_spans(pred), merge_spans(gold)
    if not p and not g:
        return 1.0
    inter = 0.0
    i = j = 0
    while i < len(p) and j < len(g):
        lo, hi = max(p[i][0], g[j][0]), min(p[i][1], g[j][1])
        inter += max(0.0, hi - lo)
        if p[i][1] < g[j][1]:
            i += 1
        else:
            j += 1
    union = _length(p) + _length(g) - inter
    return inter / union if union > 0 else 0.0


