"""Twins: a degradation judged against the same picture shown elsewhere in the video."""

from __future__ import annotations

import numpy as np

from tools.detectors import twin_events as te
from tools.detectors.calibration import QUANTITIES
from tools.detectors.twins import row_quantile, twin_index, twin_lags

FPS = 25.0
EVERY = 12  # frames between samples


def _looped(period_frames: int, seconds: float, seed: int = 0):
    """Frames of a clip looped: luma and contrast courses repeat every `period_frames`; a
    sharpness per sample that follows the clip's content."""
    rng = np.random.default_rng(seed)
    n = int(seconds * FPS)
    clip_luma = 100 + np.cumsum(rng.normal(0, 2.0, period_frames))
    clip_contrast = 40 + np.cumsum(rng.normal(0, 0.5, period_frames))
    clip_sharp = np.exp(rng.uniform(4, 7, period_frames))
    k = np.arange(n) % period_frames
    frames = {"luma": clip_luma[k] + rng.normal(0, 0.02, n),
              "contrast": clip_contrast[k] + rng.normal(0, 0.02, n), "t": np.arange(n) / FPS}
    idx = np.arange(0, n, EVERY)
    samples = {"t": idx / FPS, "frame": idx,
               "sharpness": clip_sharp[k[idx]] * rng.uniform(0.98, 1.02, len(idx)),
               "contrast_range": np.full(len(idx), 200.0)}
    return frames, samples


def _limits(monkeypatch, ratio: float = 1.3):
    monkeypatch.setattr(te, "value", lambda key: ratio)


def test_a_loop_finds_its_twins_one_period_apart():
    frames, samples = _looped(period_frames=87, seconds=90)
    twins = twin_index(twin_lags(frames, samples, FPS))
    t = samples["t"]
    i = 100
    found = twins[i][twins[i] >= 0]
    assert len(found) >= 5
    gaps = (t[found] - t[i]) * FPS / 87  # in loop periods: whole numbers
    assert np.all(np.abs(gaps - np.round(gaps)) < 0.1)


def test_footage_that_never_repeats_has_no_twins():
    rng = np.random.default_rng(3)
    n = int(90 * FPS)
    frames = {"luma": 100 + np.cumsum(rng.normal(0, 2.0, n)),
              "contrast": 40 + np.cumsum(rng.normal(0, 0.5, n))}
    idx = np.arange(0, n, EVERY)
    samples = {"t": idx / FPS, "frame": idx}
    assert not (twin_index(twin_lags(frames, samples, FPS)) >= 0).any()


def test_a_cut_or_a_still_picture_is_no_signature():
    n = int(60 * FPS)
    luma = np.where(np.arange(n) % 100 < 50, 60.0, 140.0)  # a cut every 2 s, still between
    frames = {"luma": luma, "contrast": np.full(n, 30.0)}
    idx = np.arange(0, n, EVERY)
    samples = {"t": idx / FPS, "frame": idx}
    cuts = list(range(50, n, 50))
    assert not (twin_index(twin_lags(frames, samples, FPS, cuts)) >= 0).any()


def test_a_blurred_stretch_of_a_looped_clip_is_found_where_it_lies(monkeypatch):
    frames, samples = _looped(period_frames=87, seconds=180)
    t = samples["t"]
    samples["sharpness"] = np.where((t >= 60) & (t < 90), samples["sharpness"] / 20,
                                    samples["sharpness"])
    _limits(monkeypatch)
    events = te.twin_events(samples, frames, FPS)
    assert [(e.type, e.subtype) for e in events] == [("blur", "softness")]
    assert abs(events[0].start_s - 60) <= 1.5 and abs(events[0].end_s - 90) <= 1.5
    assert events[0].evidence["judged_against"].startswith("the same picture")


def test_a_clean_loop_whose_content_swings_has_no_events(monkeypatch):
    frames, samples = _looped(period_frames=87, seconds=180, seed=5)
    _limits(monkeypatch)
    assert te.twin_events(samples, frames, FPS) == []


def test_twins_split_between_two_levels_are_no_reference(monkeypatch):
    """A course replayed at two sharpness levels (one motion drawn at two zooms): the twins
    disagree, and no sample departs beyond their spread."""
    frames, samples = _looped(period_frames=87, seconds=180, seed=7)
    loop = (samples["frame"] // 87) % 2
    samples["sharpness"] = samples["sharpness"] * np.where(loop == 1, 4.0, 1.0)
    _limits(monkeypatch)
    assert te.twin_events(samples, frames, FPS) == []


def test_a_hue_turn_is_a_hue_shift_and_a_small_wobble_is_not(monkeypatch):
    frames, samples = _looped(period_frames=87, seconds=180, seed=9)
    t = samples["t"]
    angle = np.radians(40 + 5 * np.sin(samples["frame"] % 87))
    angle = np.where((t >= 100) & (t < 130), angle + np.radians(90), angle)
    samples["hue_x"], samples["hue_y"] = 0.1 * np.cos(angle), 0.1 * np.sin(angle)
    samples.pop("sharpness")
    _limits(monkeypatch)
    events = te.twin_events(samples, frames, FPS)
    assert [(e.subtype, round(e.start_s), round(e.end_s)) for e in events] == [
        ("hue shift", 100, 130)] or (
        len(events) == 1 and events[0].subtype == "hue shift"
        and abs(events[0].start_s - 100) <= 1.5 and abs(events[0].end_s - 130) <= 1.5)


def test_of_measures_moved_together_the_furthest_past_its_limit_names_the_event(monkeypatch):
    """Darkening lowers the sharpness too: the luma's departure passes its limit further."""
    frames, samples = _looped(period_frames=87, seconds=180, seed=11)
    t = samples["t"]
    dark = (t >= 40) & (t < 70)
    fdark = (frames["t"] >= 40) & (frames["t"] < 70)
    frames["luma"] = np.where(fdark, frames["luma"] * 0.3, frames["luma"])
    samples["sharpness"] = np.where(dark, samples["sharpness"] * 0.75, samples["sharpness"])
    _limits(monkeypatch)
    events = te.twin_events(samples, frames, FPS)
    assert [(e.type, e.subtype) for e in events] == [("exposure", "too dark")]


def test_every_twin_measure_declares_its_calibrated_limit():
    for m in te.MEASURES:
        q = QUANTITIES[f"twin.{m.key}"]
        assert q.log and q.direction == +1


def test_row_quantile_matches_numpy_on_rows_with_gaps():
    rng = np.random.default_rng(2)
    a = rng.normal(size=(50, 9))
    a[rng.random(a.shape) < 0.4] = np.nan
    a[0] = np.nan
    for q in (0.5, 0.75):
        want = np.array([np.nanquantile(r, q) if np.isfinite(r).any() else np.nan for r in a])
        np.testing.assert_allclose(row_quantile(a, q), want, equal_nan=True)


def _event(type_: str, sub: str, a: float, b: float, **evidence) -> te.Event:
    return te.Event(type=type_, subtype=sub, start_s=a, end_s=b, severity=0.8, score=2.0,
                    evidence=evidence)


def test_an_event_whose_picture_equals_its_twins_is_the_content(monkeypatch):
    """A shot read as oversaturated by its scene looks the same wherever the loop shows it
    again: the twins contradict it. A real oversaturated stretch departs from its twins."""
    frames, samples = _looped(period_frames=87, seconds=180, seed=13)
    t = samples["t"]
    samples["saturation"] = 30 + 20 * np.sin(samples["frame"] % 87)
    _limits(monkeypatch)
    twins = twin_index(twin_lags(frames, samples, FPS))
    content = _event("colour", "oversaturation", 40.0, 44.0)
    assert te.contradicted(content, samples, frames, twins)
    samples["saturation"] = np.where((t >= 100) & (t < 130), samples["saturation"] * 2.5,
                                     samples["saturation"])
    real = _event("colour", "oversaturation", 100.0, 130.0)
    assert not te.contradicted(real, samples, frames, twins)
    assert not te.contradicted(_event("freeze", "frozen picture", 40.0, 44.0), samples, frames,
                               twins)


def test_no_event_of_another_picture_type_explains_a_twin_stretch_away():
    twin = _event("exposure", "too dark", 38.0, 64.0,
                  judged_against="the same picture elsewhere in the video")
    whole = _event("compression", "pixelation", 0.0, 180.0, whole_video=True)
    drops = _event("frame_drop", "repeated frames", 0.0, 179.0)
    out = te.with_twins([whole, drops], [twin])
    assert sorted((e.type, e.start_s) for e in out) == [
        ("compression", 0.0), ("exposure", 38.0), ("frame_drop", 0.0)]
    flicker = _event("flicker", "", 30.0, 70.0)  # flicker moves the luma: its doing
    assert [e.type for e in te.with_twins([flicker], [twin])] == ["flicker"]
    same = _event("exposure", "too dark", 55.0, 80.0)  # one of its own type: widened
    assert [(e.start_s, e.end_s) for e in te.with_twins([same], [twin])] == [(38.0, 80.0)]


def test_a_darker_or_flatter_picture_is_not_read_as_blur(monkeypatch):
    """Darkening scales the Laplacian's variance with the square of the gain: read against
    the contrast range, sharpness does not move, and the stretch is named by its luma."""
    frames, samples = _looped(period_frames=87, seconds=180, seed=17)
    t = samples["t"]
    gain = np.where((t >= 60) & (t < 90), 0.5, 1.0)
    samples["contrast_range"] = 200.0 * gain
    samples["sharpness"] = samples["sharpness"] * gain ** 2
    fgain = np.where((frames["t"] >= 60) & (frames["t"] < 90), 0.5, 1.0)
    frames["luma"] = frames["luma"] * fgain
    _limits(monkeypatch)
    assert {e.type for e in te.twin_events(samples, frames, FPS)} == {"exposure"}


def test_twin_severity_grows_with_the_departure_and_keeps_a_detector_s_own_grade():
    assert te._severity(1.0) == 0.3
    assert 0.3 < te._severity(3.0) < te._severity(8.0) < te._severity(19.0) < 1.0
    assert te._severity(te.SEVERE_TIMES) == 1.0
    twin = _event("blur", "softness", 20.0, 60.0,
                  judged_against="the same picture elsewhere in the video")
    graded = te.Event(type="blur", subtype="softness", start_s=30.0, end_s=40.0,
                      severity=0.45, score=1.2)
    (out,) = te.with_twins([graded], [twin])
    assert (out.start_s, out.end_s, out.severity) == (20.0, 60.0, 0.45)


def test_a_macroblocked_stretch_takes_the_blur_inside_it_not_the_blur_around_it():
    coded = _event("compression", te.MACROBLOCKING, 60.0, 90.0,
                   judged_against="the same picture elsewhere in the video")
    smoothing = _event("blur", "softness", 62.0, 88.0)  # the coder's smoothing
    elsewhere = _event("blur", "softness", 120.0, 140.0)
    longer = _event("blur", "softness", 30.0, 120.0)  # a blur holding the coded moment
    out = te.with_twins([smoothing, elsewhere, longer], [coded])
    assert sorted((e.type, e.start_s) for e in out) == [
        ("blur", 30.0), ("blur", 120.0), ("compression", 60.0)]
