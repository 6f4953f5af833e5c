"""A twin stretch names what changed where a detector's event of its type read another measure,
and twin stretches pass the gates on their own calibrated limits (tools/detectors/twin_events.py,
tools/detectors/gates.py)."""

from __future__ import annotations

from tools.detectors import gates
from tools.detectors import twin_events as te
from tools.model import Event

TWIN = {"judged_against": te.JUDGED_AGAINST}


def _event(type_: str, subtype: str, a: float, b: float, sev: float = 0.5, **ev) -> Event:
    return Event(type=type_, subtype=subtype, start_s=a, end_s=b, severity=sev, score=1.0,
                 evidence=ev)


def test_a_detector_s_reading_of_another_measure_takes_the_twin_s_name():
    """Flattening the contrast lifts the dark parts: the shot-relative detector read "too
    bright", the same picture elsewhere says the contrast fell and the mean did not rise."""
    bright = _event("exposure", "too bright", 96.0, 104.0, 0.59)
    flat = _event("exposure", "low contrast", 96.0, 104.0, 0.53, **TWIN)
    (out,) = te.with_twins([bright], [flat])
    assert (out.subtype, out.start_s, out.end_s, out.severity) == ("low contrast", 96.0, 104.0,
                                                                  0.53)
    # a washed-out stretch read as a hue shift (the angle of weak, cancelling colours)
    hue = _event("colour", "hue shift", 116.0, 124.0, 0.45)
    pale = _event("colour", "desaturation", 116.5, 124.0, 0.46, **TWIN)
    (out,) = te.with_twins([hue], [pale])
    assert (out.subtype, out.start_s, out.end_s) == ("desaturation", 116.0, 124.0)


def test_the_detector_s_name_stays_where_the_twins_back_it_or_it_is_one_measure():
    bright = _event("exposure", "too bright", 96.0, 104.0, 0.59)
    flat = _event("exposure", "low contrast", 96.0, 104.0, 0.53, **TWIN)
    lifted = _event("exposure", "too bright", 95.0, 105.0, 0.4, **TWIN)
    out = te.with_twins([bright], [flat, lifted])
    assert sorted((e.subtype, e.severity) for e in out) == [("too bright", 0.59)]
    # a twin stretch reaching only part of the event leaves its name (it only widens it)
    part = _event("exposure", "low contrast", 101.0, 110.0, 0.53, **TWIN)
    assert [(e.subtype, e.start_s, e.end_s) for e in te.with_twins([bright], [part])] == [
        ("too bright", 96.0, 110.0)]
    # blur's subtypes are read from one measure: no renaming between them
    defocus = _event("blur", "defocus", 30.0, 40.0, 0.7)
    soft = _event("blur", "softness", 30.0, 40.0, 0.4, **TWIN)
    assert [e.subtype for e in te.with_twins([defocus], [soft])] == ["defocus"]


def test_twin_stretches_pass_the_gates_on_their_own_limits(monkeypatch):
    monkeypatch.setattr(gates, "gate", lambda *a: 0.6)
    weak = _event("colour", "hue shift", 69.0, 83.5, 0.47)
    twin = _event("colour", "hue shift", 69.0, 83.5, 0.47, **TWIN)
    strong = _event("colour", "hue shift", 10.0, 20.0, 0.7)
    assert gates.gated([weak, twin, strong]) == [twin, strong]


def test_a_detector_s_event_a_twin_stretch_backs_passes_the_gates(monkeypatch):
    """A washed-out second read as a weak hue shift by its shot: below the shot detector's
    gate, but the same picture elsewhere says its colour changed."""
    monkeypatch.setattr(gates, "gate", lambda *a: 0.6)
    hue = _event("colour", "hue shift", 116.0, 124.0, 0.45)
    turned = _event("colour", "hue shift", 116.5, 124.0, 0.46, **TWIN)
    (out,) = te.with_twins([hue], [turned])
    assert (out.severity, out.start_s, out.end_s) == (0.45, 116.0, 124.0)
    assert gates.gated([out]) == [out]
    assert gates.gated([hue]) == []  # alone, the gate holds it


def test_another_change_of_its_type_the_twins_measured_is_kept_in_the_evidence():
    """Twin stretches of both the hue and the saturation over a shot's hue shift: the name
    stays (the twins back it), and the saturation fall is said beside it."""
    hue = _event("colour", "hue shift", 116.0, 124.0, 0.45)
    turned = _event("colour", "hue shift", 116.5, 124.0, 0.46, **TWIN)
    pale = _event("colour", "desaturation", 116.5, 124.0, 0.46, **TWIN)
    (out,) = te.with_twins([hue], [turned, pale])
    assert (out.subtype, out.start_s, out.end_s) == ("hue shift", 116.0, 124.0)
    assert out.evidence["also_measured"] == ["desaturation"]
    # a twin stretch of its own measure alone adds nothing of the kind
    (out,) = te.with_twins([hue], [turned])
    assert "also_measured" not in out.evidence
