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


def _samples(combed_at: list[float], teeth: float = 0.006) -> dict:
    """Samples every 0.5 s over 180 s: a quiet comb share, teeth at the given times, and a
    directional picture (anisotropy) where the teeth are."""
    import numpy as np
    t = np.arange(0.0, 180.0, 0.5)
    comb = np.full(len(t), 0.00002)
    aniso = np.full(len(t), 0.1)
    for x in combed_at:
        comb[np.argmin(np.abs(t - x))] = teeth
    aniso[(t >= 58) & (t < 64)] = 1.5
    return {"t": t, "comb": comb, "aniso": aniso}


def test_a_hold_of_two_with_comb_teeth_now_and_then_is_interlacing():
    """Teeth in every other sample only now and then (motion comes and goes) pass no 3-sample
    median, but a drop holding frames for two that shows them is interlaced footage."""
    from tools.detectors.interlace import combed_field_pairs, interlace_events
    samples = _samples([59.5, 61.5, 63.5])
    assert interlace_events(samples) == []  # too brief and scattered for a stretch
    drop, other = _drop(58.3, 63.7, 2), _drop(120.0, 130.0, 2)
    out = combed_field_pairs([drop, other], samples)
    assert [(e.type, e.start_s, e.end_s) for e in out] == [
        ("interlace", 58.3, 63.7), ("frame_drop", 120.0, 130.0)]
    assert out[0].evidence["combed_samples"] == 3 and out[0].evidence["frames_held"] == 2


def test_a_halved_rate_without_teeth_or_with_one_stays_a_frame_rate_drop():
    from tools.detectors.interlace import combed_field_pairs
    drop = _drop(58.3, 63.7, 2)
    assert combed_field_pairs([drop], _samples([])) == [drop]
    assert combed_field_pairs([drop], _samples([60.0])) == [drop]  # one sample: chance
    held3 = _drop(58.3, 63.7, 3)  # not two fields
    assert combed_field_pairs([held3], _samples([59.5, 61.5, 63.5])) == [held3]
