"""A hue step into one shot and out of another far later is no hue shift when the scenes
between them keep the video's usual hue (tools/detectors/spatial_steps.paired_steps)."""

from __future__ import annotations

import numpy as np

from tools.detectors.colour import HUE_SHIFT
from tools.detectors.spatial_events import spatial_events
from tools.model import Scene


def _video(rotate: tuple[float, float] | None, odd: dict[float, float]) -> tuple[dict, list]:
    """180 s of 4-s shots sampled twice a second, hue 60 degrees; `odd` seconds (start: hue)
    of another hue for 2 s (half a shot: the camera turns to something else);
    `rotate` (start, end) turns every shot's hue by 70 degrees."""
    t = np.arange(0, 180, 0.5)
    rng = np.random.default_rng(5)
    ang = np.full(len(t), 60.0) + rng.normal(0, 1.5, len(t))
    for a, h in odd.items():
        part = (t >= a) & (t < a + 2.0)
        ang[part] = h + rng.normal(0, 1.5, part.sum())
    if rotate:
        ang[(t >= rotate[0]) & (t < rotate[1])] += 70.0
    r = 0.12
    samples = {"t": t, "hue_x": r * np.cos(np.radians(ang)), "hue_y": r * np.sin(np.radians(ang)),
               "saturation": np.full(len(t), 40.0)}
    scenes = [Scene(4.0 * k, 4.0 * k + 4, 100 * k, 100 * k + 99) for k in range(45)]
    return samples, scenes


def test_other_hued_shots_far_apart_do_not_pair_into_a_shift():
    # the second half of the shot at 48 s and the first half of the shot at 64 s
    samples, scenes = _video(None, {50.0: 25.0, 64.0: 25.0})
    events, _ = spatial_events(samples, scenes, HUE_SHIFT)
    assert all(e.end_s - e.start_s < 10.0 for e in events), events


def test_a_hue_turned_over_many_shots_is_found():
    samples, scenes = _video((61.0, 89.0), {})
    events, _ = spatial_events(samples, scenes, HUE_SHIFT)
    assert any(e.start_s <= 63.0 and e.end_s >= 87.0 for e in events), events
