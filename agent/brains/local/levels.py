"""Severity scales: how each detector's 0..1 severity reads as mild, moderate or severe, and
how much of the viewing a video's degraded stretches spoil."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agent.brains.stretches import Stretch
from agent.distortions import TYPE_NAMES
from agent.timefmt import hms

# How an event's severity (0..1) reads on the mild / moderate / severe scale of option words.
# The detectors saturate early: a mild distortion already scores 0.3-0.6, a moderate one
# 0.6-1.0, and only a saturated 1.0 reads as severe (calibrated on the NDQA dev sets).
MILD, SEVERE = 0.6, 0.99
# Detectors whose severity follows the viewer's scale more closely have their own cuts
# (type or type/subtype: (mild below, severe from)), read off the same dev sets: freezes and
# flicker grow with the share of affected frames, grain and impulses with their absolute level,
# blur with the fall of native sharpness, compression with its absolute blockiness; the
# compression cuts were read off 102 one-minute calibration videos (each distortion of table
# S5 at each level, two seeds) and one NDQA set. Blur, oversaturation, hue and frame drops
# were read again off the needles four NDQA sets found (26 blur needles: heavy motion blur
# and defocus lose 0.55-0.65 of the severity scale, moderate blur 0.36-0.72; oversaturation
# x2 reads 0.33-0.48 and x4 0.61-1.0; a 130-degree hue turn 0.78-1.0, a 60-degree one
# 0.62-0.89; frame drops of the moderate level reach 0.87). Stutter grows with how long a
# held frame stays frozen: freezes of 4 frames read 0.42, of 14 0.73-0.84, of 24 0.84-1.0.
# A frozen picture scores 0.4 + 0.12 per second (tools/detectors/freeze.py): under 2.5 s is
# mild, from 4.6 s severe.
LEVEL_CUTS: dict[str, tuple[float, float]] = {
    "flicker": (0.5, 0.95), "frame_drop": (0.5, 0.9), "stutter": (0.5, 0.85),
    # a rate drop's severity is 1 - 1/k for pictures held k frames: a halved rate is mild,
    # a third moderate, a quarter or less severe (the ffmpeg tracks' fps/2, /3, /5 windows
    # read 0.5, 0.67, 0.8: all "moderate" on the cuts above)
    "frame_drop/frame-rate drop": (0.55, 0.75),
    "freeze": (0.7, 0.95),
    "noise/grain": (0.49, 0.87), "noise/impulse": (0.48, 0.85),
    # read off the calibration-part ffmpeg track (real clips kept apart from the evaluation
    # ones; session 30): a flattened contrast scores 0.84-0.86 at level 3 there (level 2:
    # 0.52-0.89, level 1 below 0.5); the default cuts (0.6, 0.99) read every one "moderate"
    "exposure/low contrast": (0.5, 0.75),
    # a drop to black grows with its length (tools/detectors/black.py): a flash under ~0.3 s
    # is mild, from ~1.1 s severe
    "exposure/black frames": (0.5, 0.85),
    # decoder damage (tools/detectors/corruption.py: 0.5 at the first logged error, rising
    # with the error rate) is glaring whenever the decoder struggles for seconds: from ~3.5
    # errors a second (0.75) it reads severe (an independent tester's H.264 stream with
    # packet damage, PSNR 12-23 dB against the undamaged one, logged 0.79; the default cuts
    # read every damaged stretch "moderate")
    "corruption": (0.5, 0.75),
    "colour/oversaturation": (0.35, 0.6), "colour/hue shift": (0.6, 0.95),
    "sharpening": (0.43, 0.85), "blur": (0.35, 0.55), "compression/blocking": (0.55, 0.79),
    "compression/pixelation": (0.55, 0.9),
    # over-sharpening measured by the noise detectors (see READ_AS): amplified grain scores
    # low on their scale (0.36-0.46 for the moderate level, 0.71 for the severe one)
    "sharpening/measured as noise": (0.3, 0.6),
}
# A window's type score (>= 1: as strong as a reportable event) this high is clearly outside
# what clean windows reach, so the type counts as present even when no event was reported.
# Types whose scores swing with scene content (blur, exposure, colour) have no such bar.
# (Noise: clean 15-s windows of the dev sets reach 2.1 at most over 1745 of them.)
PROBE_SCORES: dict[str, float] = {"noise": 2.5, "compression": 2.5, "sharpening": 2.5,
                                  "jitter": 2.5, "flicker": 1.0, "frame_drop": 0.5,
                                  "stutter": 0.5}
# Windows an undetected type is probed over (temporal relations), and the severity given to
# the probed window (as weak as a reported event can be).
PROBE_WINDOWS = 12
REPORT_FLOOR = 0.3
# Overall grade from the level-weighted share of the viewing time that is impaired
# (1 excellent .. 5): nothing impaired is excellent, up to a third good, most of it poor.
GRADE_CUTS = ((0.3, 4.0), (0.7, 3.0))  # (share at most, grade); beyond: 2 (poor)
LEVEL_WEIGHTS = (0.25, 0.6, 1.0)  # impairment weight of a mild, moderate, severe stretch
_MEASURED = "measured as "


def _cuts(kind: str) -> tuple[float, float]:
    """The (mild, severe) cuts of "type" or "type/subtype"; an event measured by another
    type's detector ("freeze/measured as stutter") is read on that detector's scale."""
    if kind in LEVEL_CUTS:
        return LEVEL_CUTS[kind]
    etype, _, sub = kind.partition("/")
    if sub.startswith(_MEASURED):
        return _cuts(sub[len(_MEASURED):])
    return LEVEL_CUTS.get(etype) or (MILD, SEVERE)


def level_of(severity: float | None, kind: str = "") -> float:
    """Severity 0..1 of the worst event to the option scale (0 none, 1 mild .. 3 severe);
    `kind` ("type" or "type/subtype") selects the detector's own cuts."""
    if severity is None or severity <= 0:
        return 0.0
    mild, severe = _cuts(kind)
    return 1.0 if severity < mild else 2.0 if severity < severe else 3.0


def events_level(evs: Sequence[dict[str, Any]]) -> float:
    """The option-scale level of the worst of some events, each on its detector's cuts (an
    event retyped after grading, as softness found to be the coder's, on the cuts of the
    detector that graded it)."""
    return max((level_of(e["severity"], graded_kind(e)) for e in evs), default=0.0)


def graded_kind(e: dict[str, Any]) -> str:
    """The "type/subtype" whose cuts read an event's severity: the detector that graded it
    (an event retyped after grading carries it as `graded_as`), else its own."""
    kind = e.get("graded_as") or f"{e['type']}/{e.get('subtype') or ''}"
    measured, own = kind.partition("/")[2], e.get("measured_subtype")
    if own and kind not in LEVEL_CUTS and measured.startswith(_MEASURED):
        # read for another type ("stutter" asked of a rate drop): its detector's own cuts
        mine = f"{measured[len(_MEASURED):]}/{own}"
        if mine in LEVEL_CUTS:
            return mine
    return kind


def level_position(severity: float, kind: str = "") -> float:
    """The level on a continuous scale, within half a step of `level_of` (mild 0.5-1.5,
    moderate 1.5-2.5, severe 2.5-3): where between its detector's cuts a severity lies, so
    that a moderate just short of severe is nearer "severe" than "mild" when an option set
    offers only those two."""
    if severity <= 0:
        return 0.0
    mild, severe = _cuts(kind)
    if severity < mild:
        return 0.5 + severity / mild
    if severity < severe:
        return 1.5 + (severity - mild) / (severe - mild)
    return min(3.0, 2.5 + (severity - severe) / max(1.0 - severe, 1e-6) * 0.5)


def events_position(evs: Sequence[dict[str, Any]]) -> float:
    """`level_position` of the worst of some events, each on its detector's cuts."""
    return max((level_position(e["severity"], graded_kind(e)) for e in evs), default=0.0)


def probed_level(etype: str | None, data: dict[str, Any] | None) -> float:
    """The level (0 none, 1 mild, 2 moderate) a find_events window score shows for a type
    that has no event there: 0 unless the score is clearly outside the clean range."""
    bar = PROBE_SCORES.get(etype or "")
    score = float((data or {}).get("signal_score") or 0.0)
    if bar is None or score < bar:
        return 0.0
    return 2.0 if score >= 1.5 * bar else 1.0


LEVEL_NAMES = ("none", "mild", "moderate", "severe")  # level 0 .. 3 in words


def level_word(severity: float, level: float | None = None) -> str:
    """A severity 0..1 (or its option-scale level, when known) in words."""
    lv = level_of(severity) if level is None else level
    return LEVEL_NAMES[int(min(max(lv, 0), 3))]


def stretch_level(s: Stretch) -> float:
    """A stretch's level (1 mild .. 3 severe) on its primary detector's cuts: the same words
    a severity question gets (raw severities do not compare across detectors)."""
    return events_level([s.to_event()])


def grade(found: Sequence[Stretch], duration: float) -> tuple[float, str]:
    """1 (bad) .. 5 (excellent) from the level-weighted share of the viewing impaired."""
    weighted = sum(LEVEL_WEIGHTS[int(stretch_level(s)) - 1] * s.duration_s for s in found)
    share = weighted / max(duration, 1e-6)
    g = 5.0 if not found else next((g for cut, g in GRADE_CUTS if share <= cut), 2.0)
    detail = (f"{len(found)} degraded stretch(es), worst severity "
              f"{max((s.severity for s in found), default=0.0):.2f}, level-weighted "
              f"{100 * share:.0f}% of the viewing impaired")
    if found:  # the reason, named: what each stretch is and where ("score it, with a reason")
        detail += " (" + "; ".join(
            f"{TYPE_NAMES.get(s.primary['type'], s.primary['type'])} "
            f"{hms(s.start_s)}-{hms(s.end_s)}, {LEVEL_NAMES[int(stretch_level(s))]}"
            for s in sorted(found, key=lambda s: s.start_s)[:6]) + \
            ("; ..." if len(found) > 6 else "") + ")"
    return g, detail


def type_grade(evs: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Per type, its worst event's level on the option scale (1..3, on its detector's cuts)
    plus half its severity: levels compare across detectors, raw severities do not."""
    out: dict[str, float] = {}
    for e in evs:
        g = events_level([e]) + 0.5 * e["severity"]
        out[e["type"]] = max(out.get(e["type"], 0.0), g)
    return out
