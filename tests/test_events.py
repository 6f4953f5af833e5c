"""Event detection on synthetic signal series: baselines, steps, cuts (no video needed)."""

from __future__ import annotations

import numpy as np
import pytest

from tools.detectors import detect_events
from tools.model import Scene
from tools.signals import SAMPLE_SIGNALS

FPS = 25.0


def _samples(duration_s: float, rate: float = 2.0, seed: int = 0) -> dict[str, np.ndarray]:
    """Clean, slightly noisy spatial samples of a textured picture."""
    rng = np.random.default_rng(seed)
    t = np.arange(0, duration_s, 1 / rate)
    n = len(t)

    def around(v: float, rel: float = 0.03) -> np.ndarray:
        return (v * (1 + rel * rng.standard_normal(n))).astype(np.float32)

    s = {
        "sharpness": around(300.0), "noise": around(0.3), "impulse": np.zeros(n, np.float32),
        "blockiness": around(1.05, 0.01), "grid": around(1.1, 0.01), "halo": around(8.0),
        "detail": around(0.25), "aniso": around(0.1), "black": around(16.0), "white": around(235.0),
        "contrast_range": around(219.0), "saturation": around(45.0),
        "hue_x": around(0.2), "hue_y": around(0.1), "comb": around(0.001),
    }
    assert set(s) == set(SAMPLE_SIGNALS)
    s["t"] = t
    s["frame"] = np.round(t * FPS).astype(np.int64)
    return s


def _frames(duration_s: float) -> dict[str, np.ndarray]:
    n = int(duration_s * FPS)
    rng = np.random.default_rng(1)
    return {
        "t": np.arange(n) / FPS, "luma": np.full(n, 100.0) + rng.normal(0, 0.2, n),
        "contrast": np.full(n, 50.0), "diff": np.full(n, 2.0) + rng.normal(0, 0.1, n),
        "corr": np.full(n, 0.98), "motion_x": rng.normal(0, 0.05, n),
        "motion_y": rng.normal(0, 0.05, n), "motion_conf": np.full(n, 0.6),
    }


def _scenes(bounds: list[float]) -> list[Scene]:
    pairs = zip(bounds[:-1], bounds[1:], strict=True)
    return [Scene(a, b, int(a * FPS), int(b * FPS) - 1) for a, b in pairs]


def _one_span(events: list, kind: str, start_s: float, end_s: float) -> None:
    """Exactly one event of this type (or subtype), from start_s to end_s to within 1 s."""
    found = [e for e in events if kind in (e.type, e.subtype)]
    assert len(found) == 1, events
    assert abs(found[0].start_s - start_s) <= 1.0 and abs(found[0].end_s - end_s) <= 1.0, found


def test_blur_covering_most_of_a_scene_is_found_against_its_clean_start():
    s = _samples(60.0)
    inside = (s["t"] >= 24.0) & (s["t"] < 40.0)  # scene 20-40: 80 % blurred
    s["detail"][inside] *= 0.6
    s["sharpness"][inside] *= 0.5
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    _one_span(events, "blur", 24.0, 40.0)


def test_tone_of_a_whole_other_scene_is_not_bridged_into_an_event():
    s = _samples(60.0)
    dark = (s["t"] >= 20.0) & (s["t"] < 40.0)  # a naturally dark, flat middle scene
    s["contrast_range"][dark] = 50.0
    s["white"][dark] = 66.0
    dip = (s["t"] >= 17.0) & (s["t"] < 20.0)  # and a small natural dip before its cut
    s["contrast_range"][dip] *= 0.6
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert not [e for e in events if e.type == "exposure" and e.end_s > 21.0], events


def test_clean_series_gives_no_event():
    events = detect_events(_frames(60.0), _samples(60.0), _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert events == []


def test_a_needle_over_whole_scenes_is_found_from_its_two_ends():
    """Low contrast from 18.9 s to 43.6 s: two whole scenes, and only two clean samples in the
    scenes at either end, too few for any scene to have a clean part as its baseline."""
    s = _samples(80.0)
    inside = (s["t"] >= 18.9) & (s["t"] < 43.6)
    s["contrast_range"][inside] /= 2.5
    s["black"][inside] += 40.0
    s["white"][inside] -= 90.0
    events = detect_events(_frames(80.0), s, _scenes([0.0, 18.0, 27.0, 36.0, 44.6, 80.0]), FPS)
    low = [e for e in events if e.type == "exposure"]
    assert low, events
    assert min(e.start_s for e in low) <= 19.5 and max(e.end_s for e in low) >= 42.5, low
    assert all(e.start_s >= 18.5 and e.end_s <= 44.5 for e in low), low


def test_an_abrupt_change_that_does_not_hold_is_not_paired_into_an_event():
    """A dark object in a shot: the black level jumps up at 20 s, wanders back down, climbs
    slowly from 36 s and drops at 41 s. The jump up and the drop are alike, but the level does
    not stay up between them, so they are not one degradation."""
    s = _samples(80.0)
    t = s["t"]
    up = np.interp(t, [19.99, 20.0, 23.0, 23.5, 24.0, 25.0, 36.0, 38.0, 40.99, 41.0],
                   [0, 45, 45, 15, 35, 0, 0, 45, 45, 0], left=0, right=0)
    s["black"] += up.astype(np.float32)
    events = detect_events(_frames(80.0), s, _scenes([0.0, 15.0, 45.0, 80.0]), FPS)
    assert not [e for e in events if e.type == "exposure" and e.end_s - e.start_s > 10], events


def test_compressed_part_of_a_grainy_scene_is_not_its_noise_reference():
    """JPEG wipes out grain: the blocky part has the lowest noise, yet the grainy clean part
    is the scene's normal look, and the blocking is what gets reported."""
    s = _samples(60.0)
    s["noise"][:] = 0.5
    blocky = (s["t"] >= 26.0) & (s["t"] < 40.0)  # scene 20-40: its last 70 % compressed
    s["noise"][blocky] = 0.003
    s["blockiness"][blocky] = 30.0
    s["grid"][blocky] = 9.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert not [e for e in events if e.type == "noise"], events
    comp = [e for e in events if e.type == "compression"]
    assert comp and min(e.start_s for e in comp) <= 27.0, events


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


def test_impulse_noise_over_a_whole_scene_is_found():
    s = _samples(60.0)
    inside = (s["t"] >= 20.0) & (s["t"] < 40.0)  # exactly the middle scene
    s["impulse"][inside] = 0.03
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    noise = [e for e in events if e.type == "noise"]
    assert len(noise) == 1 and noise[0].start_s <= 20.5 and noise[0].end_s >= 39.5, events


def test_jerky_motion_inside_strong_impulse_noise_is_not_reported_as_jitter():
    s = _samples(60.0)
    f = _frames(60.0)
    jerky = (f["t"] >= 20.0) & (f["t"] < 40.0)
    f["motion_x"][jerky] += np.where(np.arange(jerky.sum()) % 2, 2.0, -2.0)
    scenes = _scenes([0.0, 30.0, 60.0])
    assert [e for e in detect_events(f, s, scenes, FPS) if e.type == "jitter"]
    s["impulse"][(s["t"] >= 19.0) & (s["t"] < 41.0)] = 0.05
    events = detect_events(f, s, scenes, FPS)
    assert not [e for e in events if e.type == "jitter"], events
    assert [e for e in events if e.type == "noise"], events


def test_grain_severity_follows_the_grain_a_viewer_sees():
    """Severity of grain comes from its measured sigma, not from how far it is from the
    scene's own: light grain is mild, heavy grain is severe, whatever the content."""
    sev = {}
    for sigma in (7.0, 15.0, 30.0):
        s = _samples(60.0)
        s["noise"][(s["t"] >= 25.0) & (s["t"] < 35.0)] = sigma
        events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
        sev[sigma] = max(e.severity for e in events if e.type == "noise")
    assert sev[7.0] < 0.6 <= sev[15.0] < 1.0 <= sev[30.0], sev


def test_a_hue_rotation_that_moves_the_tones_is_a_colour_event_not_exposure():
    """Rotating the colours also moves the luma of coloured pixels (black and white points
    shift); the event is the hue shift."""
    s = _samples(60.0)
    inside = (s["t"] >= 24.0) & (s["t"] < 36.0)
    hx, hy = s["hue_x"][inside].copy(), s["hue_y"][inside].copy()
    s["hue_x"][inside], s["hue_y"][inside] = -hy, hx  # +90 degrees
    s["black"][inside] += 45.0
    s["contrast_range"][inside] /= 1.8
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert [e for e in events if e.subtype == "hue shift"], events
    assert not [e for e in events if e.type == "exposure"], events


def test_compression_over_the_whole_video_is_judged_against_absolute_limits():
    """No scene is clean, so no baseline shows it; the absolute blocking level does."""
    s = _samples(60.0)
    s["blockiness"] *= 20.0
    s["grid"] *= 8.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    comp = [e for e in events if e.type == "compression"]
    assert comp and all(e.start_s == 0.0 and e.end_s >= 59.5 for e in comp), events
    assert max(e.severity for e in comp) == 1.0


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
    """Over-sharpening lifts the halo everywhere and the grain of its grainy scenes: the
    halo outside the "noisy" parts still shows the sharpening, which explains the grain."""
    s = _samples(60.0)
    s["halo"] *= 3.5
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


def test_contrast_reduced_all_through_is_a_whole_video_event():
    s = _samples(60.0)
    s["contrast_range"][:] = 45.0  # a fifth of the usual range, in every scene
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    low = [e for e in events if e.subtype == "low contrast"]
    assert len(low) == 1 and low[0].evidence["whole_video"], events


def test_grain_over_the_whole_video_is_found_at_its_absolute_level():
    """Grain in every scene leaves no clean reference; its absolute sigma still shows it."""
    s = _samples(60.0)
    s["noise"][:] = 8.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    grain = [e for e in events if e.subtype == "grain"]
    assert grain and sum(e.end_s - e.start_s for e in grain) >= 59.0, events
    assert all(0.4 < e.severity < 0.7 for e in grain), grain  # sigma 8: moderate (3.6 .. 28)


def test_grain_over_one_whole_scene_is_found_against_the_clean_floor():
    """A scene grainy from cut to cut has no clean part of its own; clean footage never shows
    grain sigma above the floor, so the scene still stands out."""
    s = _samples(60.0)
    s["noise"][(s["t"] >= 20.0) & (s["t"] < 40.0)] = 8.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    _one_span(events, "grain", 20.0, 40.0)


def test_a_jump_in_invisible_grain_is_not_noise():
    """Sigma 0.04 -> 0.6 is a 15x jump inside a scene, but still within clean footage."""
    s = _samples(60.0)
    s["noise"][:] = 0.04
    s["noise"][(s["t"] >= 25.0) & (s["t"] < 35.0)] = 0.6
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert not [e for e in events if e.type == "noise"], events


def test_blocking_over_one_whole_scene_is_found_against_the_clean_floor():
    s = _samples(60.0)
    s["blockiness"][(s["t"] >= 20.0) & (s["t"] < 40.0)] = 3.5
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    comp = [e for e in events if e.subtype == "blocking"]
    assert len(comp) == 1 and abs(comp[0].start_s - 20.0) <= 1.0, events


def test_what_a_whole_video_low_contrast_explains_is_not_reported_apart():
    """Flattening the tones of the whole video raises the block measure of its flattest
    scene: that is the contrast loss, reported once, not compression too."""
    s = _samples(60.0)
    s["contrast_range"][:] = 45.0
    s["blockiness"][(s["t"] >= 20.0) & (s["t"] < 40.0)] = 3.5
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert [e.subtype for e in events] == ["low contrast"], events


def test_blank_frames_are_not_a_freeze():
    """A picture washed out to white repeats itself exactly: that is overexposure, and the
    frames of the same picture with content still count as a freeze."""
    f = _frames(60.0)
    white = (f["t"] >= 20.0) & (f["t"] < 22.0)
    f["diff"][white], f["contrast"][white] = 0.0, 0.5
    assert not [e for e in detect_events(f, _samples(60.0), _scenes([0.0, 60.0]), FPS)
                if e.type in ("stutter", "frame_drop")]
    f["contrast"][white] = 50.0  # the same hold of a textured picture
    assert [e for e in detect_events(f, _samples(60.0), _scenes([0.0, 60.0]), FPS)
            if e.type in ("stutter", "frame_drop")]


def test_a_washed_out_whole_scene_is_overexposed():
    """Brightness pushed until the channels clip, over exactly one scene: no clean side to
    compare with, but bright darkest pixels and lost colour show it."""
    s = _samples(60.0)
    scene = (s["t"] >= 20.0) & (s["t"] < 35.0)
    s["black"][scene], s["saturation"][scene] = 170.0, 4.0
    s["contrast_range"][scene] = 85.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 35.0, 60.0]), FPS)
    bright = [e for e in events if e.type == "exposure" and e.subtype == "too bright"]
    assert len(bright) == 1, events
    assert abs(bright[0].start_s - 20.0) <= 1.0 and abs(bright[0].end_s - 35.0) <= 1.0
    s["saturation"][scene] = 70.0  # a bright scene that keeps its colour is content
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 35.0, 60.0]), FPS)
    assert not [e for e in events if e.type == "exposure" and e.subtype == "too bright"]


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


@pytest.mark.parametrize(("level", "lo", "hi"), [(2.8, 0.3, 0.55), (14.0, 0.79, 1.0)])
def test_blocking_severity_follows_its_absolute_level(level, lo, hi):
    s = _samples(60.0)
    inside = (s["t"] >= 25.0) & (s["t"] < 35.0)
    s["blockiness"][inside] = level
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    blocks = [e for e in events if e.type == "compression"]
    assert len(blocks) == 1, events
    assert lo <= blocks[0].severity <= hi, blocks[0]


def test_a_brief_bright_swing_stays_unconvincing_however_bright():
    """Severity 1 for a washed-out look must not let a 2-s swing of a bright scene through."""
    s = _samples(60.0)
    s["black"][:] = 102.0
    s["saturation"][:] = 40.0
    brief = (s["t"] >= 30.0) & (s["t"] < 32.0)
    s["black"][brief] = 150.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 60.0]), FPS)
    assert not [e for e in events if e.type == "exposure"], events


def test_slight_pixelation_over_a_whole_scene_is_found_beyond_the_clean_floor():
    """Grid 2.9 (a slight pixelation; clean footage stays below 2.5) over a whole 20-s scene:
    against the floor of 2.4 that is a small deviation, but the level is beyond anything
    clean footage shows."""
    s = _samples(60.0)
    s["grid"][(s["t"] >= 20.0) & (s["t"] < 40.0)] = 2.9
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    pix = [e for e in events if e.subtype == "pixelation"]
    assert len(pix) == 1 and pix[0].start_s <= 20.5 and pix[0].end_s >= 39.5, events


def _contrast_cut(s: dict[str, np.ndarray], inside: np.ndarray, black: float,
                  white: float) -> None:
    s["contrast_range"][inside] *= 0.8
    s["black"][inside] += black
    s["white"][inside] += white


def test_a_slight_contrast_cut_switched_on_and_off_is_low_contrast():
    """Contrast x0.8 from 25 s to 40 s (the end inside the next shot): a 0.22 log step, below
    the smallest deviation reported against a scene, but abrupt at both ends."""
    s = _samples(80.0, seed=3)
    _contrast_cut(s, (s["t"] >= 25.0) & (s["t"] < 40.0), black=20.0, white=-24.0)
    events = detect_events(_frames(80.0), s, _scenes([0.0, 15.0, 33.0, 60.0, 80.0]), FPS)
    low = [e for e in events if e.subtype == "low contrast"]
    assert len(low) == 1 and abs(low[0].start_s - 25.0) <= 1.0 and \
        abs(low[0].end_s - 40.0) <= 1.0, events


def test_a_range_step_that_moves_black_and_white_alike_is_not_low_contrast():
    """The same step in range with both points moving up (an exposure or content change):
    not a contrast cut, so the slight step alone is not reported."""
    s = _samples(80.0, seed=3)
    _contrast_cut(s, (s["t"] >= 25.0) & (s["t"] < 40.0), black=20.0, white=4.0)
    events = detect_events(_frames(80.0), s, _scenes([0.0, 15.0, 33.0, 60.0, 80.0]), FPS)
    assert not [e for e in events if e.subtype == "low contrast"], events


@pytest.mark.parametrize("saturation", [195.0, 240.0])
def test_an_oversaturated_side_is_no_reference_for_the_clean_rest(saturation):
    """A scene whose first quarter is oversaturated (colours clipped: darker, black 110, and
    more fine detail) and the rest clean and bright (black 160): the clean rest is neither
    too bright nor blurred."""
    s = _samples(60.0)
    scene = (s["t"] >= 20.0) & (s["t"] < 40.0)
    s["black"][scene] = 160.0
    s["saturation"][scene] = 110.0
    first = (s["t"] >= 20.0) & (s["t"] < 25.0)
    s["black"][first] = 110.0
    s["saturation"][first] = saturation
    s["detail"][first] *= 1.6
    s["sharpness"][first] *= 1.6
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert not [e for e in events if e.type in ("exposure", "blur") and e.start_s >= 24.0], \
        events


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


def _set_hue(s: dict[str, np.ndarray], where: np.ndarray, degrees: float) -> None:
    s["hue_x"][where] = 0.3 * np.cos(np.radians(degrees))
    s["hue_y"][where] = 0.3 * np.sin(np.radians(degrees))


def test_a_hue_shift_from_the_first_frame_is_the_side_before_its_lone_step():
    """Hue turned by 60 degrees from the start to 15 s, inside a shot running 8-22 s: the
    one step in that shot does not say which side is shifted, and the shifted side lies
    nearer the video's typical hue; the video's start is the shift's other end."""
    s = _samples(120.0)
    t = s["t"]
    _set_hue(s, t >= 0.0, 100.0)
    _set_hue(s, (t >= 8.0) & (t < 22.0), -66.0)
    _set_hue(s, t < 15.0, -6.0)
    events = detect_events(_frames(120.0), s, _scenes([0.0, 8.0, 22.0, 60.0, 120.0]), FPS)
    hue = [e for e in events if e.subtype == "hue shift"]
    assert len(hue) == 1 and hue[0].start_s <= 1.0 and abs(hue[0].end_s - 15.0) <= 1.0, events


def test_a_hue_shift_over_the_last_sixth_is_the_side_after_its_lone_step():
    """The mirror image, 28 s before the end of a 3-min video: hue turned by 60 degrees from
    152 s, inside a shot running 140-158 s, to the last frame."""
    s = _samples(180.0)
    t = s["t"]
    _set_hue(s, t >= 0.0, 100.0)
    _set_hue(s, (t >= 140.0) & (t < 158.0), -66.0)
    _set_hue(s, t >= 152.0, -6.0)
    events = detect_events(_frames(180.0), s, _scenes([0.0, 60.0, 140.0, 158.0, 180.0]), FPS)
    hue = [e for e in events if e.subtype == "hue shift"]
    assert len(hue) == 1 and abs(hue[0].start_s - 152.0) <= 1.0 and hue[0].end_s >= 179.0, \
        events


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


def test_motion_anisotropy_is_not_paired_across_shots():
    """A fast pan smears the end of one shot and another shot later starts on long straight
    edges: two anisotropy jumps in different shots, content both, not one motion blur."""
    s = _samples(120.0)
    t = s["t"]
    s["aniso"][:] = 0.2
    s["aniso"][(t >= 38.0) & (t < 40.0)] = 1.1
    s["sharpness"][(t >= 38.0) & (t < 40.0)] *= 0.5
    s["aniso"][(t >= 60.0) & (t < 68.0)] = 1.0
    events = detect_events(_frames(120.0), s, _scenes([0.0, 40.0, 50.0, 60.0, 120.0]), FPS)
    assert not [e for e in events if e.subtype == "motion" and e.end_s - e.start_s > 5], events


SIX = [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0]  # a minute of six 10-s shots


def _toned(blacks: list[float]) -> dict[str, np.ndarray]:
    """Six 10-s scenes with these black points (white 235: the range follows)."""
    s = _samples(60.0)
    for k, black in enumerate(blacks):
        part = (s["t"] >= 10.0 * k) & (s["t"] < 10.0 * (k + 1))
        s["black"][part] = black
        s["contrast_range"][part] = 235.0 - black
    return s


def test_blacks_lifted_in_every_scene_are_one_whole_video_overexposure():
    """No shot reaches below mid-grey: the whole video is washed out, one event, not
    fragments of too-bright and low-contrast shots."""
    s = _toned([150.0, 175.0, 160.0, 200.0, 150.0, 170.0])
    s["black"][(s["t"] >= 45.0) & (s["t"] < 48.0)] = 230.0  # and a blown-out moment
    events = detect_events(_frames(60.0), s, _scenes(SIX), FPS)
    expo = [e for e in events if e.type == "exposure"]
    assert [(e.subtype, e.start_s) for e in expo] == [("too bright", 0.0)], events
    assert expo[0].evidence["whole_video"] and expo[0].end_s >= 59.5, expo
    assert expo[0].severity >= 0.99, expo


def test_one_bright_scene_is_not_a_whole_video_overexposure():
    events = detect_events(_frames(60.0), _toned([16.0, 175.0, 20.0, 30.0, 16.0, 16.0]),
                           _scenes(SIX), FPS)
    assert not [e for e in events if e.evidence.get("whole_video")], events


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


def _hue_swing(length: float) -> list:
    """Events of a video whose middle scene turns its mean hue from 30 to 170 degrees
    halfway, with a hue vector of this length (saturation 90: a full cast is 0.35 long)."""
    s = _samples(60.0)
    s["saturation"][:] = 90.0
    angle = np.where((s["t"] >= 30.0) & (s["t"] < 40.0), 170.0, 30.0)
    s["hue_x"] = (length * np.cos(np.radians(angle))).astype(np.float32)
    s["hue_y"] = (length * np.sin(np.radians(angle))).astype(np.float32)
    return detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)


def test_a_hue_turn_of_a_coherent_picture_is_a_hue_shift():
    assert [e.start_s for e in _hue_swing(0.25) if e.subtype == "hue shift"] == [30.0]


def test_the_hue_of_a_picture_whose_colours_cancel_out_is_not_judged():
    """A vector 0.06 long against a saturation of 90 (colours all around the wheel): its
    angle follows the balance of the content, not a cast."""
    assert not [e for e in _hue_swing(0.06) if e.subtype == "hue shift"]


def test_a_scene_whose_hue_lies_opposite_the_video_typical_is_its_own_reference():
    """A steady scene near -146 degrees in a video typically at +35: taken around the typical
    level its hues straddle the +-180 seam (-177 and +177), and with one stray sample the
    low quintile fell between the two sides; its own centre is its reference."""
    s = _samples(60.0)
    angle = np.full(len(s["t"]), 35.0)
    middle = np.flatnonzero((s["t"] >= 20.0) & (s["t"] < 40.0))
    angle[middle] = -148.0
    angle[middle[2:37:5]] = -142.0  # 7 of the 40
    angle[middle[-1]] = 28.0
    s["hue_x"] = (0.3 * np.cos(np.radians(angle))).astype(np.float32)
    s["hue_y"] = (0.3 * np.sin(np.radians(angle))).astype(np.float32)
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert not [e for e in events if e.subtype == "hue shift"], events


def _holds(pattern: list[int], start_s: float = 20.0, gap: int = 12) -> dict[str, np.ndarray]:
    """Frames with holds of these lengths (repeated frames: no change), `gap` frames apart."""
    f = _frames(60.0)
    k = int(start_s * FPS)
    for length in pattern:
        f["diff"][k:k + length] = 0.0
        k += length + gap
    return f


def test_a_long_freeze_seen_in_pieces_is_stutter():
    """Six 24-frame freezes, each broken by encoder noise into pieces (22 + 1 + 1 frames):
    most holds are short, yet nine tenths of the held time lies in long ones."""
    f = _holds([22, 1, 1] * 6, gap=1)
    ev = [e for e in detect_events(f, _samples(60.0), _scenes([0.0, 60.0]), FPS)
          if e.type in ("stutter", "frame_drop")]
    assert [e.type for e in ev] == ["stutter"], ev
    assert ev[0].severity >= 0.85, ev  # frozen ~20 frames at a time: severe


def test_single_frame_holds_with_a_few_pairs_are_frame_drops():
    f = _holds([1, 1, 2, 1, 1, 1, 2, 1, 1, 4] * 3)
    ev = [e for e in detect_events(f, _samples(60.0), _scenes([0.0, 60.0]), FPS)
          if e.type in ("stutter", "frame_drop")]
    assert ev and {e.type for e in ev} == {"frame_drop"}, ev


def test_a_burst_of_drops_with_a_few_short_freezes_stays_frame_drops():
    """Two thirds of the held time in 4-7-frame holds, none longer: a heavy burst of frame
    drops, not a freeze broken into pieces."""
    f = _holds([1, 2, 1, 5, 1, 6, 7, 1, 2, 4, 1, 1, 1], gap=3)
    ev = [e for e in detect_events(f, _samples(60.0), _scenes([0.0, 60.0]), FPS)
          if e.type in ("stutter", "frame_drop")]
    assert [e.type for e in ev] == ["frame_drop"], ev


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


def test_colour_oversaturated_in_every_scene_is_a_whole_video_event():
    """Even the least saturated tenth of the video is vivid (p10 >= 80): saturation pushed up
    all through, one event over the video (a single vivid shot is not)."""
    s = _samples(60.0)
    s["saturation"][:] = np.tile([100.0, 180.0, 250.0, 120.0, 240.0, 200.0], 20)
    events = detect_events(_frames(60.0), s, _scenes(SIX), FPS)
    whole = [e for e in events if e.evidence.get("whole_video")]
    assert [(e.type, e.subtype, e.start_s) for e in whole] == \
        [("colour", "oversaturation", 0.0)], events
    assert whole[0].end_s >= 59.5 and whole[0].severity >= 0.6, whole
    s = _samples(60.0)
    s["saturation"][(s["t"] >= 20.0) & (s["t"] < 30.0)] = 250.0
    events = detect_events(_frames(60.0), s, _scenes(SIX), FPS)
    assert not [e for e in events if e.evidence.get("whole_video")], events


NINE = [0.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0, 140.0, 160.0, 180.0]  # 3 min, 20-s shots


def test_blacks_lifted_in_the_last_shots_are_overexposure_to_the_end():
    """The last three 20-s shots have no dark pixels (black p10 >= 80) and the first six do:
    overexposure from the first lifted shot to the end, though no shot shows a clean side."""
    s = _samples(180.0)
    s["black"][s["t"] >= 120.0] = np.tile([95.0, 150.0, 110.0], 40)
    events = detect_events(_frames(180.0), s, _scenes(NINE), FPS)
    bright = [e for e in events if e.subtype == "too bright"]
    assert bright and min(e.start_s for e in bright) == 120.0, events
    assert max(e.end_s for e in bright) >= 179.5, bright
    # two lifted shots at the end are not enough: bright content comes in runs that short
    s = _samples(180.0)
    s["black"][s["t"] >= 140.0] = 150.0
    s["black"][(s["t"] >= 139.0) & (s["t"] < 141.0)] = 16.0
    events = detect_events(_frames(180.0), s, _scenes(NINE), FPS)
    assert not [e for e in events if e.subtype == "too bright" and e.start_s < 141.0], events


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
