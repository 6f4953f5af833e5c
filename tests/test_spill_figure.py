"""The real-footage figure's count of untouched footage covered by events
(bench/figures/real_footage.spill_spans)."""

from __future__ import annotations

import pytest

from bench.figures.real_footage import spill_spans


def _ev(a, b):
    return {"start_s": a, "end_s": b}


def test_an_event_running_past_its_window_spills_onto_the_footage_after_it():
    spill = spill_spans([_ev(19.0, 180.0)], [(18.6, 46.6)], 180.0)
    assert len(spill) == 1
    assert spill[0][0] == pytest.approx(48.6, abs=0.11) and spill[0][1] == pytest.approx(180.0)


def test_edges_near_a_window_and_events_inside_it_are_not_counted():
    assert spill_spans([_ev(17.5, 47.5), _ev(20, 30)], [(18.6, 46.6)], 180.0) == []


def test_an_event_far_from_every_window_is_counted_whole():
    spill = spill_spans([_ev(100.0, 110.0)], [(18.6, 46.6)], 180.0)
    assert [(round(a, 1), round(b, 1)) for a, b in spill] == [(100.0, 110.0)]
