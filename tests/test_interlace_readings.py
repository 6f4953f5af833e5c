"""Comb teeth read by other measures: impulse outliers and edge halos inside an interlaced
stretch are the combing's, not noise or over-sharpening of their own."""

from __future__ import annotations

from tools.detectors.interlace import explained_by_combing
from tools.model import Event


def _kinds(events: list[Event]) -> list[tuple[str, str, float]]:
    return [(e.type, e.subtype, e.start_s) for e in events]


def test_impulses_and_halos_inside_combing_are_its_teeth():
    combed = Event("interlace", 110.8, 145.5, 1.0, 3.0, "combing", {})
    events = [combed,
              Event("noise", 111.0, 145.0, 0.35, 1.0, "impulse", {}),
              Event("sharpening", 114.0, 144.5, 0.58, 2.0, "halo", {}),
              Event("noise", 112.0, 140.0, 0.7, 2.0, "grain", {}),  # grain is measured apart
              Event("sharpening", 20.0, 40.0, 0.6, 2.0, "halo", {}),  # elsewhere: its own
              Event("sharpening", 130.0, 170.0, 0.6, 2.0, "halo", {})]  # mostly outside
    assert _kinds(explained_by_combing(events)) == [
        ("interlace", "combing", 110.8), ("noise", "grain", 112.0),
        ("sharpening", "halo", 20.0), ("sharpening", "halo", 130.0)]


def test_without_combing_nothing_is_dropped():
    events = [Event("noise", 111.0, 145.0, 0.35, 1.0, "impulse", {}),
              Event("sharpening", 114.0, 144.5, 0.58, 2.0, "halo", {})]
    assert explained_by_combing(events) == events
