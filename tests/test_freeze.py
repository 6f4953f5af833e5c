"""Frozen-picture detector and the calibration machinery it reads its limit from."""

from __future__ import annotations

import numpy as np
import pytest

from tools.detectors import calibration as cal
from tools.detectors.freeze import STILL_RATIO, freeze_events, still_ratio


def _frames(n: int, fps: float, diff: np.ndarray) -> dict[str, np.ndarray]:
    return {"t": np.arange(n) / fps, "diff": diff.astype(np.float32),
            "contrast": np.full(n, 40.0, np.float32)}


def _moving(n: int, rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(2.0, 6.0, n)


def test_freeze_with_encoder_residual_is_found():
    """A 6-s freeze whose frames still differ by ~0.3 % of the typical motion (an encoder's
    residual, not zero) is one freeze event at its place."""
    fps, n = 24.0, 24 * 60
    rng = np.random.default_rng(1)
    diff = _moving(n, rng)
    a, b = 20 * 24, 26 * 24
    diff[a:b] = 0.003 * np.median(diff)
    events = freeze_events(_frames(n, fps, diff), fps)
    assert len(events) == 1
    e = events[0]
    assert e.type == "freeze"
    assert abs(e.start_s - 20.0) < 0.1 and abs(e.end_s - 26.0) < 0.1
    assert e.evidence["duration_s"] == pytest.approx(6.0, abs=0.1)


def test_still_camera_noise_is_no_freeze():
    """A still shot keeps its camera noise (here 20 % of the typical motion): not frozen."""
    fps, n = 25.0, 25 * 60
    rng = np.random.default_rng(2)
    diff = _moving(n, rng)
    diff[500:900] = 0.2 * np.median(diff)
    assert freeze_events(_frames(n, fps, diff), fps) == []


def test_keyframe_inside_a_freeze_does_not_split_it():
    fps, n = 10.0, 600
    rng = np.random.default_rng(3)
    diff = _moving(n, rng)
    diff[200:260] = 0.0
    diff[230] = 0.5  # a keyframe re-coding the frozen picture
    events = freeze_events(_frames(n, fps, diff), fps)
    assert [(e.start_s, e.end_s) for e in events] == [(19.9, 26.0)]


def test_short_hold_and_blank_frames_are_no_freeze():
    fps, n = 25.0, 1500
    rng = np.random.default_rng(4)
    diff = _moving(n, rng)
    diff[100:110] = 0.0  # 0.4 s: a held drawing, not a freeze
    diff[600:800] = 0.0
    frames = _frames(n, fps, diff)
    frames["contrast"][590:810] = 0.5  # a black screen repeats itself
    assert freeze_events(frames, fps) == []


def test_still_ratio_is_relative_to_the_motion_around():
    """A quiet shot's slow motion is not frozen beside a busy one's; its own freeze is."""
    fps = 10.0
    diff = np.concatenate([np.full(600, 8.0), np.full(600, 0.3)])
    r = still_ratio({"diff": diff}, fps)
    assert np.median(r[700:1200]) == pytest.approx(1.0)
    assert np.median(r[:500]) == pytest.approx(1.0)
    diff[900:940] = 0.001
    rng = np.random.default_rng(0)
    diff[:600] += rng.uniform(0, 1, 600)
    events = freeze_events(_frames(1200, fps, diff), fps)
    assert [(e.start_s, e.end_s) for e in events] == [(89.9, 94.0)]


def test_tail_limit_never_inside_clean_values():
    clean = [1.0, 1.1, 0.9, 1.05, 0.95]
    up = cal.tail_limit(clean, +1, 0.001)
    down = cal.tail_limit(clean, -1, 0.001)
    assert up > max(clean) and down < min(clean)
    # a single clean value: the limit keeps the stated margin beyond it
    assert cal.tail_limit([2.0], +1, 0.001) == pytest.approx(2.0 * cal.MARGIN)
    assert cal.tail_limit([0.0, 1.0], +1, 0.001, offset=10.0) > 1.0  # zeros on a log scale
    with pytest.raises(ValueError):
        cal.tail_limit([float("nan")], +1, 0.001)


def test_one_sided_fit_ignores_the_spread_on_the_other_side():
    # ratios bunched just under 1, the lower ones spread far down (a blur lowers the kinks
    # as much as it is strong): only the upper side says how far a ratio may rise
    ratios = [0.42, 0.43, 0.5, 0.55, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0]
    both = cal.tail_limit(ratios, +1, 0.001)
    upper = cal.tail_limit(ratios, +1, 0.001, one_sided=True)
    assert max(ratios) < upper < both
    # spreading the lower side further moves the two-sided limit, not the one-sided one
    wider = [r / 2 if r < 0.7 else r for r in ratios]
    assert cal.tail_limit(wider, +1, 0.001) > both
    assert cal.tail_limit(wider, +1, 0.001, one_sided=True) == pytest.approx(upper)
    # direction -1: the side below the median
    down = cal.tail_limit([1 / r for r in ratios], -1, 0.001, one_sided=True)
    assert down == pytest.approx(1 / upper)


def test_calibrate_measures_declared_quantity_on_clean_videos():
    fps = 10.0
    rng = np.random.default_rng(5)
    videos = []
    for k in range(4):
        diff = _moving(300, rng)
        diff[100:120] = 0.5 + 0.1 * k  # the stillest stretch of each clean video
        frames = _frames(300, fps, diff)
        videos.append(cal.CleanVideo(f"v{k}", fps, frames, {}, [], []))
    out = cal.calibrate(videos, keys=[STILL_RATIO.key])
    entry = out[STILL_RATIO.key]
    assert entry["n"] == 4
    assert entry["value"] < entry["clean_min"]  # below every clean video's stillest second
    assert entry["direction"] == -1


def test_refresh_and_its_convergence_join_a_two_second_freeze():
    """A 2-s freeze whose picture an encoder re-codes 0.8 s in (a keyframe or golden-frame
    refresh: a small change of the picture, then two frames converging back) is one freeze,
    though neither part lasts the 1.8 s alone."""
    fps, n = 24.0, 24 * 60
    rng = np.random.default_rng(5)
    diff = _moving(n, rng)
    a, b = 20 * 24 + 1, 22 * 24
    diff[a:b] = 0.0
    diff[a + 20:a + 23] = [0.9, 0.3, 0.2]  # refresh, convergence
    events = freeze_events(_frames(n, fps, diff), fps)
    assert [(e.start_s, e.end_s) for e in events] == [(20.0, 22.0)]


def test_a_new_picture_between_two_held_ones_is_no_freeze():
    """Two held drawings of 1.2 s with a cut-like change between them: no freeze."""
    fps, n = 25.0, 25 * 60
    rng = np.random.default_rng(6)
    diff = _moving(n, rng)
    diff[500:530] = 0.0
    diff[530] = 30.0  # a new picture (three quarters of its spread)
    diff[531:561] = 0.0
    assert freeze_events(_frames(n, fps, diff), fps) == []


def test_a_still_live_shot_is_not_joined_across_its_small_changes():
    """A still live shot (a launch pad in a busy video): stretches nearly held, a few frames
    changing a little between them, but no frame an exact copy: no freeze."""
    fps, n = 20.0, 20 * 60
    rng = np.random.default_rng(9)
    diff = _moving(n, rng)
    still = np.full(60, 0.05)  # 3 s, far under the motion around
    still[8::10] = 0.5
    still[9::10] = 0.3
    diff[400:460] = still
    assert freeze_events(_frames(n, fps, diff), fps) == []


def test_a_freeze_counts_from_where_the_encoder_began_converging_on_it():
    """A 2-s freeze whose first 0.3 s carry an encoder's converging residuals (VP9 on a still
    shot: not held against the typical motion, yet far under the motion before the freeze)
    starts where the picture stopped, not where the residual died out."""
    fps, n = 24.0, 24 * 60
    rng = np.random.default_rng(10)
    diff = _moving(n, rng)
    diff[481:488] = [0.9, 0.1, 0.8, 0.1, 0.6, 0.2, 0.3]
    diff[488:528] = 0.0
    events = freeze_events(_frames(n, fps, diff), fps)
    assert [(e.start_s, e.end_s) for e in events] == [(20.0, 22.0)]


def test_a_refresh_after_which_vp9_never_copies_exactly_again_still_joins():
    """VP9 (realtime) refreshes a held picture 0.2 s into a 2-s freeze and then keeps
    re-coding it with a tiny residual (0.004-0.04 grey levels, never an exact copy): the part
    before the refresh converged exactly, so the two are one freeze (before, each part had to
    show an exact copy and the 1.8-s rest alone fell a frame short)."""
    fps, n = 30.0, 30 * 60
    rng = np.random.default_rng(11)
    diff = _moving(n, rng)
    a = 20 * 30 + 1
    diff[a:a + 6] = [0.04, 0.01, 0.006, 0.0, 0.0, 1.3]  # held, exact, then the refresh
    diff[a + 6:a + 59] = np.resize([0.04, 0.005, 0.004, 0.02, 0.02, 0.004], 53)
    events = freeze_events(_frames(n, fps, diff), fps)
    assert [(round(e.start_s, 1), round(e.end_s, 1)) for e in events] == [(20.0, 22.0)]
    assert events[0].evidence["refreshes"] == 1
