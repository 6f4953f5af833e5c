"""The comb signal counts rows that alternate with their neighbours in pairs (one row above
both of its neighbours, the next below both of its own): two fields of different moments,
not a thin horizontal line of a progressive picture (tools/signals.py, `combing`)."""

from __future__ import annotations

import numpy as np

from tools.signals import combing


def _edge(x0: int, h: int = 120, w: int = 160) -> np.ndarray:
    """A bright square on a dark ground whose left edge lies at x0."""
    g = np.full((h, w), 40, np.uint8)
    g[30:90, x0:x0 + 50] = 200
    return g


def test_thin_horizontal_lines_are_not_combing():
    g = np.full((120, 160), 60, np.uint8)
    g[20::9, :] = 220  # one-pixel lines, as a cartoon's outlines or a ruled page
    g[24::9, 10:150] = 0
    assert combing(g) == 0.0


def test_two_fields_of_a_moving_edge_comb():
    woven = _edge(40).copy()
    woven[1::2] = _edge(52)[1::2]  # the odd field shows the square 12 px further on
    assert combing(woven) > 0.02
    assert combing(_edge(40)) == 0.0 and combing(_edge(52)) == 0.0


def test_camera_grain_rarely_alternates_in_pairs():
    """Grain of a camera (sigma 5) almost never; heavy noise (sigma 20) does, which is why the
    interlace detector also asks that the teeth be directional (its `isotropic`)."""
    def noisy(sigma: float) -> np.ndarray:
        rng = np.random.default_rng(7)
        return np.clip(128 + rng.normal(0, sigma, (360, 640)), 0, 255).astype(np.uint8)

    assert combing(noisy(5)) < 1e-5
    assert combing(noisy(20)) > 1e-3


def test_fields_blended_by_motion_interpolation_still_comb():
    """Fields woven from frames blended to 50p soften the picture across the motion, so its
    anisotropy falls a little (0.47 against 0.69 on a woven cartoon); noise takes it to a
    tenth. Only the latter is not combing."""
    from tools.detectors.interlace import interlace_events
    t = np.arange(0, 60, 0.5)
    comb = np.zeros(len(t))
    comb[40:70] = 0.004  # 20-35 s
    aniso = np.full(len(t), 0.69)
    aniso[40:70] = 0.47
    events = interlace_events({"t": t, "comb": comb, "aniso": aniso})
    assert [(e.type, e.start_s, e.end_s) for e in events] == [("interlace", 20.0, 35.0)]
    aniso[40:70] = 0.06
    assert interlace_events({"t": t, "comb": comb, "aniso": aniso}) == []
