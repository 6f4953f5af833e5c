"""Severity words on real footage: a frame-rate drop reads by the frames each picture is held (a
halved rate is mild, a third moderate, a quarter or less severe); a flattened contrast read
on the calibration-part track's scale (agent/brains/local/levels.py)."""

from __future__ import annotations

import pytest

from agent.brains.local.levels import level_of


@pytest.mark.parametrize("hold,level", [(2, 1), (3, 2), (4, 3), (5, 3), (10, 3)])
def test_a_rate_drop_reads_by_the_frames_each_picture_is_held(hold, level):
    severity = round(1.0 - 1.0 / hold, 3)  # tools/detectors/frame_drop.py
    assert level_of(severity, "frame_drop/frame-rate drop") == level


def test_repeated_frames_keep_their_own_scale():
    # repeated-frame bursts grade the share of held frames (0.2 + 1.6 share), not a hold
    assert level_of(0.67, "frame_drop/repeated frames") == 2
    assert level_of(0.8, "frame_drop/repeated frames") == 2


def test_a_rate_drop_read_as_stutter_keeps_its_own_cuts():
    """"Is the stuttering really bad?" of a drop to a fifth of the rate: the event stands in
    for stutter, and its severity is read on the rate drop's own cuts (it was "moderate")."""
    from agent.brains.local.evidence import Evidence
    from agent.brains.local.levels import graded_kind
    drop = {"type": "frame_drop", "subtype": "frame-rate drop", "start_s": 78.8, "end_s": 85.0,
            "severity": 0.8, "evidence": {"hold_frames": 5}}
    ev = Evidence.__new__(Evidence)
    ev.relabel = {"frame_drop": "stutter"}
    (read,) = ev.relabelled([drop])
    assert read["type"] == "stutter" and graded_kind(read) == "frame_drop/frame-rate drop"
    assert level_of(read["severity"], graded_kind(read)) == 3


@pytest.mark.parametrize("severity,level", [(0.45, 1), (0.55, 2), (0.84, 3)])
def test_flattened_contrast_reads_on_the_calibration_track_s_scale(severity, level):
    """The calibration-part track's level-3 contrast cuts (0.84-0.86) are "severe", its
    level-2 ones (0.52-0.58) "moderate", level 1 (below 0.5) "mild"."""
    assert level_of(severity, "exposure/low contrast") == level
