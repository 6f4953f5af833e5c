"""The last word on every event: inside the video, not twice, and above its clean-footage gate."""

from __future__ import annotations

from dataclasses import replace

from tools.detectors.calibration import gate
from tools.detectors.twin_events import TWIN_BACKED, judged_by_twins
from tools.model import Event


def clipped(events: list[Event], duration_s: float | None) -> list[Event]:
    """Events cut to [0, duration]; those left empty dropped."""
    if duration_s is None:
        return list(events)
    out = []
    for e in events:
        a, b = max(0.0, e.start_s), min(float(duration_s), e.end_s)
        if b > a:
            out.append(e if (a, b) == (e.start_s, e.end_s) else
                       replace(e, start_s=round(a, 2), end_s=round(b, 2)))
    return out


def deduplicated(events: list[Event]) -> list[Event]:
    """One event per type and subtype over a stretch: of two that overlap by most of the
    shorter one, the stronger stays (stretched over both)."""
    out: list[Event] = []
    for e in sorted(events, key=lambda e: (-e.severity, e.start_s)):
        for i, k in enumerate(out):
            if (k.type, k.subtype) != (e.type, e.subtype):
                continue
            inter = min(k.end_s, e.end_s) - max(k.start_s, e.start_s)
            if inter >= 0.5 * min(k.end_s - k.start_s, e.end_s - e.start_s):
                out[i] = replace(k, start_s=min(k.start_s, e.start_s), end_s=max(k.end_s, e.end_s))
                break
        else:
            out.append(e)
    return out


# Pieces of one condition (blur, noise, a colour change...) a brief dip splits: of the same
# type and subtype, this close, they are one event. Discrete events that users count
# (freezes, stutters, frame drops, damage, drops to black: a type or "type/subtype") stay apart.
JOIN_GAP_S = 3.0
COUNTED = frozenset({"freeze", "stutter", "frame_drop", "corruption", "exposure/black frames"})


def joined_pieces(events: list[Event]) -> list[Event]:
    """Events of one type and subtype at most JOIN_GAP_S apart joined into one (the
    stronger's severity and evidence, the span of both)."""
    out: list[Event] = []
    last: dict[tuple[str, str], int] = {}  # (type, subtype) -> index in out of its latest
    for e in sorted(events, key=lambda e: e.start_s):
        i = last.get((e.type, e.subtype))
        counted = e.type in COUNTED or f"{e.type}/{e.subtype}" in COUNTED
        if i is not None and not counted and e.start_s - out[i].end_s <= JOIN_GAP_S:
            prev = out[i]
            keep = prev if prev.severity >= e.severity else e
            out[i] = replace(keep, start_s=prev.start_s, end_s=max(prev.end_s, e.end_s))
        else:
            last[(e.type, e.subtype)] = len(out)
            out.append(e)
    return out


def gated(events: list[Event]) -> list[Event]:
    """Events stronger than anything their detector found on clean calibration footage.
    Stretches judged against the same picture elsewhere, and the detectors' events such a
    stretch overlaps, pass: the twins' own limits were set on the clean footage's replays
    (tools/detectors/twin_events.py), and a gate set from the scene-relative detectors' clean
    events says nothing of them."""
    return [e for e in events if judged_by_twins(e) or e.evidence.get(TWIN_BACKED)
            or e.severity >= gate(e.type, e.subtype, e.end_s - e.start_s)]
