"""Event detection on synthetic series: blur, motion blur and sharpening."""

from __future__ import annotations

import numpy as np
import pytest

import tools.detectors.confirm  # noqa: F401 - declares the whole-video quantities
from tests.event_series import FPS, NINE, SIX, _frames, _one_span, _samples, _scenes
from tools.detectors import calibration as cal
from tools.detectors import detect_events


def test_blur_covering_most_of_a_scene_is_found_against_its_clean_start():
    s = _samples(60.0)
    inside = (s["t"] >= 24.0) & (s["t"] < 40.0)  # scene 20-40: 80 % blurred
    s["detail"][inside] *= 0.6
    s["sharpness"][inside] *= 0.5
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    _one_span(events, "blur", 24.0, 40.0)


def test_heavy_blur_is_found_from_the_sharpness_collapse_at_its_two_ends():
    """Defocus so strong that the detail ratio no longer falls (both scales are gone): native
    sharpness still collapses, abruptly where the blur starts and ends."""
    s = _samples(80.0)
    inside = (s["t"] >= 24.0) & (s["t"] < 46.0)
    s["sharpness"][inside] /= 5.0
    s["detail"][inside] *= 1.2
    events = detect_events(_frames(80.0), s, _scenes([0.0, 20.0, 40.0, 80.0]), FPS)
    blur = [e for e in events if e.type == "blur"]
    assert blur, events
    assert abs(min(e.start_s for e in blur) - 24.0) <= 1.0, blur
    assert abs(max(e.end_s for e in blur) - 46.0) <= 1.0, blur


def test_halo_raised_by_heavy_noise_is_not_whole_video_sharpening():
    """Heavy grain over most of the video lifts the halo where it is: the video's median halo
    passes the limit, the rest of the video does not."""
    s = _samples(60.0)
    noisy = (s["t"] >= 10.0) & (s["t"] < 45.0)
    s["halo"][noisy] *= 3.5
    s["noise"][noisy] = 25.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 30.0, 60.0]), FPS)
    assert [e for e in events if e.type == "noise"], events
    assert not [e for e in events if e.type == "sharpening"], events


def test_halo_all_through_is_whole_video_sharpening_even_with_lifted_grain():
    """Over-sharpening lifts the halo everywhere, beyond any clean video's (the calibrated
    whole.halo.p50), and the grain of its grainy scenes: the halo outside the "noisy" parts
    still shows the sharpening, which explains the grain."""
    s = _samples(60.0)
    s["halo"] *= 1.2 * cal.value("whole.halo.p50") / 8.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 30.0, 60.0]), FPS)
    assert [e.start_s for e in events if e.type == "sharpening"] == [0.0], events
    s["noise"][(s["t"] >= 10.0) & (s["t"] < 35.0)] = 12.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 30.0, 60.0]), FPS)
    assert [e.type for e in events] == ["sharpening"], events


def _sharper_half(sharpness: float, halo: float, detail: float, grain: float = 1.0) -> list:
    """Events of a scene (20-40 s) whose second half has its signals scaled by these factors."""
    s = _samples(60.0)
    part = (s["t"] >= 30.0) & (s["t"] < 40.0)
    s["sharpness"][part] *= sharpness
    s["halo"][part] *= halo
    s["detail"][part] *= detail
    s["noise"][part] *= grain
    return detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)


def test_an_over_sharpened_half_scene_is_sharpening_not_blur_of_the_other_half():
    """Unsharp masking lifts sharpness far more than the halo (here 6x against 1.8x, detail
    1.6x) and multiplies the grain (4x): the clean half is not reported blurred, the
    sharpened half is sharpening."""
    events = _sharper_half(6.0, 1.8, 1.6, grain=4.0)
    assert not [e for e in events if e.type == "blur"], events
    sharp = [e for e in events if e.type == "sharpening"]
    assert len(sharp) == 1, events
    assert abs(sharp[0].start_s - 30.0) <= 1.0 and abs(sharp[0].end_s - 40.0) <= 1.0, sharp


def test_a_blurred_half_scene_stays_blur():
    """Blur takes the strong-edge halo down further than the detail (2.5x against 1.5x; the
    sharpness 5x): the low half is the blurred one, nothing is over-sharpened."""
    events = _sharper_half(1 / 5.0, 1 / 2.5, 1 / 1.5)
    blur = [e for e in events if e.type == "blur"]
    assert len(blur) == 1 and abs(blur[0].start_s - 30.0) <= 1.0, events
    assert not [e for e in events if e.type == "sharpening"], events


@pytest.mark.parametrize(("factor", "lo", "hi"),
                         [(0.5, 0.3, 0.45), (0.08, 0.6, 0.8), (0.01, 0.9, 1.0)])
def test_blur_severity_follows_the_fall_of_sharpness(factor, lo, hi):
    """The detail ratio saturates for every blur; how far native sharpness falls against the
    clean rest of the scene tells slight from heavy, and heavy from heavier (a 12x fall no
    longer reads as severe as a 100x one)."""
    s = _samples(60.0)
    inside = (s["t"] >= 25.0) & (s["t"] < 35.0)
    s["detail"][inside] *= 0.5
    s["sharpness"][inside] *= factor
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    blur = [e for e in events if e.type == "blur"]
    assert len(blur) == 1, events
    assert lo <= blur[0].severity <= hi, blur[0]


@pytest.mark.parametrize(("sharpness", "found"), [(0.65, True), (1.2, False)])
def test_a_directional_smear_is_motion_blur_only_where_sharpness_falls(sharpness, found):
    """Anisotropy up from 0.3 to 1.0 for the first 10 s of a 25-s scene: motion blur when
    native sharpness falls there, content turning (a pan on long edges) when it rises."""
    s = _samples(60.0)
    s["aniso"][:] = 0.3
    inside = (s["t"] >= 20.0) & (s["t"] < 30.0)
    s["aniso"][inside] = 1.0
    s["sharpness"][inside] *= sharpness
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 45.0, 60.0]), FPS)
    motion = [e for e in events if e.subtype == "motion"]
    assert bool(motion) == found, events
    if found:
        assert abs(motion[0].start_s - 20.0) <= 1.0 and abs(motion[0].end_s - 30.0) <= 1.0


def test_heavy_blur_from_inside_the_last_shot_to_the_end_is_found():
    """Native sharpness collapses at 165 s inside a shot and stays down to the video's end:
    the step has no partner, the end of the video is its other end."""
    s = _samples(180.0)
    s["sharpness"][s["t"] >= 165.0] = 40.0
    events = detect_events(_frames(180.0), s, _scenes([0.0, 60.0, 150.0, 180.0]), FPS)
    blur = [e for e in events if e.type == "blur"]
    assert len(blur) == 1 and abs(blur[0].start_s - 165.0) <= 1.0 and blur[0].end_s >= 179.0, \
        events


def test_a_drop_in_the_last_sample_before_a_cut_is_not_blur_to_the_end():
    """A pan blurs the one sample before a cut into a soft last scene: no step to pair with
    the video's end (the step's own shot shows no stretch of it)."""
    s = _samples(180.0)
    s["sharpness"][(s["t"] >= 169.9) & (s["t"] < 170.3)] = 40.0
    s["sharpness"][s["t"] >= 170.3] = 30.0
    events = detect_events(_frames(180.0), s, _scenes([0.0, 60.0, 150.0, 170.3, 180.0]), FPS)
    assert not [e for e in events if e.type == "blur"], events


def test_a_slight_defocus_that_leaves_the_grain_stays_blur():
    """A slight defocus over 20-30 s, the first half of a scene, against sharp content all
    around (sharpness 10x, halo 2x, detail 3.2x the blurred part, as on one measured):
    it passes the sharpness and halo tests of over-sharpening of the other half, but the
    grain barely differs (1.25x), as blur leaves it: blur, not sharpening."""
    s = _samples(60.0)
    rest = ~((s["t"] >= 20.0) & (s["t"] < 30.0))
    for name, factor in (("sharpness", 10.0), ("halo", 2.0), ("detail", 3.2), ("noise", 1.25)):
        s[name][rest] *= factor
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert not [e for e in events if e.type == "sharpening"], events
    blur = [e for e in events if e.type == "blur"]
    assert blur and abs(blur[0].start_s - 20.0) <= 1.0 and abs(blur[0].end_s - 30.0) <= 1.0, \
        events


def test_a_sharp_spike_before_a_cut_does_not_make_the_soft_opening_blurred():
    """A soft opening scene (sharpness 25) whose last sample before the cut spikes (an encoder
    refresh): a lone step near the video's start, but the shot shows no stretch at the clean
    level, so the opening is not blur from the first frame."""
    s = _samples(180.0)
    t = s["t"]
    s["sharpness"][t < 12.0] = 25.0
    s["sharpness"][(t >= 11.5) & (t < 12.0)] = 90.0
    events = detect_events(_frames(180.0), s, _scenes([0.0, 12.0, 60.0, 180.0]), FPS)
    assert not [e for e in events if e.type == "blur"], events


def test_soft_in_every_scene_is_whole_video_blur():
    """Native sharpness low everywhere (its best tenth 10x below a clean video's) leaves no
    sharp shot to compare with: the whole video is blurred."""
    s = _samples(60.0)
    s["sharpness"] *= 0.1
    events = detect_events(_frames(60.0), s, _scenes(SIX), FPS)
    blur = [e for e in events if e.type == "blur"]
    assert len(blur) == 1 and blur[0].evidence["whole_video"], events
    assert blur[0].start_s == 0.0 and blur[0].severity >= 0.99, blur
    # one long shot may be soft all through: no whole-video judgement without a mix of shots
    events = detect_events(_frames(60.0), s, _scenes([0.0, 60.0]), FPS)
    assert not [e for e in events if e.evidence.get("whole_video")], events


def test_one_soft_scene_is_not_whole_video_blur():
    s = _samples(60.0)
    s["sharpness"][(s["t"] >= 20.0) & (s["t"] < 30.0)] *= 0.1
    events = detect_events(_frames(60.0), s, _scenes(SIX), FPS)
    assert not [e for e in events if e.evidence.get("whole_video")], events


def test_heavy_blur_switched_on_at_a_cut_is_found_from_its_end_inside_the_shot():
    """Defocus that starts with a shot (at its cut) and ends 15 s into it: only its end is a
    step inside a shot, and the shot's degraded side runs from the step back to the cut."""
    s = _samples(90.0)
    s["sharpness"][(s["t"] >= 30.0) & (s["t"] < 45.0)] = 40.0
    events = detect_events(_frames(90.0), s, _scenes([0.0, 30.0, 50.0, 90.0]), FPS)
    _one_span(events, "blur", 30.0, 45.0)


def test_a_refocus_after_a_slow_drift_is_not_blur_back_to_the_cut():
    """Focus drifting off through the first 15 s of a shot, then snapping back: the step up is
    abrupt, but the soft side does not run steady back to the cut (it opened sharp)."""
    s = _samples(90.0)
    part = (s["t"] >= 30.0) & (s["t"] < 45.0)
    s["sharpness"][part] = np.geomspace(300.0, 30.0, part.sum())
    s["sharpness"][(s["t"] >= 42.0) & (s["t"] < 45.0)] = 30.0
    events = detect_events(_frames(90.0), s, _scenes([0.0, 30.0, 50.0, 90.0]), FPS)
    assert not [e for e in events if e.type == "blur"], events


def test_a_sharpness_fall_where_oversaturation_ends_is_not_blur_to_the_cut():
    """Oversaturation switched off 15 s into a shot: clipped colours had added edges, so native
    sharpness falls there too, but with the saturation: the colour's end, not blur after it."""
    s = _samples(90.0)
    vivid = (s["t"] >= 30.0) & (s["t"] < 45.0)
    s["saturation"][vivid] = 190.0
    s["sharpness"][vivid] = 1500.0
    events = detect_events(_frames(90.0), s, _scenes([0.0, 30.0, 60.0, 90.0]), FPS)
    assert not [e for e in events if e.type == "blur"], events


def test_heavy_blur_over_the_last_shots_is_blur_to_the_end_unless_the_picture_is_flat():
    """Native sharpness under 60 in even the sharpest tenth of the last three shots (clean
    runs keep >= 110): blurred from the first of them to the end. A flat picture (contrast
    range 40) has a weak Laplacian without any blur: not read as blur."""
    s = _samples(180.0)
    s["sharpness"][s["t"] >= 120.0] = np.tile([30.0, 12.0, 25.0], 40)
    events = detect_events(_frames(180.0), s, _scenes(NINE), FPS)
    blur = [e for e in events if e.type == "blur"]
    assert blur and min(e.start_s for e in blur) == 120.0, events
    assert max(e.end_s for e in blur) >= 179.5 and max(e.severity for e in blur) >= 0.9, blur
    s["contrast_range"][s["t"] >= 120.0] = 40.0
    s["black"][s["t"] >= 120.0] = 100.0
    events = detect_events(_frames(180.0), s, _scenes(NINE), FPS)
    assert not [e for e in events if e.type == "blur" and e.start_s < 125.0], events


def test_a_camera_swing_inside_a_blur_does_not_split_it():
    """The camera's own fast motion is unjudged (`quiet`), not clean: a blurred stretch with a
    2.5-s swing in its middle is one event, while a clean judged gap as long still splits."""
    from tools.detectors.blur import SOFTNESS
    from tools.detectors.series import joined_runs
    from tools.detectors.spatial_events import spatial_events

    s = _samples(60.0)
    inside = (s["t"] >= 24.0) & (s["t"] < 46.0)
    s["detail"][inside] *= 0.5
    s["sharpness"][inside] *= 0.4
    swing = (s["t"] >= 33.0) & (s["t"] < 35.5)
    events, _ = spatial_events(s, _scenes([0.0, 20.0, 60.0]), SOFTNESS, quiet=swing)
    assert [(e.start_s, e.end_s) for e in events] == [(24.0, 46.0)], events

    t = np.arange(20) * 0.5
    flag = np.zeros(20, dtype=bool)
    flag[2:6] = flag[12:16] = True  # runs 3 s apart
    unjudged = np.zeros(20, dtype=bool)
    unjudged[6:12] = True
    assert joined_runs(flag, unjudged, t, 2.0) == [(2, 16)]
    unjudged[9] = False  # one judged, clean sample between them
    assert joined_runs(flag, unjudged, t, 2.0) == [(2, 6), (12, 16)]
