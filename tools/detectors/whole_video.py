"""Degradations with no clean shot to stand out against: over the whole video, or over the
run of whole shots at its start or end, judged by absolute levels clean footage does not
reach (no scene reference)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from tools.detectors import calibration as cal
from tools.detectors.base import REPORT_SEVERITY, Context
from tools.detectors.series import level_severity
from tools.detectors.spatial_events import covering
from tools.detectors.spatial_spec import SpatialSpec, severity
from tools.model import Event

# Degradations covering the whole video have no clean scene to stand out against: they are
# judged by the video-wide median against absolute limits far outside what clean footage
# shows (measured on 95 clean and lightly degraded 3-min videos: blockiness <= 1.17, grid
# <= 1.58, halo <= 10.5, contrast range >= 65 where no flicker swings the tone; contrast
# reduced to 0.2x all through: 26 and 42; grain sigma <= 0.72, where noise over the whole
# video measures 8). Measures that content moves a lot are judged by the video's best
# decile instead: a long video mixes dark and bright, flat and detailed shots, so when even
# its best tenth is lifted, flat, soft or vivid, the whole of it is (over 180 3-min NDQA
# videos, those without a degradation all through reach black p10 <= 28, contrast range p90
# >= 186, native sharpness p90 >= 136 (169 without blur over most of the video), saturation
# p10 <= 52; brightness +L3 all through: black p10 164; contrast 0.2x: range p90 45; heavy
# defocus: sharpness p90 32; saturation x4: saturation p10 98). Checked in order; the first
# one found explains the later ones (compression raises halo and grid too, over-sharpening
# lifts grain, lifted blacks flatten the range and soften edges). The macroblock kinks (mb,
# grey levels): clean calibration videos' medians 0.05-1.24, a stream coded coarsely all
# through 3.2; the nominal 1.5 stands only until `bench calibrate` has set whole.mb.p50.
# (signal, limit, direction, nominal clean level, percentile judged: 50 the median; 10 or
# 90 the best decile for signals worse when higher or lower, judged only in a video of at
# least WHOLE_VIDEO_MIN_SCENES shots: one long shot may be bright or soft all through)
WHOLE_VIDEO_LIMITS: tuple[tuple[str, float, int, float, float], ...] = (
    ("blockiness", 2.5, +1, 1.05, 50),
    ("grid", 4.0, +1, 1.4, 50),
    ("mb", 1.5, +1, 0.4, 50),
    ("halo", 18.0, +1, 7.0, 50),
    ("black", 80.0, +1, 20.0, 10),
    ("contrast_range", 48.0, -1, 150.0, 50),
    ("contrast_range", 120.0, -1, 200.0, 90),
    ("noise", 2.0, +1, 0.45, 50),
    ("sharpness", 90.0, -1, 400.0, 90),
    ("saturation", 80.0, +1, 30.0, 10),
)
# A whole-video level that must also show another measure beyond every clean video's
# (signal, percentile): the 8-px blocking ratio compares block borders with the inside of
# the blocks, and on a grain-free, flat picture (a coin on a table coded by MPEG-2 at q 3,
# PSNR 52 dB against its source) the inside falls to a fraction of a grey level and the
# ratio reads 3.1, past the limit, with no block in sight; blocks that show kink the
# picture at the macroblock borders by more grey levels than clean footage does (a JPEG
# coded all through: 3.4, clean videos' medians at most 1.2).
WHOLE_VIDEO_GUARDS: dict[str, tuple[str, float]] = {"blockiness": ("mb", 50)}
WHOLE_VIDEO_MIN_SCENES = 5
WHOLE_VIDEO_KEEP = 0.9  # events of its type spanning this share of the video stay beside it
WHOLE_VIDEO_PARTS = 6  # the level must hold in all but one of this many equal parts,
WHOLE_VIDEO_PART_SLACK = 0.8  # to within this factor of the limit
# Fewest samples a video (or the part of it no cause covers) needs to be judged.
WHOLE_VIDEO_MIN_SAMPLES = 10
# The events of what explains a signal may cover this share of the video before the level
# must also show outside them.
WHOLE_VIDEO_CAUSED_SHARE = 0.25

# A degradation that sets in and lasts to the video's end (or lasts from its start) has no
# clean shot after it either: the same best-decile reading, over the run of whole shots at
# that end of the video. Only where content alone never gets there over several shots: over
# every run of >= 3 shots spanning >= 30 s of 180 NDQA dev videos, clean runs reach black
# p10 <= 42, runs lifted by brightness +L2/+L3 >= 87; over the runs at either end of 240,
# clean ones keep native sharpness p90 >= 110, runs under heavy blur 26-38 (a flat picture
# has a weak Laplacian too: runs with contrast reduced, range p90 <= 85, reach 20, so the
# run must keep a range p90 >= 120). Contrast and saturation runs overlap clean ones.
# (signal, limit, direction, nominal clean level, percentile, guard: a signal's percentile
# that must reach a level in the run, or None)
END_RUN_LIMITS: tuple[tuple[str, float, int, float, float,
                            tuple[str, float, float] | None], ...] = (
    ("black", 80.0, +1, 20.0, 10, None),
    ("sharpness", 60.0, -1, 400.0, 90, ("contrast_range", 90, 120.0)),
)
END_RUN_MIN_SCENES = 3
END_RUN_MIN_S = 30.0
END_RUN_TAKEN_SHARE = 0.5  # a shot this much inside an event of the type found is not counted


def _share(t: np.ndarray, shot: Any, mask: np.ndarray) -> float:
    """The share of a shot's samples in `mask` (0 for a shot without samples)."""
    inside = (t >= shot.start_s) & (t < shot.end_s)
    return float(mask[inside].mean()) if inside.any() else 0.0


def whole_key(signal: str, pct: float) -> str:
    """The calibration key of a whole-video percentile (levels.declare_whole)."""
    return f"whole.{signal}.p{pct:g}"


def whole_limit(signal: str, pct: float, limit: float, direction: int) -> float:
    """The stricter of a whole-video limit and its calibrated clean level: confirm.py drops a
    whole-video event short of the calibrated one, and such an event must not first explain
    the video's other events away (sharp camera footage reaches a halo median of 37, beyond
    the nominal 18: over-sharpening in 17 s of a rocket launch then vanished with it)."""
    try:
        calibrated = cal.value(whole_key(signal, pct))
    except KeyError:  # not declared (confirm.py not loaded) nor stored: the nominal limit
        return limit
    return max(limit, calibrated) if direction > 0 else min(limit, calibrated)


def whole_video_events(ctx: Context, events: list[Event]) -> list[Event]:
    """At most one event spanning the video for a degradation present all through it."""
    samples = ctx.samples
    t = samples.get("t", np.zeros(0))
    if len(t) < WHOLE_VIDEO_MIN_SAMPLES:
        return []
    duration = float(t[-1] + np.median(np.diff(t)))
    specs = {sp.signal: sp for sp in ctx.specs()}
    for signal, nominal, direction, clean, pct in WHOLE_VIDEO_LIMITS:
        limit = whole_limit(signal, pct, nominal, direction)
        spec = specs.get(signal)  # None: its detector is not registered
        if spec is None or signal not in samples or (
                pct != 50 and len(ctx.scenes) < WHOLE_VIDEO_MIN_SCENES):
            continue
        with warnings.catch_warnings():  # an all-NaN part is skipped below
            warnings.simplefilter("ignore", RuntimeWarning)
            level = float(np.nanpercentile(samples[signal], pct))
            # ... and near it in (nearly) every part: a trend that ends strong is not "all
            # through" (content moves each part's level; clean parts stay far from the limit).
            parts = [np.nanpercentile(p, pct) for p in
                     np.array_split(samples[signal], WHOLE_VIDEO_PARTS) if np.isfinite(p).any()]
        if not np.isfinite(level) or direction * (level - limit) < 0 or not _guard_holds(
                samples, signal):
            continue
        near = limit * WHOLE_VIDEO_PART_SLACK ** direction
        if sum(direction * (p - near) >= 0 for p in parts) < len(parts) - 1:
            continue
        # Heavy noise raises halo and block measures where it is: then the level is its
        # doing, unless the rest of the video shows the level too (over-sharpening lifts the
        # grain already there, which then reads as noise, and the halo everywhere).
        explainers = ctx.explainers(spec.type)
        causes = ("flicker",) if "temporal" in explainers else ()
        causes += tuple(k for k in explainers if k != "temporal")
        caused = [e for e in events if e.type in causes]
        if sum(e.end_s - e.start_s for e in caused) >= WHOLE_VIDEO_CAUSED_SHARE * duration:
            rest = np.ones(len(t), dtype=bool)
            for e in caused:
                rest &= ~((t >= e.start_s) & (t < e.end_s))
            x = samples[signal][rest]
            if rest.sum() < WHOLE_VIDEO_MIN_SAMPLES or \
                    not direction * (np.nanpercentile(x, pct) - limit) >= 0:
                continue
        return [judged_event(spec, level, clean, direction, 0.0, duration, {
            "signal": signal, f"video_p{pct:g}": round(level, 4), "absolute_limit": limit,
            "whole_video": True})]
    return []


def _guard_holds(samples: dict[str, np.ndarray], signal: str) -> bool:
    """Whether a whole-video judgement's guard (WHOLE_VIDEO_GUARDS) shows beyond every clean
    calibration video (or there is none, or it is not measured or calibrated)."""
    if signal not in WHOLE_VIDEO_GUARDS:
        return True
    g_sig, g_pct = WHOLE_VIDEO_GUARDS[signal]
    floor = cal.clean_extreme(whole_key(g_sig, g_pct))
    if floor is None or g_sig not in samples or not np.isfinite(samples[g_sig]).any():
        return True
    return bool(np.nanpercentile(samples[g_sig], g_pct) >= floor)


def judged_event(spec: SpatialSpec, level: float, clean: float, direction: int,
                 start_s: float, end_s: float, evidence: dict[str, Any]) -> Event:
    """An event judged by a level against absolute limits (no scene reference): its
    deviation from the nominal clean level gives the severity."""
    dev = float(direction * (np.log((level + spec.offset) / (clean + spec.offset))
                             if spec.log else level - clean))
    sev = level_severity(level, spec.levels) if spec.levels else severity(dev, spec)
    return Event(
        type=spec.type, subtype=spec.subtype, start_s=round(start_s, 2), end_s=round(end_s, 2),
        severity=round(max(REPORT_SEVERITY, sev), 3), score=round(dev / spec.min_delta, 2),
        evidence=evidence)


def end_run_events(ctx: Context, events: Sequence[Event] = ()) -> list[Event]:
    """Events over the longest run of whole shots at the start or the end of the video (not
    all of it) whose best decile is beyond an absolute limit. Shots lying mostly inside an
    event of the spec's type found already are no evidence of a run (a brightened window's
    flat white picture breaks into 'shots' of its own: with them, the next shot of a bright
    but clean scene made a run of three), and their samples are not read."""
    samples, scenes = ctx.samples, ctx.scenes
    t = samples.get("t", np.zeros(0))
    if len(t) < WHOLE_VIDEO_MIN_SAMPLES or len(scenes) < END_RUN_MIN_SCENES + 1:
        return []
    specs = {sp.signal: sp for sp in ctx.specs()}
    step = float(np.median(np.diff(t)))
    out = []
    for signal, limit, direction, clean, pct, guard in END_RUN_LIMITS:
        if signal not in specs or signal not in samples or (
                guard is not None and guard[0] not in samples):
            continue
        x = samples[signal].astype(np.float64)
        n = len(scenes)
        taken = covering(t, [e for e in events if e.type == specs[signal].type])
        own = [_share(t, s, taken) < END_RUN_TAKEN_SHARE for s in scenes]
        for from_end in (False, True):
            best = None
            for k in range(END_RUN_MIN_SCENES, n):  # the first (last) k shots
                run = scenes[n - k:] if from_end else scenes[:k]
                a, b = run[0].start_s, run[-1].end_s
                inside = (t >= a) & (t < b) & ~taken
                if b - a < END_RUN_MIN_S or not np.isfinite(x[inside]).any() or sum(
                        own[n - k:] if from_end else own[:k]) < END_RUN_MIN_SCENES:
                    continue
                level = float(np.nanpercentile(x[inside], pct))
                if direction * (level - limit) < 0 or (guard is not None and np.nanpercentile(
                        samples[guard[0]][inside], guard[1]) < guard[2]):
                    break  # the run ends with the shot that takes it below the limit
                best = (a, b, level)
            if best is not None:
                a, b, level = best
                out.append(judged_event(
                    specs[signal], level, clean, direction, float(a),
                    float(min(b, t[-1] + step)), {
                        "signal": signal, f"run_p{pct:g}": round(level, 4),
                        "absolute_limit": limit, "shots": "last" if from_end else "first"}))
    return out


def judge_whole(ctx: Context, events: list[Event]) -> list[Event]:
    """The events with a whole-video degradation added (and what it explains elsewhere
    dropped), or, when there is none, with the end runs' degradations added."""
    whole = whole_video_events(ctx, events)
    if not whole:
        return events + end_run_events(ctx, events)
    # what the whole-video degradation explains elsewhere is its doing (its own type's
    # stretches inside it are parts of it; another measure of its type that also spans the
    # video tells more of what it is: both stay)
    span = whole[0].end_s - whole[0].start_s
    return [e for e in events if whole[0].type not in ctx.explainers(e.type) and (
        e.type != whole[0].type or e.end_s - e.start_s >= WHOLE_VIDEO_KEEP * span)] + whole
