"""Shake that the same picture shows wherever the video replays it is the footage's own
motion, not a defect (tools/detectors/twin_motion.py)."""

from __future__ import annotations

import numpy as np

from tools.detectors.twin_motion import replayed_shake
from tools.model import Event

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
