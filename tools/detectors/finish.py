"""The last filter on the detectors' events: brief mild deviations are what content does."""

from __future__ import annotations

from tools.model import Event

# A deviation that lasts less than SHORT_S must be clearly visible (SHORT_SEVERITY) to count:
# brief mild swings are what content does (a cloud, a pan, a face turning), while a
# degradation is either persistent or strong. Repeated frames are exact and exempt.
SHORT_S = 6.0
SHORT_SEVERITY = 0.5
EXACT_TYPES = ("frame_drop", "stutter")
# Pieces of one type this close (seconds) count as one span (a degradation split at cuts).
CHAIN_GAP_S = 2.0


def convincing(events: list[Event], gap_s: float = CHAIN_GAP_S) -> list[Event]:
    """Drop brief mild events. Pieces of one type that follow each other within `gap_s` (a
    degradation split at cuts) count as one span."""
    keep = []
    for kind in {e.type for e in events}:
        same = sorted((e for e in events if e.type == kind), key=lambda e: e.start_s)
        if kind in EXACT_TYPES:
            keep.extend(same)
            continue
        chains: list[list[Event]] = []
        for e in same:
            if chains and e.start_s - max(x.end_s for x in chains[-1]) <= gap_s:
                chains[-1].append(e)
            else:
                chains.append([e])
        for chain in chains:
            span = max(x.end_s for x in chain) - chain[0].start_s
            keep.extend(e for e in chain if span >= SHORT_S or
                        float(e.evidence.get("strength", e.severity)) >= SHORT_SEVERITY)
    return keep


def finish(events: list[Event]) -> list[Event]:
    """The convincing events, sorted by start time (then type)."""
    return sorted(convincing(events), key=lambda e: (e.start_s, e.type))
