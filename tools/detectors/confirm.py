"""Calibrated confirmation: raw events kept only where clean real footage does not go.

The detectors find anomalies against each scene's own baseline, and, where there is no clean
scene to compare with (a degradation over the whole video or over the shots at one end of
it), against absolute levels. Those levels are where content varies most (sharp camera
footage has the halo of over-sharpening, a bright table top the lifted blacks of
overexposure), so they are calibrated here on clean real footage, per signal and percentile,
and a raw event whose level does not pass its limit is dropped. Repeated frames must come
in more separate holds than clean footage shows in one cluster (a cartoon holds a drawing
for a second, twice in a row; a stutter repeats itself).
"""

from __future__ import annotations

import numpy as np

from tools.detectors.base import scene_ids
from tools.detectors.calibration import CleanVideo, Quantity, declare, value
from tools.detectors.levels import declare_end_run, declare_whole, end_run_key, whole_key
from tools.detectors.repeats import hold_clusters
from tools.detectors.whole_video import END_RUN_LIMITS, WHOLE_VIDEO_LIMITS
from tools.model import Event

# (signal, percentile, direction, limit before calibration) of the whole-video judgements
# and of the end-run judgements, as the whole-video detector makes them.
WHOLE: tuple[tuple[str, float, int, float], ...] = tuple(
    (sig, pct, direction, limit) for sig, limit, direction, _clean, pct in WHOLE_VIDEO_LIMITS)
END_RUN: tuple[tuple[str, float, int, float], ...] = tuple(
    (sig, pct, direction, limit) for sig, limit, direction, _clean, pct, _guard in END_RUN_LIMITS)
for _sig, _pct, _dir, _default in WHOLE:
    declare_whole(_sig, _pct, _dir, _default)
for _sig, _pct, _dir, _default in END_RUN:
    declare_end_run(_sig, _pct, _dir, _default)
_DIRECTION = {(s, p): d for s, p, d, _ in WHOLE + END_RUN}



def _hold_clusters(v: CleanVideo) -> list[float]:
    """Holds per cluster of repeated frames in a clean video, as the repeats detector finds
    them, for the clusters whose typical hold is >= 2 frames (the ones judged by their number
    of holds)."""
    if len(v.frames.get("diff", [])) < 3:
        return []
    sid = scene_ids(np.asarray(v.frames["t"]), v.scenes)
    return [float(len(cl)) for cl in hold_clusters(v.frames, sid, v.fps)
            if np.median([b - a for a, b in cl]) >= 2]


HOLDS = declare(Quantity(
    key="repeats.holds", measure=_hold_clusters, direction=+1, default=2.0, log=False,
    doc="holds of >= 2 repeated frames in one cluster of a clean video"))


def _passes(level: float, key: str, direction: int) -> bool:
    return bool(np.isfinite(level)) and direction * (level - value(key)) > 0


def stands_off(e: Event) -> bool:
    """A scene-relative event's own level stands off its scene baseline by at least its
    detector's smallest deviation (bridging whole scenes into an event can leave one that
    does not: its signal sits where its scenes' clean level is); an event over several shots
    also stands off when its samples do, each from its own shot's level (a blur over a stretch
    of short shots of different content: their mixed median says nothing against the first
    shot's baseline)."""
    from tools.detectors import SPATIAL_SPECS

    ev = e.evidence or {}
    spec = next((s for s in SPATIAL_SPECS if s.signal == ev.get("signal")
                 and (s.type, s.subtype) == (e.type, e.subtype)), None)
    if spec is None or spec.direction == 0 or "scene_baseline" not in ev:
        return True
    if float(ev.get("own_scene_deviation", -np.inf)) >= spec.min_delta:
        return True
    level, base = float(ev["median_in_event"]), float(ev["scene_baseline"])
    if spec.log:
        if level + spec.offset <= 0 or base + spec.offset <= 0:
            return True
        dev = spec.direction * np.log((level + spec.offset) / (base + spec.offset))
    else:
        dev = spec.direction * (level - base)
    return bool(dev >= spec.min_delta)


def confirmed(e: Event) -> bool:
    """Does a raw event pass the calibrated limits that apply to it?"""
    if not stands_off(e):
        return False
    ev = e.evidence or {}
    sig = ev.get("signal")
    for prefix, key_of in (("video_p", whole_key), ("run_p", end_run_key)):
        for name, level in ev.items():
            if name.startswith(prefix) and isinstance(sig, str):
                pct = float(name[len(prefix):])
                direction = _DIRECTION.get((sig, pct))
                if direction is not None and not _passes(float(level), key_of(sig, pct), direction):
                    return False
    if e.type in ("stutter", "frame_drop") and ev.get("median_hold_frames", 1) >= 2:
        return float(ev.get("holds", 0)) > value(HOLDS.key)
    return True


def confirm(events: list[Event]) -> list[Event]:
    """The raw events that pass their calibrated limits."""
    return [e for e in events if confirmed(e)]
