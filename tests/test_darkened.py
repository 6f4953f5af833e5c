"""A picture made darker (blacks crushed, whites fallen) is "too dark", not low contrast."""

from __future__ import annotations

import numpy as np

from tools.detectors.exposure import darkened
from tools.model import Event, Scene


def _samples(black_in: float, white_in: float) -> dict[str, np.ndarray]:
    t = np.arange(0.0, 120.0, 0.5)
    inside = (t >= 40.0) & (t < 70.0)
    return {"t": t, "black": np.where(inside, black_in, 20.0),
            "white": np.where(inside, white_in, 250.0)}


def _low_contrast() -> Event:
    return Event("exposure", 40.0, 70.0, 0.34, 1.0, "low contrast",
                 {"signal": "contrast_range"})


SCENES = [Scene(0.0, 120.0, 0, 240)]


def test_crushed_blacks_and_fallen_whites_are_too_dark():
    (e,) = darkened([_low_contrast()], _samples(0.0, 131.0), SCENES)
    assert e.subtype == "too dark" and e.severity == 0.34
    assert e.evidence["white_in_event"] == 131.0 and e.evidence["black_around"] == 20.0


def test_blacks_drawn_up_toward_grey_stay_low_contrast():
    (e,) = darkened([_low_contrast()], _samples(90.0, 170.0), SCENES)
    assert e.subtype == "low contrast"


def test_the_new_name_is_not_also_listed_as_measured():
    e = Event("exposure", 40.0, 70.0, 0.34, 1.0, "low contrast",
              {"signal": "contrast_range", "also_measured": ["too dark"]})
    (out,) = darkened([e], _samples(0.0, 131.0), SCENES)
    assert out.subtype == "too dark" and "also_measured" not in out.evidence
