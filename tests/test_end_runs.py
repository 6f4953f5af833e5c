"""Runs of whole shots at the start or end of a video judged against absolute limits
(tools/detectors/whole_video.end_run_events): shots already inside an event of the type are
no evidence of a run."""

from __future__ import annotations

import numpy as np

from tools.detectors import DETECTORS
from tools.detectors.base import Context
from tools.detectors.whole_video import end_run_events
from tools.model import Event, Scene


def _ctx(black_by_shot, bounds):
    t = np.arange(0.0, bounds[-1], 0.5)
    black = np.zeros(len(t))
    for (a, b), level in zip(zip(bounds[:-1], bounds[1:], strict=True), black_by_shot,
                             strict=True):
        black[(t >= a) & (t < b)] = level
    samples = {"t": t, "black": black, "sharpness": np.full(len(t), 500.0),
               "contrast_range": np.full(len(t), 200.0)}
    scenes = [Scene(a, b, int(a * 25), int(b * 25))
              for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    return Context.build({"t": np.zeros(0)}, samples, scenes, 25.0, DETECTORS)


def test_a_bright_end_run_of_three_shots_is_found():
    ctx = _ctx([20, 20, 120, 120, 120], [0, 40, 80, 110, 140, 180])
    found = [e for e in end_run_events(ctx) if e.evidence.get("shots") == "last"]
    assert found and found[0].type == "exposure" and found[0].start_s == 80.0


def test_shots_inside_an_event_of_the_type_do_not_make_a_run():
    # a brightened window (24-47 s) breaks into shots of its own; the clean scene after it
    # is bright by nature (a coin on a light table: black p10 about 90)
    ctx = _ctx([90, 200, 200, 90], [0, 24.3, 32.4, 40.5, 180])
    bright = Event("exposure", 19.0, 47.0, 1.0, 5.0, "too bright", {})
    assert any(e.evidence.get("shots") == "last" for e in end_run_events(ctx))
    assert not any(e.evidence.get("shots") == "last" for e in end_run_events(ctx, [bright]))
    other = Event("blur", 19.0, 47.0, 1.0, 5.0, "softness", {})  # another type counts not
    assert any(e.evidence.get("shots") == "last" for e in end_run_events(ctx, [other]))
