"""A degradation over a stretch of short shots of different content is judged against each
shot's own level (spatial_reference.own_scene_deviation), not the mixed median of all of them
against the first shot's baseline."""

from __future__ import annotations

import numpy as np

import tools.detectors.confirm  # noqa: F401 - declares the whole-video quantities
from tests.event_series import FPS, _frames, _samples, _scenes
from tools.detectors import detect_events
from tools.detectors.blur import SOFTNESS
from tools.detectors.confirm import confirm, stands_off
from tools.detectors.spatial_reference import own_scene_deviation
from tools.model import Event

CUTS = [0.0, 14.0, 34.0, 42.0, 50.0, 70.0, 78.0, 86.0, 95.0, 110.0, 128.0, 141.0, 156.0, 180.0]
# each shot's own content: how much fine detail and sharpness it has when clean
LEVELS = [1.3, 0.9, 0.6, 1.9, 0.5, 0.55, 1.0, 1.9, 0.6, 1.0, 1.1, 0.9, 1.4]


def _iou(e: Event, a: float, b: float) -> float:
    inter = max(0.0, min(e.end_s, b) - max(e.start_s, a))
    return inter / (max(e.end_s, b) - min(e.start_s, a))


def _montage() -> dict[str, np.ndarray]:
    s = _samples(180.0)
    sid = np.searchsorted(CUTS, s["t"], side="right") - 1
    for k in ("detail", "sharpness", "halo"):
        s[k] = (s[k] * np.asarray(LEVELS, np.float32)[sid]).astype(np.float32)
    return s


def test_a_blur_over_three_short_shots_is_found():
    """Blur from 75 to 90 s: the end of one shot, all of the next, the start of a third (as a
    needle laid over a montage). Each part falls to ~half its own shot's detail."""
    s = _montage()
    part = (s["t"] >= 75.0) & (s["t"] < 90.0)
    s["detail"][part] *= 0.55
    s["sharpness"][part] *= 0.3
    events = confirm(detect_events(_frames(180.0), s, _scenes(CUTS), FPS))
    blur = [e for e in events if e.type == "blur"]
    assert any(_iou(e, 75.0, 90.0) >= 0.5 for e in blur), events


def test_the_clean_montage_has_no_blur():
    s = _montage()
    events = confirm(detect_events(_frames(180.0), s, _scenes(CUTS), FPS))
    assert not [e for e in events if e.type == "blur"], events


def test_own_scene_deviation_leaves_out_shots_degraded_throughout():
    """Samples of a shot the run covers whole are compared with nothing clean: only the
    shots the run covers in part count; a run inside one shot has none."""
    x = np.log(np.array([1.0, 1.0, 0.5, 0.5, 0.2, 0.2, 0.2, 0.4, 0.8, 0.8]))
    sid = np.array([0, 0, 0, 0, 1, 1, 1, 2, 2, 2])
    refs = np.log(np.array([1.0, 0.2, 0.8]))
    dev = own_scene_deviation(SOFTNESS, x, refs, sid, 2, 8)  # shot 1 (0.2) covered whole
    assert dev is not None and np.isclose(dev, np.median([np.log(2.0)] * 2 + [np.log(2.0)]))
    assert own_scene_deviation(SOFTNESS, x, refs, sid, 0, 3) is None


def test_stands_off_reads_the_own_shot_deviation():
    """An event whose mixed median sits at its first shot's baseline still stands off when
    its samples, each against its own shot, do; and not when they do not either."""
    ev = {"signal": "detail", "median_in_event": 0.25, "scene_baseline": 0.25,
          "deviation": 0.4, "samples": 30}
    e = Event(type="blur", subtype="softness", start_s=75.0, end_s=90.0, severity=0.5,
              score=3.0, evidence=ev)
    assert not stands_off(e)
    assert stands_off(Event(**{**e.__dict__, "evidence": {**ev, "own_scene_deviation": 0.4}}))
    assert not stands_off(Event(**{**e.__dict__,
                                   "evidence": {**ev, "own_scene_deviation": 0.05}}))
