"""The severity words' cuts: fitted per type on a track's found windows (bench
calibrate-levels) and read by the local brain in place of the built-in ones."""

from __future__ import annotations

import json

from agent.brains.local import levels
from bench.calibrate_levels import _key, fit_cuts


def test_fit_cuts_separates_levels_that_can_be_separated():
    pairs = [(1, 0.5), (1, 0.52), (2, 0.67), (2, 0.66), (3, 0.8), (3, 0.81)]
    mild, severe, same = fit_cuts(pairs)
    assert same == 6 and 0.52 < mild < 0.66 and 0.67 < severe <= 0.8


def test_fit_cuts_with_overlapping_levels_gets_the_most_right():
    pairs = [(1, 0.3), (1, 0.6), (2, 0.5), (2, 0.7), (3, 0.9), (3, 0.65)]
    _, _, same = fit_cuts(pairs)
    assert same == 4  # no pair of cuts orders 0.6 (level 1) after 0.5 (level 2) and 0.65 (3)


def test_cuts_are_keyed_by_the_grading_type():
    assert _key("noise/grain") == "noise"
    assert _key("sharpening/measured as noise") == "sharpening/measured as noise"


def test_measured_cuts_replace_the_built_in_ones_of_their_type(tmp_path, monkeypatch):
    f = tmp_path / "level_cuts.json"
    f.write_text(json.dumps({"cuts": {"noise": {"mild_below": 0.4, "severe_from": 0.8},
                                      "frame_drop": {"mild_below": 0.6, "severe_from": 0.75}}}))
    monkeypatch.setattr(levels, "LEVEL_CUTS_FILE", f)
    table = levels._measured_cuts({"noise/grain": (0.49, 0.87), "noise/impulse": (0.48, 0.85),
                                   "frame_drop": (0.5, 0.9), "blur": (0.35, 0.55),
                                   "sharpening/measured as noise": (0.3, 0.6)})
    assert table == {"noise": (0.4, 0.8), "frame_drop": (0.6, 0.75), "blur": (0.35, 0.55),
                     "sharpening/measured as noise": (0.3, 0.6)}


def test_without_a_cuts_file_the_built_in_cuts_stay(tmp_path, monkeypatch):
    monkeypatch.setattr(levels, "LEVEL_CUTS_FILE", tmp_path / "missing.json")
    assert levels._measured_cuts({"blur": (0.35, 0.55)}) == {"blur": (0.35, 0.55)}
