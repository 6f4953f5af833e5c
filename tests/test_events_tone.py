"""Event detection on synthetic series: exposure, contrast, saturation and hue (colour)."""

from __future__ import annotations

import numpy as np
import pytest

import tools.detectors.confirm  # noqa: F401 - declares the whole-video quantities
from tests.event_series import FPS, NINE, SIX, _frames, _samples, _scenes
from tools.detectors import calibration as cal
from tools.detectors import detect_events


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


def test_contrast_reduced_all_through_is_a_whole_video_event():
    s = _samples(60.0)
    s["contrast_range"][:] = 45.0  # a fifth of the usual range, in every scene
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    low = [e for e in events if e.subtype == "low contrast"]
    assert len(low) == 1 and low[0].evidence["whole_video"], events


def test_what_a_whole_video_low_contrast_explains_is_not_reported_apart():
    """Flattening the tones of the whole video raises the block measure of its flattest
    scene: that is the contrast loss, reported once, not compression too."""
    s = _samples(60.0)
    s["contrast_range"][:] = 45.0
    s["blockiness"][(s["t"] >= 20.0) & (s["t"] < 40.0)] = 3.5
    events = detect_events(_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert [e.subtype for e in events] == ["low contrast"], events


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


def test_a_brief_bright_swing_stays_unconvincing_however_bright():
    """Severity 1 for a washed-out look must not let a 2-s swing of a bright scene through."""
    s = _samples(60.0)
    s["black"][:] = 102.0
    s["saturation"][:] = 40.0
    brief = (s["t"] >= 30.0) & (s["t"] < 32.0)
    s["black"][brief] = 150.0
    events = detect_events(_frames(60.0), s, _scenes([0.0, 60.0]), FPS)
    assert not [e for e in events if e.type == "exposure"], events


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


def test_colour_oversaturated_in_every_scene_is_a_whole_video_event(monkeypatch):
    """Even the least saturated tenth of the video is vivid (p10 >= 80): saturation pushed up
    all through, one event over the video (a single vivid shot is not). The calibrated
    limit (whole.saturation.p10) lies beyond the 0-255 scale (clean cartoons reach 176), so
    the judgement is shown with it at the nominal 80; with the stored one there is none."""
    s = _samples(60.0)
    s["saturation"][:] = np.tile([100.0, 180.0, 250.0, 120.0, 240.0, 200.0], 20)
    stored = cal.value
    if stored("whole.saturation.p10") > 255.0:
        events = detect_events(_frames(60.0), s, _scenes(SIX), FPS)
        assert not [e for e in events if e.evidence.get("whole_video")], events
    monkeypatch.setattr(cal, "value", lambda key: 80.0 if key == "whole.saturation.p10"
                        else stored(key))
    events = detect_events(_frames(60.0), s, _scenes(SIX), FPS)
    whole = [e for e in events if e.evidence.get("whole_video")]
    assert [(e.type, e.subtype, e.start_s) for e in whole] == \
        [("colour", "oversaturation", 0.0)], events
    assert whole[0].end_s >= 59.5 and whole[0].severity >= 0.6, whole
    s = _samples(60.0)
    s["saturation"][(s["t"] >= 20.0) & (s["t"] < 30.0)] = 250.0
    events = detect_events(_frames(60.0), s, _scenes(SIX), FPS)
    assert not [e for e in events if e.evidence.get("whole_video")], events


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
