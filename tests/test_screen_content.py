"""Footage held by design (screen recordings): repeats and page looks are not defects."""

from __future__ import annotations

import numpy as np

from tools.detectors import screen
from tools.model import Event


def _ev(type_: str, sub: str, a: float, b: float) -> Event:
    return Event(type=type_, subtype=sub, start_s=a, end_s=b, severity=0.8, score=1.0)


def test_a_screen_recording_keeps_only_what_comes_and_goes(monkeypatch):
    monkeypatch.setattr(screen, "value", lambda key: 0.36)
    diff = np.zeros(3000)
    diff[::20] = 5.0  # the picture changes on one frame in twenty
    frames = {"diff": diff}
    assert screen.held_by_design(frames)
    events = [_ev("stutter", "repeated frames", 0, 100), _ev("exposure", "too bright", 10, 20),
              _ev("compression", "pixelation", 0, 100), _ev("blur", "softness", 30, 45),
              _ev("corruption", "decoder errors", 50, 53), _ev("colour", "hue shift", 0, 90)]
    kept = screen.without_design(events, frames, 100.0)
    assert [(e.type, e.subtype) for e in kept] == [("blur", "softness"),
                                                   ("corruption", "decoder errors")]


def test_camera_footage_keeps_every_event(monkeypatch):
    monkeypatch.setattr(screen, "value", lambda key: 0.36)
    rng = np.random.default_rng(0)
    frames = {"diff": rng.uniform(0.5, 6.0, 3000)}
    frames["diff"][1000:1100] = 0.0  # a real freeze of 100 frames
    assert not screen.held_by_design(frames)
    events = [_ev("freeze", "frozen picture", 40, 44), _ev("exposure", "too bright", 0, 100)]
    assert screen.without_design(events, frames, 100.0) == events


def test_a_freeze_stays_in_a_cartoon_doubled_up_but_not_in_a_screen_recording(monkeypatch):
    monkeypatch.setattr(screen, "value", lambda key: 0.36)
    t = np.arange(3750) / 25.0
    diff = np.zeros(3750)
    diff[::2] = 8.0  # a drawing every other frame: held share 0.5, by the cut-off "by design"
    diff[2800:2950] = 0.0  # 6 s frozen
    frames = {"t": t, "diff": diff}
    assert screen.held_by_design(frames)
    events = [_ev("freeze", "frozen picture", 112.0, 118.0),
              _ev("frame_drop", "repeated frames", 10.0, 20.0)]
    assert [e.type for e in screen.without_design(events, frames, 150.0)] == ["freeze"]
    diff[500:600] = 0.0  # the picture also stands still for 4 s elsewhere: a page held
    assert screen.without_design(events, frames, 150.0) == []


def test_a_cartoon_doubled_up_keeps_its_darkened_stretch_a_screen_recording_its_pages(
        monkeypatch):
    monkeypatch.setattr(screen, "value", lambda key: 0.36)
    t = np.arange(3750) / 25.0
    diff = np.zeros(3750)
    diff[::2] = 8.0  # a drawing every other frame: held by design, never still for long
    frames = {"t": t, "diff": diff}
    dark = _ev("exposure", "too dark", 38.0, 64.0)
    assert screen.without_design([dark], frames, 150.0) == [dark]
    diff[500:600] = 0.0  # a page held for 4 s: a screen recording's dark page is its look
    assert screen.without_design([dark], frames, 150.0) == []


def test_an_event_judged_against_its_twins_is_never_the_footage_s_nature(monkeypatch):
    monkeypatch.setattr(screen, "value", lambda key: 0.36)
    diff = np.zeros(3000)
    diff[::20] = 5.0
    frames = {"diff": diff}
    twin = Event(type="exposure", subtype="too dark", start_s=10, end_s=40, severity=0.8,
                 score=2.0, evidence={"judged_against": "the same picture elsewhere in the video"})
    assert screen.without_design([twin], frames, 100.0) == [twin]
