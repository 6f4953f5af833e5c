"""Distinct degraded stretches from raw detector events (agent.brains.stretches)."""

from __future__ import annotations

import pytest

from agent.brains.stretches import (
    drift,
    drop_spill_over,
    lasting_pieces,
    merge_pieces,
    pattern,
    profile,
    split_lasting,
    stepwise,
    stretch_types,
    stretches,
    total_s,
)


def ev(etype, a, b, sev=0.8, sub=""):
    return {"type": etype, "subtype": sub, "start_s": float(a), "end_s": float(b),
            "severity": sev}


def test_pieces_of_one_type_merge_and_keep_their_longest_piece():
    merged = merge_pieces([ev("blur", 100, 104, 0.3), ev("blur", 107, 118, 1.0)])
    assert [(m["start_s"], m["end_s"], m["severity"], m["longest_s"]) for m in merged] == [
        (100.0, 118.0, 1.0, 11.0)]


def test_a_chain_of_short_spikes_stays_brief():
    chain = [ev("exposure", 89.8, 91.7), ev("exposure", 95.5, 97.4), ev("exposure", 101.3, 103.2)]
    lasting, brief = split_lasting(chain)
    assert lasting == [] and len(brief) == 1
    short_strobe = [ev("flicker", 10, 11.5)]
    assert len(split_lasting(short_strobe)[0]) == 1  # temporal artifacts may be short


def test_weaker_event_right_after_a_strong_one_is_spill_over():
    strong, after = ev("compression", 120, 135.4, 1.0), ev("noise", 135.4, 146.9, 0.48)
    other = ev("noise", 160, 175, 0.5)
    assert drop_spill_over([strong, after, other]) == [strong, other]
    before = ev("colour", 109.5, 120, 1.0)  # as severe but shorter: taking over, too
    assert drop_spill_over([before, strong]) == [strong]
    longer = ev("noise", 135.4, 155, 0.95)  # longer: a degradation of its own
    assert drop_spill_over([strong, longer]) == [strong, longer]


def test_co_firing_detectors_make_one_stretch_with_the_main_type():
    evs = [ev("noise", 60, 75.4, 1.0, "grain"), ev("noise", 60, 75.4, 1.0, "impulse"),
           ev("jitter", 60.3, 70.8, 0.99), ev("flicker", 135, 150, 1.0),
           ev("blur", 2.4, 4.8, 0.4)]  # a brief spike
    found = stretches(evs)
    assert [(s.type, s.start_s, s.end_s) for s in found] == [("noise", 60.0, 75.4),
                                                             ("flicker", 135.0, 150.0)]
    assert set(stretch_types(found)) == {"noise", "flicker"}
    assert total_s(found) == pytest.approx(30.4)
    assert [e["type"] for e in lasting_pieces(evs)] == ["noise", "noise", "jitter", "flicker"]


def test_profile_takes_the_worst_event_per_moment():
    prof = profile([ev("blur", 0, 30, 0.5), ev("noise", 15, 30, 1.0)], 0, 60, 2)
    assert prof == pytest.approx([0.75, 0.0])


@pytest.mark.parametrize(("prof", "way"), [
    ([0, 0, 0, 0.38, 0.7, 0.36], "degrading"),  # rises to its worst, a clean tail
    ([0, 0, 1, 1, 1, 1], "degrading"),
    ([1, 0.6, 0.3, 0, 0, 0], "improving"),
    ([0.3, 0, 0, 0.9, 1, 1], "degrading"),  # a spurious early spot does not hide the rise
    ([0, 0.3, 0, 1, 1, 0], None),  # one block in the middle: it recovers
    ([0, 0, 0, 0, 1, 0.2], None),
    ([0.5] * 6, None),
])
def test_drift(prof, way):
    assert drift(prof) == way


def test_pattern():
    one = stretches([ev("blur", 60, 120)])
    assert pattern([], [0.0] * 6, 180) == "stable"
    assert pattern(one, [0, 0, 1, 1, 0, 0], 180) == "occasional"
    assert pattern(stretches([ev("blur", 0, 180)]), [1.0] * 6, 180) == "stable"
    many = stretches([ev("flicker", a, a + 15) for a in (15, 45, 75, 105)])
    assert pattern(many, [0.5] * 6, 180) == "fluctuating"
    late = stretches([ev("blur", 60, 180)])
    assert pattern(late, [0, 0, 0.3, 0.6, 1, 1], 180) == "degrading"


def test_separate_stretches_fluctuate_even_when_their_severities_drift():
    """On, off, on, off: the needles of a fluctuating video, weaker towards the end, are a
    fluctuation, not an improvement; a gradual change runs its stretches together."""
    apart = stretches([ev("blur", a, a + 15, sev) for a, sev in
                       ((15, 0.8), (45, 0.7), (75, 0.9), (105, 0.4), (135, 0.6))])
    prof = [0.41, 0.36, 0.47, 0.19, 0.32, 0.0]
    assert drift(prof) == "improving"
    assert pattern(apart, prof, 180) == "fluctuating"
    joined = stretches([ev("jpeg", 0, 60, 1.0), ev("jpeg", 61, 120, 0.6),
                        ev("jpeg", 121, 150, 0.3)])
    assert pattern(joined, [1.0, 1.0, 0.6, 0.6, 0.3, 0.0], 180) == "improving"


def test_one_block_early_in_the_video_is_a_drop_not_an_improvement():
    prof = [0.5, 1.0, 0.5, 0.0, 0.0, 0.0]
    assert drift(prof) == "improving"
    assert pattern(stretches([ev("jpeg", 15, 75, 1.0)]), prof, 180) == "occasional"
    assert pattern(stretches([ev("jpeg", 0, 75, 1.0)]), [1.0, 1.0, 0.5, 0, 0, 0],
                   180) == "improving"


def test_a_late_ramp_detected_in_pieces_still_degrades():
    pieces = stretches([ev("sharpening", a, a + 12, sev) for a, sev in
                        ((62, 0.3), (90, 0.4), (120, 0.6), (160, 0.8))])
    prof = [0.0, 0.0, 0.1, 0.3, 0.2, 0.5]
    assert drift(prof) == "degrading"
    assert pattern(pieces, prof, 180) == "degrading"


def test_separate_drops_growing_stronger_in_turn_are_a_gradual_change():
    rising = stretches([ev("blur", 20, 38, 0.3), ev("blur", 80, 112, 0.6),
                        ev("blur", 140, 158, 1.0)])
    assert stepwise(rising) == "degrading"
    assert pattern(rising, profile(rising[0].events + rising[1].events + rising[2].events,
                                   0, 180, 6), 180.0) == "degrading"
    falling = stretches([ev("noise", 20, 38, 1.0), ev("noise", 80, 112, 1.0),
                         ev("noise", 140, 158, 0.45)])
    assert stepwise(falling) == "improving"


def test_drops_growing_near_the_saturated_top_are_a_gradual_change():
    # gblur sigma 1.5 -> 3 -> 6 on a real clip: 0.66, 0.81, 0.92 (0.26 apart, short of 0.30)
    near_top = stretches([ev("blur", 28, 60, 0.66), ev("blur", 77, 102, 0.81),
                          ev("blur", 132, 147, 0.92)])
    assert stepwise(near_top) == "degrading"
    low = stretches([ev("blur", 28, 60, 0.2), ev("blur", 77, 102, 0.3),
                     ev("blur", 132, 147, 0.45)])  # the same 0.25 low on the scale: not yet
    assert stepwise(low) is None
    saturated = stretches([ev("blur", 28, 60, 1.0), ev("blur", 77, 102, 1.0),
                           ev("blur", 132, 147, 1.0)])
    assert stepwise(saturated) is None


def test_drops_of_even_or_mixed_severity_are_no_gradual_change():
    even = stretches([ev("blur", 20, 38, 0.6), ev("blur", 80, 112, 0.65),
                      ev("blur", 140, 158, 0.6)])
    assert stepwise(even) is None
    zigzag = stretches([ev("blur", 20, 38, 0.3), ev("blur", 80, 112, 1.0),
                        ev("blur", 140, 158, 0.6)])
    assert stepwise(zigzag) is None
    mixed = stretches([ev("blur", 20, 38, 0.3), ev("noise", 80, 112, 0.6),
                       ev("colour", 140, 158, 1.0)])
    assert stepwise(mixed) is None  # severities of different types are not one scale
    assert stepwise(mixed, same_type=False) == "degrading"
    assert stepwise(stretches([ev("blur", 20, 38, 0.3), ev("blur", 80, 112, 1.0)])) is None
