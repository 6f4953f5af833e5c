"""Blur events graded again on one scale: native sharpness against the footage around them
(tools/detectors/blur_grade.py)."""

from __future__ import annotations

import numpy as np

from tools.detectors.blur import BLUR_DROP
from tools.detectors.blur_grade import regraded, sharpness_fall
from tools.detectors.spatial_events import drop_severity
from tools.model import Event, Scene


def _samples(blurs, duration=180.0, clean=100.0):
    t = np.arange(0.0, duration, 0.5)
    sharp = np.full(len(t), clean)
    for a, b, level in blurs:
        sharp[(t >= a) & (t < b)] = level
    return {"t": t, "sharpness": sharp}


def test_stronger_blur_reads_more_severe_whatever_the_rule_said():
    samples = _samples([(30, 50, 40.0), (80, 100, 15.0), (130, 150, 5.0)])
    scenes = [Scene(0.0, 180.0, 0, 4500)]
    # the rules' own grades out of order (a detail-ratio event saturating at the floor)
    events = [Event("blur", 30, 50, 0.47, 1.0, "softness", {}),
              Event("blur", 80, 100, 0.30, 1.0, "softness", {}),
              Event("blur", 130, 150, 0.48, 1.0, "softness", {})]
    out = regraded(events, samples, scenes)
    sev = [e.severity for e in out]
    assert sev == sorted(sev) and sev[0] < sev[1] < sev[2], sev
    fall = np.log(101.0 / 16.0)
    assert abs(out[1].evidence["sharpness_fall"] - fall) < 1e-3
    assert abs(out[1].severity - round(drop_severity(fall, BLUR_DROP), 3)) < 1e-9
    assert out[1].evidence["rule_severity"] == 0.30


def test_other_types_and_blur_without_footage_around_keep_their_grade():
    samples = _samples([(0, 180, 20.0)])
    scenes = [Scene(0.0, 180.0, 0, 4500)]
    events = [Event("blur", 0, 180, 0.9, 1.0, "softness", {}),
              Event("noise", 10, 20, 0.4, 1.0, "grain", {})]
    assert regraded(events, samples, scenes) == events


def test_the_reference_stays_in_the_shots_and_out_of_other_events():
    samples = _samples([(60, 80, 20.0), (40, 60, 10.0)])
    samples["sharpness"][samples["t"] < 40] = 1000.0  # another shot, far sharper
    scenes = [Scene(0.0, 40.0, 0, 1000), Scene(40.0, 180.0, 1000, 4500)]
    blur = Event("blur", 60, 80, 0.5, 1.0, "softness", {})
    other = Event("exposure", 40, 60, 0.5, 1.0, "too dark", {})
    fall = sharpness_fall(blur, samples, scenes, [other])
    assert abs(fall - np.log(101.0 / 21.0)) < 1e-6
