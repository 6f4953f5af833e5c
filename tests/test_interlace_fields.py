"""An interlaced stretch shown at the progressive rate holds each frame for two: that halved
rate is the interlacing's, not a frame-rate drop of its own (tools/detectors/interlace.py)."""

from __future__ import annotations

from tools.detectors.frame_drop import SUBTYPE as RATE_DROP
from tools.detectors.interlace import without_field_pairs
from tools.model import Event


def _drop(a: float, b: float, hold: int) -> Event:
    return Event("frame_drop", a, b, 0.5, 2.0, RATE_DROP,
                 {"hold_frames": hold, "effective_fps": 25.0 / hold})


COMB = Event("interlace", 14.5, 35.0, 1.0, 5.0, "combing", {"comb_share": 0.002})


def test_a_hold_of_two_inside_combing_is_the_interlacings_own_rate():
    out = without_field_pairs([_drop(14.1, 35.8, 2), COMB])
    assert [e.type for e in out] == ["interlace"]
    assert out[0].evidence["frames_held"] == 2 and out[0].evidence["comb_share"] == 0.002


def test_other_drops_stay():
    elsewhere, longer = _drop(100.0, 120.0, 2), _drop(15.0, 34.0, 3)
    out = without_field_pairs([elsewhere, longer, COMB])
    assert elsewhere in out and longer in out  # outside the combing, or not two fields
    assert "frames_held" not in next(e for e in out if e.type == "interlace").evidence
    # no combing at all: nothing changes
    assert without_field_pairs([_drop(14.1, 35.8, 2)]) == [_drop(14.1, 35.8, 2)]
