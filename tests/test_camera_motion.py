"""The camera's own motion blur and still moments are not degradations: softness while the
camera swings fast for its footage raises no blur event, and frames repeated inside a still
moment raise no frame drop, while the same signals in ordinary footage still do."""

from __future__ import annotations

import numpy as np

from tests.test_events import FPS, _frames, _samples, _scenes
from tools.detectors import detect_events
from tools.detectors.camera_motion import PAN_FLOOR, fast_motion
from tools.detectors.repeats import repeat_events
from tools.detectors.series import dilated


def _swing(frames: dict[str, np.ndarray], start: float, end: float, speed: float) -> None:
    """The camera moves `speed` px/frame (analysis picture) from start to end."""
    inside = (frames["t"] >= start) & (frames["t"] < end)
    frames["motion_x"][inside] = speed


def test_fast_motion_marks_a_swing_but_not_steady_hand_held_motion():
    f = _frames(60.0)
    _swing(f, 20.0, 22.0, 4.0)
    t = np.arange(0, 60.0, 0.5)
    fast = fast_motion(f, t)
    assert fast[(t >= 20.5) & (t < 21.5)].all()
    assert not fast[(t < 19.0) | (t >= 23.0)].any()
    # A camera that moves this fast all the time: its motion is its footage's usual motion.
    g = _frames(60.0)
    _swing(g, 0.0, 60.0, 4.0)
    assert not fast_motion(g, t).any()
    # Slow drift, even twice the usual, is not fast.
    h = _frames(60.0)
    _swing(h, 20.0, 22.0, PAN_FLOOR / 2)
    assert not fast_motion(h, t).any()


def test_dilated_grows_a_mask_each_side():
    m = np.zeros(10, dtype=bool)
    m[4] = True
    assert dilated(m, 1).nonzero()[0].tolist() == [3, 4, 5]
    assert dilated(m, 2).nonzero()[0].tolist() == [2, 3, 4, 5, 6]


def _soft(s: dict[str, np.ndarray], start: float, end: float) -> None:
    inside = (s["t"] >= start) & (s["t"] < end)
    s["detail"][inside] *= 0.55
    s["sharpness"][inside] *= 0.3


def test_softness_during_a_fast_swing_is_not_blur():
    s, f = _samples(60.0), _frames(60.0)
    _soft(s, 30.0, 32.0)
    _swing(f, 30.0, 32.0, 5.0)
    events = detect_events(f, s, _scenes([0.0, 60.0]), FPS)
    assert not [e for e in events if e.type == "blur"], events


def test_the_same_softness_with_a_steady_camera_is_blur():
    s, f = _samples(60.0), _frames(60.0)
    _soft(s, 30.0, 32.0)
    events = detect_events(f, s, _scenes([0.0, 60.0]), FPS)
    blur = [e for e in events if e.type == "blur"]
    assert len(blur) == 1 and 29.0 <= blur[0].start_s <= 31.0, events


def test_blur_outlasting_a_swing_is_still_found_outside_it():
    s, f = _samples(90.0), _frames(90.0)
    _soft(s, 30.0, 50.0)
    _swing(f, 30.0, 31.5, 5.0)
    events = detect_events(f, s, _scenes([0.0, 90.0]), FPS)
    blur = [e for e in events if e.type == "blur"]
    assert blur and max(e.end_s for e in blur) >= 49.0, events


def _diffs(n: int, still: slice, moving: float = 2.0, near: float = 0.12) -> np.ndarray:
    """Frame differences of a moving shot with a still moment (`still`) in it."""
    rng = np.random.default_rng(3)
    d = moving + rng.normal(0, 0.1, n)
    d[still] = near + rng.normal(0, 0.02, still.stop - still.start)
    return d


def _with_copies(d: np.ndarray, at: list[int]) -> dict[str, np.ndarray]:
    d = d.copy()
    d[at] = 0.0
    n = len(d)
    return {"t": np.arange(n) / FPS, "diff": d, "contrast": np.full(n, 50.0)}


def test_copies_inside_a_still_moment_are_no_frame_drop():
    d = _diffs(500, slice(100, 140))
    frames = _with_copies(d, [104, 110, 116, 122, 128])
    assert repeat_events(frames, np.zeros(500, dtype=np.int64), FPS) == []


def test_the_same_copies_in_moving_footage_are_a_frame_drop():
    d = _diffs(500, slice(400, 440))
    frames = _with_copies(d, [104, 110, 116, 122, 128])
    events = repeat_events(frames, np.zeros(500, dtype=np.int64), FPS)
    assert [e.type for e in events] == ["frame_drop"]
    assert 3.5 <= events[0].start_s <= 4.3 and 5.0 <= events[0].end_s <= 5.5
