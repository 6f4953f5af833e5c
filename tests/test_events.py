"""Event detection on synthetic signal series: baselines, steps, cuts, and the temporal
events (freezes, drops, jitter); no video needed. Blur, noise and tone have their own files."""

from __future__ import annotations

import numpy as np

from tests.event_series import FPS, _frames, _samples, _scenes
from tools.detectors import detect_events


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
