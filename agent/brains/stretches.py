"""Distinct degraded stretches from raw detector events, as a viewer would count them.

Detectors report pieces: one degradation split in several events, a short spike where a
scene's content trips a detector, a second detector firing on the same frames (noise shaking
the motion estimate), or a weaker detector taking over exactly where a strong event ends.
A viewer sees one stretch of degraded picture for each. Used by the local brain to count
events, total their time, list their types and order them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

MERGE_GAP_S = 5.0  # pieces of one type closer than this are one event
HANDOFF_GAP_S = 1.0  # a weaker, shorter event of another type this close to an edge spills over
# Events shorter than this are "brief candidates": a scene's content can trip a detector for a
# moment, a real degradation lasts. Temporal artifacts (a strobe, a freeze) can be short, and
# decoder damage often lasts only until the next keyframe, a drop to black is a fault however
# brief ("type" or "type/subtype").
BRIEF_S: dict[str, float] = {"flicker": 1.0, "frame_drop": 1.0, "stutter": 1.0, "freeze": 1.0,
                             "corruption": 0.5, "exposure/black frames": 0.0}
BRIEF_DEFAULT_S = 3.0

Ev = dict[str, Any]


def brief_limit(etype: str, subtype: str | None = None) -> float:
    """The shortest duration (s) an event of this type (and subtype) must have to count as
    lasting."""
    return BRIEF_S.get(f"{etype}/{subtype or ''}", BRIEF_S.get(etype, BRIEF_DEFAULT_S))


def merge_pieces(evs: Sequence[Ev], gap_s: float = MERGE_GAP_S) -> list[Ev]:
    """Events of one type closer than gap_s joined into one (worst severity kept); each
    result records its longest single piece as `longest_s`."""
    out: list[Ev] = []
    for e in sorted(evs, key=lambda e: (e["type"], e["start_s"])):
        length = e["end_s"] - e["start_s"]
        last = out[-1] if out else None
        if last and last["type"] == e["type"] and e["start_s"] - last["end_s"] <= gap_s:
            merged = dict(last if last["severity"] >= e["severity"] else e)
            merged["start_s"], merged["end_s"] = last["start_s"], max(last["end_s"], e["end_s"])
            merged["severity"] = max(last["severity"], e["severity"])
            merged["longest_s"] = max(last["longest_s"], length)
            out[-1] = merged
        else:
            out.append({**e, "longest_s": e.get("longest_s", length)})
    return sorted(out, key=lambda e: e["start_s"])


def split_lasting(evs: Sequence[Ev]) -> tuple[list[Ev], list[Ev]]:
    """(lasting, brief): merged events whose longest piece reaches its type's limit, and the
    rest. A chain of short spikes stays brief, however long the chain."""
    keep: list[Ev] = []
    brief: list[Ev] = []
    for e in merge_pieces(evs):
        (keep if e["longest_s"] >= brief_limit(e["type"], e.get("subtype")) else brief).append(e)
    return keep, brief


def _spills_into(weak: Ev, strong: Ev) -> bool:
    """Whether `weak` (another type) sits right at an edge of `strong`, outside it, and is
    no worse and shorter: a detector taking over as the strong degradation starts or ends."""
    if weak["type"] == strong["type"] or weak["severity"] > strong["severity"] or \
            weak["end_s"] - weak["start_s"] >= strong["end_s"] - strong["start_s"]:
        return False
    after = abs(weak["start_s"] - strong["end_s"]) <= HANDOFF_GAP_S and \
        weak["end_s"] > strong["end_s"]
    before = abs(weak["end_s"] - strong["start_s"]) <= HANDOFF_GAP_S and \
        weak["start_s"] < strong["start_s"]
    return after or before


def drop_spill_over(evs: Sequence[Ev]) -> list[Ev]:
    """The events without those that only spill over from a stronger neighbour."""
    return [w for w in evs if not any(_spills_into(w, s) for s in evs if s is not w)]


@dataclass
class Stretch:
    """One degraded stretch: its span, its main (primary) type and the events in it."""

    start_s: float
    end_s: float
    events: list[Ev] = field(default_factory=list)

    @property
    def duration_s(self) -> float:
        """Length of the stretch in seconds."""
        return self.end_s - self.start_s

    @property
    def primary(self) -> Ev:
        """The member with the largest severity-weighted time: what the viewer sees."""
        return max(self.events, key=lambda e: (e["severity"] * (e["end_s"] - e["start_s"]),
                                               e["severity"]))

    @property
    def type(self) -> str:
        """The primary event's type."""
        return str(self.primary["type"])

    @property
    def severity(self) -> float:
        """The primary event's worst severity (a co-firing detector does not raise it)."""
        return float(self.primary["severity"])

    def to_event(self) -> Ev:
        """The stretch as one event record (primary type and subtype, worst severity)."""
        p = self.primary
        return {"type": p["type"], "subtype": p.get("subtype", ""), "start_s": self.start_s,
                "end_s": self.end_s, "severity": self.severity}


def lasting_pieces(evs: Sequence[Ev]) -> list[Ev]:
    """The raw events (own severities kept) that belong to a lasting event, without spill-over."""
    keep = drop_spill_over(split_lasting(evs)[0])
    return [e for e in evs if any(k["type"] == e["type"] and k["start_s"] <= e["start_s"]
                                  and e["end_s"] <= k["end_s"] for k in keep)]


def stretches(evs: Sequence[Ev]) -> list[Stretch]:
    """Distinct lasting degraded stretches, in time order: pieces merged, brief spikes and
    spill-over dropped, events that overlap joined."""
    lasting, _ = split_lasting(evs)
    out: list[Stretch] = []
    for e in sorted(drop_spill_over(lasting), key=lambda e: e["start_s"]):
        if out and e["start_s"] < out[-1].end_s:
            out[-1].end_s = max(out[-1].end_s, e["end_s"])
            out[-1].events.append(e)
        else:
            out.append(Stretch(e["start_s"], e["end_s"], [e]))
    return out


def stretch_types(found: Sequence[Stretch], weighted: bool = True) -> dict[str, float]:
    """Primary types of the stretches with their severity-weighted time (`weighted` False:
    their plain time, for "which lasts longest?")."""
    load: dict[str, float] = {}
    for s in found:
        load[s.type] = load.get(s.type, 0.0) + (s.severity if weighted else 1.0) * s.duration_s
    return load


def total_s(found: Sequence[Stretch]) -> float:
    """Seconds of the video inside a degraded stretch."""
    return sum(s.duration_s for s in found)


def profile(evs: Sequence[Ev], start_s: float, end_s: float, n: int) -> list[float]:
    """Impairment 0..1 of n equal bins of [start_s, end_s]: the mean, over the bin's seconds,
    of the worst severity of the events covering each second."""
    step = (end_s - start_s) / max(n, 1)
    out = []
    for i in range(n):
        a = start_s + i * step
        ticks = [a + (k + 0.5) * step / 20 for k in range(20)]
        out.append(sum(max((e["severity"] for e in evs if e["start_s"] <= t < e["end_s"]),
                           default=0.0) for t in ticks) / len(ticks))
    return out


def _corr(ys: Sequence[float]) -> float:
    """Pearson correlation of a series with its positions (0 for a flat series)."""
    n = len(ys)
    if n < 2:
        return 0.0
    mx, my = (n - 1) / 2, sum(ys) / n
    sxy = sum((i - mx) * (y - my) for i, y in enumerate(ys))
    sxx = sum((i - mx) ** 2 for i in range(n))
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if syy > 1e-12 else 0.0


TREND_CORR = 0.6  # |correlation| of impairment with time for a one-way change
TREND_RISE = 0.2  # and the later half at least this much worse (or better) than the earlier
TREND_HOLD = 0.5  # and the end (start) still at least this share of the worst part
# A single degraded block of even severity (within TREND_STEP) reads as improving (degrading)
# only when it starts (ends) within this share of the video of its start (end): one drop in
# the first half is not a recovery.
TREND_EDGE = 0.05
TREND_STEP = 0.15


# This many degraded stretches, each apart from the next by a clean gap this long, from the
# first third of the video to the last, are a fluctuation: a gradual change runs its
# stretches into one another, or comes late (a ramp detected in pieces).
FLUCTUATION_RUNS = 4
FLUCTUATION_GAP_S = 5.0


def drift(prof: Sequence[float]) -> str | None:
    """"degrading" or "improving" when the impairment changes one way over the bins: worse
    later than earlier, and still bad at the end (or bad from the start, then better)."""
    half = len(prof) // 2
    top = max(prof, default=0.0)
    if half == 0 or top <= 0:
        return None
    rise = sum(prof[-half:]) / half - sum(prof[:half]) / half
    corr = _corr(prof)
    if corr >= TREND_CORR and rise >= TREND_RISE and prof[-1] >= TREND_HOLD * top:
        return "degrading"
    if corr <= -TREND_CORR and rise <= -TREND_RISE and prof[0] >= TREND_HOLD * top:
        return "improving"
    return None


# Separate degraded stretches whose severities step one way, each step at most this much the
# other way and the whole change at least TREND_STEP x this, read as a gradual change: a
# distortion returning stronger (weaker) each time, as a falling (rising) bitrate does.
STEPWISE_RUNS = 3
STEPWISE_TOTAL = 2.0
STEPWISE_SLACK = 0.05
# The whole change on the headroom scale: ln(0.65 / 0.35), the linear STEPWISE_TOTAL x
# TREND_STEP (0.30) around the middle of the scale.
STEPWISE_ROOM = 0.62


def _headroom(severity: float) -> float:
    """-ln(1 - severity), capped: how far a severity is from the saturated top."""
    return -math.log(1.0 - min(max(severity, 0.0), 0.99))


def stepwise(found: Sequence[Stretch], runs: int = STEPWISE_RUNS,
             same_type: bool = True) -> str | None:
    """"degrading" or "improving" when `runs` or more separate stretches (of one primary
    type, unless `same_type` is off) grow (shrink) in severity one after the other."""
    if len(found) < runs or (same_type and len({s.type for s in found}) > 1):
        return None
    sev = [s.severity for s in found]
    steps = [b - a for a, b in zip(sev[:-1], sev[1:], strict=True)]
    total = sev[-1] - sev[0]
    # Severities saturate towards 1 (levels.py): 0.66 -> 0.81 -> 0.92 is gblur sigma 1.5 ->
    # 3 -> 6. On the headroom scale -ln(1 - s) the same change mid-scale (0.35 -> 0.65) reads
    # as large as it does near the top; either scale may show it.
    room = _headroom(sev[-1]) - _headroom(sev[0])
    if abs(total) < STEPWISE_TOTAL * TREND_STEP and abs(room) < STEPWISE_ROOM:
        return None
    sign = 1.0 if total > 0 else -1.0
    if all(sign * d >= -STEPWISE_SLACK for d in steps):
        return "degrading" if sign > 0 else "improving"
    return None


def pattern(found: Sequence[Stretch], prof: Sequence[float], duration_s: float,
            pieces: Sequence[Ev] | None = None) -> str:
    """How quality behaves over the video: stable | degrading | improving | fluctuating |
    occasional (one or two isolated drops). `pieces`: the raw lasting events, whose own
    severities show a change inside one stretch."""
    if not found:
        return "stable"
    apart = 1 + sum(b.start_s - a.end_s >= FLUCTUATION_GAP_S
                    for a, b in zip(found[:-1], found[1:], strict=True))
    third = duration_s / 3
    if apart >= FLUCTUATION_RUNS and found[0].start_s < third and \
            found[-1].end_s > duration_s - third:
        return "fluctuating"  # on, off, on, off... all through: however the severities drift
    way = drift(prof)
    sevs = [e["severity"] for e in (pieces if pieces is not None else found[0].events)
            ] if len(found) == 1 else []
    if way and sevs and max(sevs) - min(sevs) < TREND_STEP:
        # one even block is a change only if it runs from the start (to the end)
        edge = TREND_EDGE * duration_s
        if (way == "improving" and found[0].start_s > edge) or (
                way == "degrading" and found[0].end_s < duration_s - edge):
            way = None
    way = way or stepwise(found)
    if way:
        return way
    if total_s(found) >= 0.8 * duration_s:
        return "stable"  # one degradation all along: consistently degraded, not changing
    if len(found) >= 2 and (way := one_way(prof)):
        return way  # drops piling up towards one end: a change, not a fluctuation
    return "fluctuating" if len(found) >= 3 else "occasional"


# A part's impairment may fall back this much (a tenth of a grade) on a one-way course.
ONE_WAY_SLACK = 0.05


def one_way(prof: Sequence[float]) -> str | None:
    """"degrading" ("improving") when the impairment never falls (rises) from one part to
    the next by more than ONE_WAY_SLACK, is at its worst in the last (first) part and
    changes by at least TREND_STEP: quality stepping down a bitrate ladder, found as a few
    stretches in the later parts (0, 0, 0, 0, 0.14, 0.31), gets worse; it does not
    fluctuate."""
    if len(prof) < 3:
        return None
    top = max(prof)
    # an improving course is a degrading one read backwards
    for way, p in (("degrading", list(prof)), ("improving", list(prof)[::-1])):
        steps = [b - a for a, b in zip(p[:-1], p[1:], strict=True)]
        if all(d >= -ONE_WAY_SLACK for d in steps) and p[-1] >= top - ONE_WAY_SLACK and \
                p[-1] - p[0] >= TREND_STEP:
            return way
    return None


class Timeline:
    """When each type of distortion occurs, as a viewer would tell it: the primary types of
    the degraded stretches first, then lasting events of a type seen only beside another."""

    def __init__(self, evs: Sequence[Ev]) -> None:
        self.events = list(evs)
        self.stretches = stretches(evs)
        self.lasting = lasting_pieces(evs)

    def spans(self, etype: str) -> list[tuple[float, float]]:
        """Where `etype` is seen: stretches it leads, else lasting events, else any."""
        for pool in ([s.to_event() for s in self.stretches], self.lasting, self.events):
            found = [(e["start_s"], e["end_s"]) for e in pool if e["type"] == etype]
            if found:
                return found
        return []

    def first(self, etype: str) -> float | None:
        """When `etype` is first seen (None: never)."""
        spans = self.spans(etype)
        return min(a for a, _ in spans) if spans else None

    def together(self, a: str, b: str) -> bool:
        """Whether a and b occur at the same time (overlapping for half the shorter)."""
        for xa, xb in self.spans(a):
            for ya, yb in self.spans(b):
                inter = min(xb, yb) - max(xa, ya)
                if inter > 0 and inter >= 0.5 * min(xb - xa, yb - ya):
                    return True
        return False

    def earliest(self, types: Iterable[str], late: bool = False) -> str | None:
        """Of `types`, the one seen first (or, `late`, the one seen last); None if none is.
        A tie goes to the one named first (in the order given, not a set's, whose order
        changes from run to run with the hash seed)."""
        key = {}
        for etype in dict.fromkeys(types):
            spans = self.spans(etype)
            if spans:
                key[etype] = max(b for _, b in spans) if late else min(a for a, _ in spans)
        if not key:
            return None
        return (max if late else min)(key, key=key.get)
