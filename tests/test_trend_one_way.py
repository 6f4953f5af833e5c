"""Several drops piling up towards one end of a video are a change of quality, not a
fluctuation (agent/brains/stretches.py: `one_way`, used by `pattern`)."""

from __future__ import annotations

from agent.brains.stretches import lasting_pieces, one_way, pattern, profile, stretches


def _ev(kind: str, a: float, b: float, sev: float) -> dict:
    return {"type": kind, "subtype": "", "start_s": a, "end_s": b, "severity": sev}


def _pattern(evs: list[dict], duration: float = 180.0) -> str:
    pieces = lasting_pieces(evs)
    return pattern(stretches(evs), profile(pieces, 0.0, duration, 6), duration, pieces)


def test_a_bitrate_ladder_found_in_pieces_at_the_end_gets_worse():
    """An independent tester's decline (x264 at 300, 120 and 50 kb/s after 45, 90, 135 s),
    found as three stretches after 2:15: impairment by part 0, 0, 0, 0, 0.14, 0.31."""
    evs = [_ev("blur", 135.0, 141.0, 0.45), _ev("blur", 146.5, 149.5, 0.45),
           _ev("compression", 156.5, 175.5, 0.47)]
    assert _pattern(evs) == "degrading"
    assert _pattern([_ev(e["type"], 180.0 - e["end_s"], 180.0 - e["start_s"], e["severity"])
                     for e in evs]) == "improving"


def test_drops_all_through_the_video_still_fluctuate():
    evs = [_ev("noise", a, a + 8.0, 0.5) for a in (10.0, 50.0, 95.0, 140.0)]
    assert _pattern(evs) == "fluctuating"
    # three drops, the middle one the worst: up and down
    evs = [_ev("blur", 20.0, 35.0, 0.4), _ev("blur", 80.0, 100.0, 0.9),
           _ev("blur", 150.0, 160.0, 0.4)]
    assert _pattern(evs) == "fluctuating"


def test_one_way_needs_a_course_that_never_turns_back():
    assert one_way([0.0, 0.0, 0.0, 0.0, 0.14, 0.31]) == "degrading"
    assert one_way([0.31, 0.2, 0.0, 0.0, 0.0, 0.0]) == "improving"
    assert one_way([0.0, 0.3, 0.0, 0.0, 0.14, 0.31]) is None  # falls back between
    assert one_way([0.0, 0.0, 0.0, 0.0, 0.0, 0.1]) is None  # less than a step in all
    assert one_way([0.0, 0.0, 0.4, 0.4, 0.2, 0.0]) is None  # worst in the middle
