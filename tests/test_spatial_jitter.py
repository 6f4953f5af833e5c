"""Spatial events on jittery real-footage-like series: steps judged against the series' own
jitter, brief mild raw events that explain nothing, washed-out colour switched on and off,
and a blur that stays blur keeping the rest of its shot clean (no event needs a video)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.test_events import FPS, _frames, _samples, _scenes
from tools.detectors import detect_events
from tools.detectors.base import Context
from tools.detectors.blur import HEAVY, BlurDetector
from tools.detectors.colour import DESATURATION
from tools.detectors.spatial_events import SpatialDetector, _jitter
from tools.detectors.spatial_spec import SpatialSpec, series
from tools.detectors.spatial_steps import change_points, paired_steps
from tools.model import Event

# Native sharpness of a hand-held close-up (the coin clip of the evaluation part, samples
# 0.5 s apart): it jumps 2x between neighbours, and a box blur switched on takes it to ~9.
CLEAN = [40, 85, 43, 87, 92, 69, 50, 54, 33, 34, 19, 23, 24, 20, 48, 38, 36, 28, 43, 110, 77,
         52]
BLURRED = [11.4, 10.6, 7.7, 6.9, 7.1, 6.4, 6.6, 6.1, 8.9, 9.1, 7.8, 11.5, 13.6, 12.8, 13.5,
           10.4, 10.9, 11.2, 8.8, 7.3, 6.9, 5.9, 6.6, 6.4, 8.6, 9.3, 9.5, 10.9, 12.9, 11.9,
           13.2, 12.1, 12.5, 10.7, 9.8, 6.8]
AFTER = [30, 17.6, 23.5, 21, 56, 53, 40, 38, 45, 72, 68, 76, 94, 41, 39, 33, 33, 18, 25, 21]
ONSET = 3 * len(CLEAN)  # sample index where the blur starts (33 s)


def _jittery_sharpness() -> dict[str, np.ndarray]:
    """Spatial samples of one shot whose sharpness is the coin clip's, blurred at 33-51 s."""
    sharp = np.array(CLEAN * 3 + BLURRED + AFTER * 3, dtype=np.float32)
    s = _samples(len(sharp) / 2.0)
    s["sharpness"] = sharp
    return s


def test_a_step_in_a_jittery_series_is_judged_with_the_jitter_allowed():
    """Neighbours of a jittery series stray from their side's level by about its own sigma:
    the blur's onset is a step only when the steadiness and jump tests allow that much."""
    s = _jittery_sharpness()
    x = series(s, HEAVY)
    sid = np.zeros(len(x), dtype=np.int64)
    sigma = _jitter(x, sid, HEAVY)
    found = {allow: [p[0] for p in change_points(
        x, sid, s["t"], [], HEAVY, 3.0 * sigma, np.zeros(len(x), bool),
        noise=sigma if allow else 0.0)] for allow in (True, False)}
    assert found[True] == [ONSET]
    assert found[False] == []


def test_a_clear_onset_pairs_with_a_weaker_end_within_the_jitter():
    """An onset past 3 sigma and an end past 2 sigma are one needle; two weak points alone
    are no needle."""
    x = np.log(np.r_[np.full(20, 40.0), np.full(20, 8.0), np.full(20, 20.0)] + 1.0)
    t = np.arange(len(x)) / 2.0
    sid = np.zeros(len(x), dtype=np.int64)
    strong = [(20, 1.6, float(x[19]), float(x[20]))]
    weak = [(40, -0.9, float(x[39]), float(x[40]))]
    assert paired_steps(strong, x, sid, t, HEAVY, None, weak, 0.4) == [(20, 40, 0.9)]
    assert paired_steps(strong, x, sid, t, HEAVY, None, (), 0.4) == []
    assert paired_steps([], x, sid, t, HEAVY, None, weak, 0.4) == []


def test_heavy_blur_in_a_jittery_shot_is_found():
    s = _jittery_sharpness()
    end = float(s["t"][-1]) + 0.5
    events = detect_events(_frames(end), s, _scenes([0.0, end]), FPS)
    blur = [e for e in events if e.type == "blur"]
    assert len(blur) == 1, events
    assert abs(blur[0].start_s - 33.0) <= 1.0 and abs(blur[0].end_s - 51.0) <= 1.0, blur


class _Pulses(SpatialDetector):
    """A family whose one spec finds only brief mild bumps of blockiness."""

    name = "pulses"
    types = ("compression",)
    specs = (SpatialSpec("compression", "blocking", "blockiness", +1, np.log(1.2),
                         np.log(30.0)),)


def test_a_brief_mild_raw_event_explains_nothing():
    """Raw events that the final filter drops (brief and mild) must not hide other types."""
    s = _samples(60.0)
    bump = (s["t"] >= 20.0) & (s["t"] < 22.5)
    s["blockiness"][bump] *= 1.4
    ctx = Context.build(_frames(60.0), s, _scenes([0.0, 60.0]), FPS)
    found = _Pulses().detect(ctx)
    assert found and all(e.end_s - e.start_s < 6.0 and e.severity < 0.5 for e in found), found
    assert not ctx.explaining(("compression",)).any()


def test_colour_washed_out_and_restored_inside_one_shot_is_desaturation():
    s = _samples(120.0)
    inside = (s["t"] >= 40.0) & (s["t"] < 70.0)
    s["saturation"][inside] *= 0.2
    events = detect_events(_frames(120.0), s, _scenes([0.0, 120.0]), FPS)
    desat = [e for e in events if e.subtype == "desaturation"]
    assert len(desat) == 1, events
    assert abs(desat[0].start_s - 40.0) <= 1.0 and abs(desat[0].end_s - 70.0) <= 1.0, desat
    assert not [e for e in events if e.subtype == "oversaturation"], events


def test_a_saturation_drift_is_no_desaturation():
    """Content moves saturation slowly (a grey sky panned into view): no step, no event."""
    s = _samples(120.0)
    s["saturation"] *= np.interp(s["t"], [0, 40, 70, 120], [1.0, 0.2, 0.2, 1.0]).astype(
        np.float32)
    assert DESATURATION.pairs_only
    events = detect_events(_frames(120.0), s, _scenes([0.0, 120.0]), FPS)
    assert not [e for e in events if e.subtype == "desaturation"], events


def test_a_blur_that_stays_blur_keeps_the_rest_of_its_shot_clean():
    """Of two blur events in one shot, one stays blur: the rest of the shot is its clean
    look, so the other is no clean side of an over-sharpened shot."""
    from tools.detectors.sharpening import blur_or_sharpening

    s = _samples(120.0)
    rng = np.random.default_rng(5)
    a = (s["t"] >= 40.0) & (s["t"] < 50.0)  # blur that takes the halo down: stays blur
    s["sharpness"][a] /= 6.0
    s["halo"][a] /= 3.0
    s["detail"][a] /= 1.5
    b = (s["t"] >= 80.0) & (s["t"] < 90.0)  # blur that wipes the grain: reads as sharpening
    s["sharpness"][b] /= 6.0
    s["halo"][b] /= 1.8
    s["detail"][b] /= 1.6
    s["noise"][b] /= 4.0 * (1 + 0.01 * rng.standard_normal(b.sum())).astype(np.float32)
    ctx = Context.build(_frames(120.0), s, _scenes([0.0, 120.0]), FPS)
    blur = [Event("blur", lo, lo + 10.0, 0.6, 1.0, "softness", {})
            for lo in (40.0, 80.0)]
    alone = blur_or_sharpening(ctx, blur[1:])
    assert alone and {e.type for e in alone} == {"sharpening"}, alone  # judged alone
    both = blur_or_sharpening(ctx, blur)
    assert [e.type for e in both] == ["blur", "blur"], both


def test_a_shot_that_opens_and_closes_on_one_sharp_frame_is_not_blurred():
    """A shaky shot (a bird taking off) that is sharp only in its first and last sample after
    and before the cuts: one frame is no clean level, so its soft middle is no needle."""
    s = _samples(60.0)
    mid = (s["t"] >= 20.0) & (s["t"] < 40.0)
    idx = np.flatnonzero(mid)
    s["sharpness"][idx] /= 4.0
    s["sharpness"][idx[1]] *= 4.0  # the first sample clear of the cut guard
    s["sharpness"][idx[-1]] *= 4.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert not [e for e in events if e.type == "blur"], events


def test_a_brief_mild_raw_event_explains_what_lies_mostly_inside_it():
    """A glitch pixelating a shot for 4 s also softens it there: a blur inside it is the
    glitch's, though the glitch is too brief and mild to be reported itself."""
    s = _samples(60.0)
    glitch = (s["t"] >= 20.0) & (s["t"] < 24.0)
    s["grid"][glitch] *= 1.4
    soft = (s["t"] >= 21.0) & (s["t"] < 23.0)
    s["detail"][soft] *= 0.5
    s["sharpness"][soft] *= 0.3
    ctx = Context.build(_frames(60.0), s, _scenes([0.0, 60.0]), FPS)
    pulses = _Pulses()
    pulses.specs = (replace(pulses.specs[0], signal="grid"),)
    assert pulses.detect(ctx)
    assert not [e for e in BlurDetector().detect(ctx) if e.type == "blur"]
    assert [e for e in BlurDetector().detect(Context.build(_frames(60.0), s, _scenes([0.0, 60.0]),
                                                            FPS)) if e.type == "blur"]
