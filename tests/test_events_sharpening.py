"""Over-sharpening on synthetic series: a halo that swings with the content, a stretch over
short shots whose grain and isolated pixels are the sharpening's, and a halo all through at
a level clean footage reaches (no whole-video event to hide the rest)."""

from __future__ import annotations

import numpy as np

import tools.detectors.confirm  # noqa: F401 - declares the whole-video quantities
from tests.event_series import FPS, _frames, _samples, _scenes
from tools.detectors import calibration as cal
from tools.detectors import detect_events
from tools.detectors.confirm import confirm
from tools.detectors.sharpened import sharpened_grain


def _iou(e, a: float, b: float) -> float:
    inter = max(0.0, min(e.end_s, b) - max(e.start_s, a))
    return inter / (max(e.end_s, b) - min(e.start_s, a))


def _sharpen(s: dict, part: np.ndarray, halo: np.ndarray | float, grain: float = 1.5,
             sharpness: float = 6.0, detail: float = 1.8) -> None:
    """Unsharp masking over `part`: its signals multiplied by these factors."""
    s["sharpness"][part] *= sharpness
    s["detail"][part] *= detail
    s["noise"][part] *= grain
    s["halo"][part] *= halo


def test_a_sharpened_stretch_whose_halo_swings_with_the_content_is_one_event():
    """The halo of a sharpened shot follows its edges: some samples stand out clearly (x2.6),
    others only halfway (x1.6, under the spec's smallest deviation). The clear ones find it,
    the others continue it: one event over the stretch, not fragments of it."""
    s = _samples(150.0)
    t = s["t"]
    part = (t >= 60.0) & (t < 90.0)
    swing = np.where((t[part] // 3.0) % 2 == 0, 2.6, 1.6)  # 3 s clear, 3 s halfway
    _sharpen(s, part, swing)
    events = confirm(detect_events(_frames(150.0), s, _scenes([0.0, 150.0]), FPS))
    sharp = [e for e in events if e.type == "sharpening"]
    assert len(sharp) == 1 and _iou(sharp[0], 60.0, 90.0) >= 0.9, events


def test_a_sharpened_stretch_over_short_shots_is_not_noise():
    """Heavy unsharp masking over 17 s of footage cutting every 3-5 s: the grain and the
    isolated black and white pixels rise with it (overshoot clipped), the halo rises about
    half as far as the sharpness. The noise is the sharpening's doing: one sharpening event,
    measured from its steps (each shot inside has its sharpened level as its own reference),
    and no noise event."""
    s = _samples(120.0)
    t = s["t"]
    part = (t >= 41.5) & (t < 58.5)
    _sharpen(s, part, 3.0, grain=4.0, sharpness=10.0, detail=2.2)
    s["impulse"][part] = 0.04
    cuts = [0.0, 36.25, 40.25, 45.25, 48.5, 53.5, 56.5, 61.5, 80.0, 120.0]
    events = confirm(detect_events(_frames(120.0), s, _scenes(cuts), FPS))
    sharp = [e for e in events if e.type == "sharpening"]
    assert len(sharp) == 1 and _iou(sharp[0], 41.5, 58.5) >= 0.9, events
    assert not [e for e in events if e.type == "noise"], events


def test_grain_is_not_taken_for_sharpening():
    """Added grain lifts the Laplacian but hardly the halo beside strong edges; unsharp
    masking lifts the halo about half as far as the Laplacian."""
    s = _samples(60.0)
    t = s["t"]
    clean, noisy = t < 30.0, t >= 30.0
    s["sharpness"][noisy] *= 6.0
    s["halo"][noisy] *= 1.1
    assert not sharpened_grain(s, clean, noisy)
    s["halo"][noisy] *= 2.0
    assert sharpened_grain(s, clean, noisy)


def test_halo_all_through_at_a_clean_level_hides_no_needle():
    """A sharp camera video has a halo median of up to 37 all through (calibrated
    whole.halo.p50 beyond it): no whole-video sharpening, so it explains no grain needle away
    and the needle is reported."""
    s = _samples(90.0)
    level = 0.4 * cal.value("whole.halo.p50")
    assert level > 18.0  # beyond the nominal whole-video limit: it used to be an event
    s["halo"] *= level / 8.0
    s["noise"][(s["t"] >= 40.0) & (s["t"] < 60.0)] = 12.0
    events = confirm(detect_events(_frames(90.0), s, _scenes([0.0, 30.0, 90.0]), FPS))
    assert not [e for e in events if e.evidence.get("whole_video")], events
    noise = [e for e in events if e.type == "noise"]
    assert len(noise) == 1 and _iou(noise[0], 40.0, 60.0) >= 0.9, events


def test_the_footage_beside_a_low_contrast_stretch_is_not_sharpened():
    """Contrast cut to a third flattens the halo with everything else: the footage right
    beside it is the shot's clean look, not sharpened against it."""
    s = _samples(90.0)
    low = (s["t"] >= 17.5) & (s["t"] < 30.0)
    for name, factor in (("contrast_range", 0.3), ("halo", 0.3), ("sharpness", 0.1),
                         ("white", 0.6)):
        s[name][low] *= factor
    s["black"][low] = 90.0
    events = confirm(detect_events(_frames(90.0), s, _scenes([0.0, 40.0, 90.0]), FPS))
    assert [e for e in events if e.type == "exposure"], events
    assert not [e for e in events if e.type == "sharpening"], events



def test_clean_footage_just_after_a_blur_ends_is_not_sharpened(monkeypatch):
    """A blur over footage cutting every 3-5 s ends 1.5 s into a shot: judged against that
    shot's blurred start, its clean rest reads as over-sharpened (signal levels of a broadcast
    clip with gblur sigma 3 over 30-50 s). It is judged against the footage outside the blur:
    the candidate is dropped, while one that is sharper than the unblurred footage stays."""
    from tools.detectors import sharpening
    from tools.detectors.base import Context
    from tools.detectors.sharpening import blur_or_sharpening
    from tools.model import Event

    # the blur stays blur (as it did on the clip): this judges the sharpening candidate only
    monkeypatch.setattr(sharpening, "_instead", lambda *a: None)

    s = _samples(150.0)
    t = s["t"]
    levels = {"sharpness": (15800.0, 150.0, 6800.0), "halo": (36.0, 3.7, 20.0),
              "detail": (1.19, 0.25, 0.84), "noise": (0.19, 0.11, 0.20)}
    blurred, settling = (t >= 30.0) & (t < 50.0), (t >= 50.0) & (t < 52.0)
    for name, (clean, blur, after) in levels.items():
        s[name] = np.full(len(t), clean)
        s[name][blurred], s[name][settling] = blur, after
    cuts = [0.0, 27.3, 32.3, 35.4, 40.4, 43.5, 48.5, 51.6, 56.6, 59.7, 64.7, 150.0]
    ctx = Context.build(_frames(150.0), s, _scenes(cuts), FPS)
    blur = Event("blur", 30.0, 50.0, 0.96, 30.0, "softness", {"signal": "detail"})
    halo = Event("sharpening", 50.0, 52.0, 1.0, 7.9, "halo", {"signal": "halo"})
    assert [e.type for e in blur_or_sharpening(ctx, [blur, halo])] == ["blur"]
    for name, factor in (("sharpness", 8.0), ("halo", 2.5), ("detail", 1.8), ("noise", 1.8)):
        s[name][settling] = levels[name][0] * factor  # sharper than the footage around
    kept = blur_or_sharpening(Context.build(_frames(150.0), s, _scenes(cuts), FPS),
                              [blur, halo])
    assert [e.type for e in kept] == ["blur", "sharpening"]
