"""Repeated-frame detector: holds must stand apart from the changes around them."""

from __future__ import annotations

import numpy as np

from tools.detectors.repeats import repeat_events

FPS = 24.0


def _frames(diff: np.ndarray) -> dict[str, np.ndarray]:
    n = len(diff)
    return {"t": np.arange(n) / FPS, "diff": diff.astype(np.float32),
            "contrast": np.full(n, 40.0, np.float32)}


def test_alternating_codec_qualities_on_a_still_shot_are_no_repeats():
    """A still shot coded with alternating frame qualities (VP9 alt-ref: changes spread from
    0.03 to 0.8 grey levels): its smallest changes are the small end of that spread, not
    repeated frames."""
    rng = np.random.default_rng(7)
    n = int(60 * FPS)
    diff = np.exp(rng.uniform(np.log(0.03), np.log(0.8), n))
    assert repeat_events(_frames(diff), np.zeros(n, dtype=np.int64), FPS) == []


def test_dropped_frames_in_alternating_motion_are_found():
    """Exact repeats in moving footage with alternating frame qualities are frame drops."""
    rng = np.random.default_rng(8)
    n = int(60 * FPS)
    diff = rng.uniform(2.0, 6.0, n) * np.where(np.arange(n) % 2, 0.5, 1.5)
    for k in (480, 492, 504, 516):
        diff[k] = 0.01
    ev = repeat_events(_frames(diff), np.zeros(n, dtype=np.int64), FPS)
    assert [e.type for e in ev] == ["frame_drop"]
    assert 19.5 < ev[0].start_s < 20.0 and 21.4 < ev[0].end_s < 22.0
