"""Pieces of one condition split by a brief dip are one event; counted events stay apart."""

from __future__ import annotations

from tools.detectors.gates import JOIN_GAP_S, joined_pieces
from tools.model import Event


def _spans(events: list[Event]) -> list[tuple[str, float, float, float]]:
    return [(e.type, e.start_s, e.end_s, e.severity) for e in events]


def test_halo_pieces_a_brief_dip_apart_are_one_event():
    events = [Event("sharpening", 121.5, 125.0, 0.35, 1.0, "halo", {"departure": 0.31}),
              Event("sharpening", 127.5, 136.5, 0.33, 1.0, "halo", {"departure": 0.29}),
              Event("sharpening", 136.5 + JOIN_GAP_S + 1.0, 150.0, 0.6, 2.0, "halo", {})]
    out = joined_pieces(events)
    assert _spans(out) == [("sharpening", 121.5, 136.5, 0.35),
                           ("sharpening", 140.5, 150.0, 0.6)]
    assert out[0].evidence == {"departure": 0.31}  # the stronger piece's


def test_other_subtypes_and_counted_events_stay_apart():
    events = [Event("exposure", 10.0, 20.0, 0.5, 1.0, "too bright", {}),
              Event("exposure", 21.0, 30.0, 0.5, 1.0, "low contrast", {}),
              Event("freeze", 40.0, 42.0, 0.6, 1.0, "frozen picture", {}),
              Event("freeze", 43.0, 45.0, 0.6, 1.0, "frozen picture", {})]
    assert _spans(joined_pieces(events)) == _spans(events)
