"""Stretches judged against the footage around them, across shots."""

from __future__ import annotations

import numpy as np

from tools.detectors import stretches as st
from tools.detectors.calibration import QUANTITIES


def _samples(noise: np.ndarray, step: float = 0.5) -> dict[str, np.ndarray]:
    n = len(noise)
    return {"t": np.arange(n) * step, "noise": noise, "frame": np.arange(n) * 10}


def test_departure_sees_a_stretch_that_covers_whole_shots(monkeypatch):
    rng = np.random.default_rng(0)
    t = np.arange(360) * 0.5
    # shots of 3-5 s with grain of their own (grey levels), and 30 s of grain x8 over several
    shot_level = np.repeat(rng.uniform(1.5, 3.0, 60), 6)[:360]
    noise = shot_level * rng.uniform(0.9, 1.1, 360)
    inside = (t >= 100) & (t < 130)
    noise[inside] *= 8
    monkeypatch.setattr(st, "value", lambda key: 0.8)
    events = [e for e in st.stretch_events(_samples(noise), {}) if e.type == "noise"]
    assert len(events) == 1
    e = events[0]
    assert abs(e.start_s - 100) <= 1.5 and abs(e.end_s - 130) <= 1.5
    assert e.evidence["departure"] > 1.5


def test_long_stretches_are_found_from_their_ends_inwards(monkeypatch):
    t = np.arange(600) * 0.5
    noise = np.full(600, 1.0)
    noise[(t >= 60) & (t < 160)] = 12.0  # 100 s: wider than the neighbourhood's gap
    monkeypatch.setattr(st, "value", lambda key: 0.8)
    events = [e for e in st.stretch_events(_samples(noise), {}) if e.type == "noise"]
    assert len(events) == 1 and events[0].start_s <= 61 and events[0].end_s >= 159


def test_clean_variation_and_blips_stay_below_the_limit(monkeypatch):
    rng = np.random.default_rng(1)
    noise = np.repeat(rng.uniform(0.15, 0.3, 60), 6)[:360]
    noise[200:203] = 3.0  # a 1.5 s blip of content: shorter than the running median
    monkeypatch.setattr(st, "value", lambda key: 0.8)
    assert [e for e in st.stretch_events(_samples(noise), {}) if e.type == "noise"] == []


def test_luma_is_read_from_the_frames_at_the_sample_frames(monkeypatch):
    n = 360
    luma = np.full(n * 10, 140.0)
    luma[1000:1600] = 60.0  # samples 100-160: 50-80 s darkened
    samples = {"t": np.arange(n) * 0.5, "frame": np.arange(n) * 10}
    monkeypatch.setattr(st, "value", lambda key: 0.3)
    dark = [e for e in st.stretch_events(samples, {"luma": luma}) if e.subtype == "too dark"]
    assert len(dark) == 1 and abs(dark[0].start_s - 50) <= 1.5 and abs(dark[0].end_s - 80) <= 1.5


def test_every_stretch_declares_its_calibrated_limit():
    for s in st.STRETCHES:
        assert f"stretch.{s.key}" in QUANTITIES


def _e(type_: str, a: float, b: float, sev: float = 0.5):
    from tools.model import Event

    return Event(type=type_, subtype="x", start_s=a, end_s=b, severity=sev, score=1.0)


def test_merging_respects_what_the_scene_detectors_explained():
    noise = _e("noise", 15.0, 30.0)
    halo_inside_noise = _e("sharpening", 15.4, 30.2, 1.0)  # grain read as halo
    blur = _e("blur", 60.0, 75.0, 0.4)
    wider_blur = _e("blur", 40.0, 75.0, 0.7)  # mostly outside it: union
    inner_blur = _e("blur", 61.0, 70.0, 0.9)  # adds only its severity
    new = _e("exposure", 100.0, 110.0)
    out = st.merged([noise, blur], [halo_inside_noise, wider_blur, new])
    assert [(e.type, e.start_s, e.end_s) for e in out] == [
        ("noise", 15.0, 30.0), ("blur", 40.0, 75.0), ("exposure", 100.0, 110.0)]
    out = st.merged([blur], [inner_blur])
    assert (out[0].start_s, out[0].end_s, out[0].severity) == (60.0, 75.0, 0.9)


def test_a_shot_that_looks_different_is_not_a_stretch_but_a_change_inside_one_is(monkeypatch):
    t = np.arange(360) * 0.5
    monkeypatch.setattr(st, "value", lambda key: 0.8)
    noise = np.full(360, 0.2)
    noise[(t >= 60) & (t < 90)] = 2.0  # exactly the shot 60-90 s
    cuts = [30.0, 60.0, 90.0, 120.0]
    assert [e for e in st.stretch_events(_samples(noise), {}, cuts) if e.type == "noise"] == []
    noise = np.full(360, 0.2)
    noise[(t >= 63) & (t < 90)] = 2.0  # starts 3 s into the shot: a degradation
    found = [e for e in st.stretch_events(_samples(noise), {}, cuts) if e.type == "noise"]
    assert len(found) == 1 and found[0].start_s == 63.0 and found[0].end_s == 90.0


def test_a_shot_different_throughout_is_not_a_stretch_whatever_moves_inside_it(monkeypatch):
    """A montage shot grainier than its neighbours throughout: a blink of its level 8 s in,
    or a different first second (the key frame at its cut), is not where a degradation
    starts."""
    t = np.arange(360) * 0.5
    monkeypatch.setattr(st, "value", lambda key: 0.8)
    cuts = [30.0, 60.0, 90.0, 120.0]
    noise = np.full(360, 0.2)
    noise[(t >= 60) & (t < 90)] = 2.0
    noise[(t >= 68) & (t < 68.5)] = 0.2  # a blink inside the shot
    assert [e for e in st.stretch_events(_samples(noise), {}, cuts) if e.type == "noise"] == []
    noise[(t >= 60) & (t < 61.5)] = 0.6  # its first 1.5 s coded apart
    assert [e for e in st.stretch_events(_samples(noise), {}, cuts) if e.type == "noise"] == []


def _luma_with(shape: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Samples every 0.5 s over one 180-s shot whose frame luma follows `shape` (per sample)."""
    n = len(shape)
    samples = {"t": np.arange(n) * 0.5, "frame": np.arange(n) * 10}
    return samples, {"luma": np.repeat(shape, 10)}


def _limits(plain: float, abrupt: float):
    return lambda key: abrupt if key.endswith("_abrupt") else plain


def test_a_picture_darkened_at_once_is_judged_on_the_abrupt_limit(monkeypatch):
    """Half the light, switched off and on between two samples inside a shot: below the
    plain limit (a scene may fade to night), above the abrupt one."""
    t = np.arange(360) * 0.5
    luma = np.full(360, 120.0)
    luma[(t >= 60) & (t < 90)] = 56.0  # log (64 / 128): a departure of ~0.69
    monkeypatch.setattr(st, "value", _limits(1.8, 0.35))
    found = [e for e in st.stretch_events(*_luma_with(luma)) if e.subtype == "too dark"]
    assert len(found) == 1, found
    assert abs(found[0].start_s - 60) <= 1.0 and abs(found[0].end_s - 90) <= 1.0
    assert found[0].evidence["limit"] == 0.35


def test_a_scene_fading_to_night_is_no_abrupt_stretch(monkeypatch):
    """The same darkening reached over 4 s at each end (a fade) is the content's own change:
    only the plain limit applies, and it is not reached."""
    t = np.arange(360) * 0.5
    luma = np.full(360, 120.0)
    luma[(t >= 64) & (t < 86)] = 56.0
    for a, b in ((60, 64), (86, 90)):
        sel = (t >= a) & (t < b)
        ramp = np.linspace(0, 1, sel.sum())
        luma[sel] = 120.0 + (56.0 - 120.0) * (ramp if a == 60 else ramp[::-1])
    monkeypatch.setattr(st, "value", _limits(1.8, 0.35))
    assert [e for e in st.stretch_events(*_luma_with(luma)) if e.subtype == "too dark"] == []


def test_a_departure_swinging_about_the_limit_is_one_stretch(monkeypatch):
    """Darkening over 40 s of a shot whose own brightness swings (a hand-held clip): the
    departure dips below the limit for 3 s at a time but stays beyond 0.75 of it, so the
    stretch is one, end to end (without the hysteresis it came apart in pieces)."""
    t = np.arange(360) * 0.5
    luma = np.full(360, 120.0)
    inside = (t >= 60) & (t < 100)
    luma[inside] = 80.0
    dip = inside & ((t - 60) % 10 >= 6)  # every 10 s, 4 s a little brighter
    luma[dip] = 88.0
    monkeypatch.setattr(st, "value", _limits(1.8, 0.36))
    found = [e for e in st.stretch_events(*_luma_with(luma)) if e.subtype == "too dark"]
    assert len(found) == 1, found
    assert abs(found[0].start_s - 60) <= 1.0 and abs(found[0].end_s - 100) <= 1.0, found
