"""Shake that the same picture shows wherever the video replays it is the footage's own
motion, not a defect (tools/detectors/twin_motion.py)."""

from __future__ import annotations

import numpy as np

from tools.detectors.jitter import shake_levels
from tools.detectors.twin_motion import (
    course_replays,
    replayed_course,
    replayed_shake,
    shake_level,
    without_replayed_shake,
)
from tools.model import Event, Scene

T = np.arange(0.0, 120.0, 0.5)  # samples every 0.5 s; the montage repeats every 30 s


def _twins(lag_s: float = 30.0) -> np.ndarray:
    """Each sample's replays: the samples a whole number of cycles away."""
    lag = int(lag_s / 0.5)
    out = np.full((len(T), 3), -1, dtype=np.int64)
    for i in range(len(T)):
        others = [j for j in range(i % lag, len(T), lag) if j != i]
        out[i, :len(others)] = others[:3]
    return out


def _shake(hand_held_in_every_cycle: bool) -> np.ndarray:
    """Log shake level: a still 0.05 everywhere, 1.2 over 22-27 s of the cycle (a hand-held
    clip in a montage of tripod shots) in every cycle, or in the first cycle only (shake
    added to one stretch)."""
    x = np.full(len(T), np.log(0.15))
    phase = T % 30.0
    clip = (phase >= 22.0) & (phase < 27.0)
    x[clip if hand_held_in_every_cycle else clip & (T < 30.0)] = np.log(1.3)
    return x


EVENT = Event("jitter", 22.7, 26.7, 1.0, 7.0, "camera shake", {})


def test_the_same_shake_in_every_replay_is_the_pictures_own():
    samples = {"t": T}
    assert replayed_shake(EVENT, _shake(True), samples, _twins())


def test_shake_added_to_one_replay_stays():
    assert not replayed_shake(EVENT, _shake(False), {"t": T}, _twins())


def test_without_enough_replays_nothing_is_judged():
    twins = _twins()
    twins[:, 1:] = -1  # one replay each: fewer than MIN_TWINS
    assert not replayed_shake(EVENT, _shake(True), {"t": T}, twins)
    other = Event("blur", 22.7, 26.7, 1.0, 7.0, "softness", {})
    assert not replayed_shake(other, _shake(True), {"t": T}, _twins())


# Frame resolution: a montage cycling every 750 frames at 25 fps (30 s, 62.5 steps of the
# 12-frame sample grid, so the samples of every other replay fall 6 frames off).
FPS = 25.0
CYCLE = 750
N = 4 * CYCLE


def _frames(shaken_cycles: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Per-frame series of a 4-cycle montage: the mean luma and contrast follow the same
    random course in every cycle; the global motion is still but in 22-27 s of the cycle,
    where it swings back and forth (in the cycles listed)."""
    rng = np.random.default_rng(5)
    course = np.cumsum(rng.normal(0, 0.4, CYCLE)) + 120
    spread = np.cumsum(rng.normal(0, 0.2, CYCLE)) + 40
    t = np.arange(N) / FPS
    mx, my = np.zeros(N), np.zeros(N)
    for c in shaken_cycles:
        at = np.arange(c * CYCLE + 550, c * CYCLE + 675)
        mx[at] = 6.0 * np.sin(2 * np.pi * 3.1 * t[at])
        my[at] = 4.0 * np.cos(2 * np.pi * 2.3 * t[at])
    return {"t": t, "luma": np.tile(course, 4), "contrast": np.tile(spread, 4),
            "motion_x": mx, "motion_y": my, "motion_conf": np.full(N, 0.9),
            "diff": np.full(N, 3.0)}


def test_a_replay_between_samples_is_found_at_frame_resolution():
    frames = _frames((0, 1, 2, 3))
    assert course_replays(frames, 550, 675, FPS) == [CYCLE, 2 * CYCLE, 3 * CYCLE]


def test_a_still_course_has_no_replays():
    frames = _frames((0, 1, 2, 3))
    frames["luma"] = np.full(N, 120.0)
    frames["contrast"] = np.full(N, 40.0)
    assert course_replays(frames, 550, 675, FPS) == []


def test_shake_every_replay_shows_is_dropped_shake_added_once_stays():
    scenes = [Scene(0.0, N / FPS, 0, N - 1)]
    event = Event("jitter", 22.0, 27.0, 1.0, 2.0, "camera shake", {})
    def judged(frames: dict[str, np.ndarray]) -> list[Event]:
        level = shake_level([event], frames, scenes, FPS)
        return without_replayed_shake([event], frames, level, FPS)

    own, added = judged(_frames((0, 1, 2, 3))), judged(_frames((0,)))
    assert own == [] and added == [event]
    level = shake_levels(_frames((0,)), scenes, FPS)[0]
    assert not replayed_course(event, _frames((0,)), level, FPS)
