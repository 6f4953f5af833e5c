"""Camera shake: global motion reversing several times a second well above what the footage
shows around it is one jitter event; a pan, a slow sway, single jumps and footage that shakes
all through (its hand-held look) are not."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np

from tests.test_events import FPS, _frames, _samples, _scenes
from tools.detectors import detect_events
from tools.detectors.calibration import value
from tools.detectors.jitter import (
    SHAKE_RISE,
    SHAKE_RISE_LONG,
    jitter_events,
    shake_level,
    shake_rise,
)
from tools.ffmpeg import ffmpeg_exe

SCENES = _scenes([0.0, 90.0])


def _still(seconds: float = 90.0) -> dict[str, np.ndarray]:
    """A camera on a tripod: sub-pixel estimator noise, confident estimates."""
    f = _frames(seconds)
    f["motion_conf"] = np.full(len(f["t"]), 0.85)
    return f


def _move(f: dict[str, np.ndarray], start: float, end: float, position) -> None:
    """Add the global motion (px/frame) of a displacement `position(t)` between start and end."""
    sel = (f["t"] >= start) & (f["t"] < end)
    t = f["t"][sel]
    px, py = position(t)
    vx, vy = np.diff(px, prepend=px[0]), np.diff(py, prepend=py[0])
    f["motion_x"][sel] += vx
    f["motion_y"][sel] += vy


def _shake(amp: float):
    """Back and forth several times a second, no net drift (two beating frequencies)."""
    return lambda t: (amp * np.sin(2 * np.pi * 2.9 * t) * np.cos(2 * np.pi * 0.8 * t),
                      amp * np.cos(2 * np.pi * 3.6 * t) * np.sin(2 * np.pi * 0.6 * t))


def _jitter(f: dict[str, np.ndarray]) -> list:
    return [e for e in jitter_events(f, SCENES, FPS)]


def test_shake_over_a_window_is_one_jitter_event():
    f = _still()
    _move(f, 30.0, 50.0, _shake(2.0))
    (e,) = _jitter(f)
    assert e.type == "jitter" and e.subtype == "camera shake"
    assert abs(e.start_s - 30.0) <= 2.0 and abs(e.end_s - 50.0) <= 2.0, e
    assert e.evidence["shake_rise"] > e.evidence["limit"]
    events = detect_events(f, _samples(90.0), SCENES, FPS)
    assert [x.type for x in events if x.type == "jitter"] == ["jitter"], events


def test_stronger_shake_is_more_severe():
    sev = []
    for amp in (2.0, 4.0):
        f = _still()
        _move(f, 30.0, 50.0, _shake(amp))
        (e,) = _jitter(f)
        sev.append(e.severity)
    assert sev[0] < sev[1]


def test_a_pan_and_a_slow_sway_are_no_shake():
    f = _still()
    _move(f, 20.0, 40.0, lambda t: (3.0 * FPS * (t - 20.0), 0.0 * t))  # 3 px/frame one way
    _move(f, 50.0, 80.0, lambda t: (8.0 * np.sin(2 * np.pi * 0.3 * t), 4.0 * np.cos(
        2 * np.pi * 0.25 * t)))  # a hand-held camera swaying
    assert _jitter(f) == []


def test_single_jumps_are_no_shake():
    f = _still()
    f["motion_x"][np.arange(200, 2000, 200)] = 12.0  # a loop point every 8 s
    assert _jitter(f) == []


def test_footage_that_shakes_all_through_has_that_look():
    f = _still()
    _move(f, 0.0, 90.0, _shake(1.5))
    level = shake_level(f, SCENES, FPS)
    assert np.nanmedian(level) > 0.5  # it does shake ...
    assert _jitter(f) == []  # ... as all of it does: no departure from its own footage


def test_shake_wavering_under_the_limit_for_a_while_stays_one_event():
    # shaken hard, then for 4 s more gently (under the 3-s limit, above what clean footage
    # holds for 10 s), then hard again: one event, not two
    f = _still(120.0)
    _move(f, 30.0, 42.0, _shake(2.0))
    _move(f, 42.0, 46.0, _shake(0.4))
    _move(f, 46.0, 60.0, _shake(2.0))
    rise = jitter_rise(f)
    gentle = (f["t"] >= 43.0) & (f["t"] < 45.0)
    assert np.exp(np.max(rise[gentle])) < value(SHAKE_RISE.key)
    (e,) = jitter_events(f, _scenes([0.0, 120.0]), FPS)
    assert abs(e.start_s - 30.0) <= 2.0 and abs(e.end_s - 60.0) <= 2.0, e


def test_shake_added_to_footage_that_shakes_is_found_when_it_holds():
    # a hand-held look all through, shaken 2.5 times as hard for 20 s: under the 3-s limit,
    # but held for longer than clean footage holds any rise, stepping up and down in the shot
    f = _still(120.0)
    _move(f, 0.0, 120.0, _shake(1.0))
    _move(f, 40.0, 60.0, _shake(1.5))
    rise = jitter_rise(f)
    assert np.exp(np.max(rise[(f["t"] > 42.0) & (f["t"] < 58.0)])) < value(SHAKE_RISE.key)
    (e,) = jitter_events(f, _scenes([0.0, 120.0]), FPS)
    assert e.subtype == "camera shake"
    assert abs(e.start_s - 40.0) <= 2.0 and abs(e.end_s - 60.0) <= 2.0, e


def test_a_brief_harder_shake_on_footage_that_shakes_is_its_look():
    # the same, for 6 s only: a swing or a bounce of the hand-held camera
    f = _still(120.0)
    _move(f, 0.0, 120.0, _shake(1.0))
    _move(f, 40.0, 46.0, _shake(1.5))
    assert jitter_events(f, _scenes([0.0, 120.0]), FPS) == []


def test_a_shot_shakier_than_the_still_shots_around_it_is_its_look():
    # a hand-held shot cut between tripod shots: it changes level at its cuts only
    f = _still(120.0)
    _move(f, 40.0, 60.0, _shake(0.3))
    cuts = _scenes([0.0, 40.0, 60.0, 120.0])
    assert np.exp(np.max(shake_rise(f, cuts, FPS)[0][(f["t"] > 42.0) & (f["t"] < 58.0)])) > \
        value(SHAKE_RISE_LONG.key)
    assert jitter_events(f, cuts, FPS) == []
    # the same shake starting inside the tripod shot before it steps up there: shake
    f = _still(120.0)
    _move(f, 30.0, 60.0, _shake(0.3))
    (e,) = jitter_events(f, cuts, FPS)
    assert abs(e.start_s - 30.0) <= 2.0 and abs(e.end_s - 60.0) <= 2.0, e


def jitter_rise(f: dict[str, np.ndarray]) -> np.ndarray:
    return shake_rise(f, _scenes([0.0, 120.0]), FPS)[0]


def test_unconfident_motion_is_not_judged():
    f = _still()
    _move(f, 30.0, 50.0, _shake(2.0))
    f["motion_conf"][(f["t"] >= 30.0) & (f["t"] < 50.0)] = 0.2  # content moving on its own
    assert _jitter(f) == []


def test_shake_in_a_real_encode_is_found(tmp_path: Path):
    """A moving crop (ffmpeg's crop with a time expression, scaled back) over 12-26 s of a
    still test card: the index reports camera shake there."""
    shake = ("crop=iw-24:ih-24:'12+12*sin(2*PI*3.1*t)*cos(2*PI*0.9*t)':"
             "'12+12*cos(2*PI*2.3*t)*sin(2*PI*1.3*t)',scale=320:240,setsar=1")
    graph = (f"[0:v]split=3[a][b][c];[a]trim=0:12,setpts=PTS-STARTPTS[p0];"
             f"[b]trim=12:26,setpts=PTS-STARTPTS,{shake}[p1];"
             f"[c]trim=26:40,setpts=PTS-STARTPTS[p2];[p0][p1][p2]concat=n=3:v=1:a=0[v]")
    shakes, events = _jitter_in_encode(tmp_path, "smptehdbars", graph)
    assert len(shakes) == 1, events
    assert abs(shakes[0].start_s - 12.0) <= 2.0 and abs(shakes[0].end_s - 26.0) <= 2.0, shakes


def _jitter_in_encode(tmp_path: Path, card: str, graph: str) -> tuple[list, list]:
    """The jitter events, and all events, of 40 s of lavfi `card` at 320x240 25 fps put
    through filter graph `graph` ([0:v] in, [v] out) and encoded with libx264."""
    from tools.index import get_index

    video = tmp_path / "jitter.mp4"
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"{card}=size=320x240:rate=25", "-t", "40", "-filter_complex", graph,
                    "-map", "[v]", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20",
                    "-pix_fmt", "yuv420p", str(video)], check=True)
    idx = get_index(video, cache_dir=tmp_path / "cache", progress=False, clip=False)
    return [e for e in idx.events if e.type == "jitter"], idx.events


def test_a_pan_shown_at_a_third_of_the_rate_is_no_shake():
    """Held frames (no motion) and the jumps after them (three frames' motion) are a rate
    drop's cadence, not the camera reversing."""
    f = _still()
    f["diff"] = np.full(len(f["t"]), 2.0)
    sel = np.flatnonzero((f["t"] >= 30.0) & (f["t"] < 50.0))
    held = sel[(sel - sel[0]) % 3 != 0]
    f["motion_x"][sel] = 6.0
    f["motion_x"][held] = 0.0
    f["diff"][held] = 0.02
    assert _jitter(f) == []


def test_shake_across_frequent_cuts_is_one_stretch():
    f = _still()
    _move(f, 30.0, 50.0, _shake(2.0))
    cuts = _scenes([0.0, 33.0, 37.0, 41.0, 45.0, 90.0])
    found = jitter_events(f, cuts, FPS)
    assert len(found) == 1 and found[0].start_s <= 33.5 and found[0].end_s >= 48.0, found


def _random_displacement(f: dict[str, np.ndarray], start: float, end: float, amp: float,
                         seed: int = 3) -> None:
    """Move the picture to a fresh random position (uniform within +-amp px) every frame."""
    rng = np.random.default_rng(seed)
    _move(f, start, end, lambda t: tuple(rng.uniform(-amp, amp, size=(2, len(t)))))


def test_random_displacement_lasting_minutes_is_found():
    """A picture displaced at random every frame is no camera's look however long it lasts:
    over 100 of 150 s its level is the footage's usual one, and it is still found."""
    f = _still(150.0)
    _random_displacement(f, 20.0, 120.0, 1.5)
    found = jitter_events(f, _scenes([0.0, 150.0]), FPS)
    assert len(found) == 1, found
    e = found[0]
    assert e.subtype == "frame jitter", e
    assert abs(e.start_s - 20.0) <= 2.0 and abs(e.end_s - 120.0) <= 2.0, e
    assert e.evidence["random_px"] >= e.evidence["random_limit"]


def test_faint_random_displacement_is_below_the_limit():
    """Estimator-level random motion (a tenth of a pixel) is what clean footage shows."""
    f = _still(150.0)
    _random_displacement(f, 20.0, 120.0, 0.15)
    assert jitter_events(f, _scenes([0.0, 150.0]), FPS) == []


def test_random_jitter_in_a_real_encode_is_found(tmp_path: Path):
    """A crop moved to a random position every frame (ffmpeg's random()) over 8-38 s of a
    40-s test card, scaled back and encoded: most of the video jitters, and the index still
    reports it as frame jitter."""
    weave = ("crop=iw-24:ih-24:'12+12*(2*random(0)-1)':'12+12*(2*random(1)-1)',"
             "scale=320:240,setsar=1")
    graph = (f"[0:v]split=2[a][b];[a]trim=0:8,setpts=PTS-STARTPTS[p0];"
             f"[b]trim=8:40,setpts=PTS-STARTPTS,{weave}[p1];[p0][p1]concat=n=2:v=1:a=0[v]")
    shakes, events = _jitter_in_encode(tmp_path, "testsrc2", graph)
    assert len(shakes) == 1, events
    assert shakes[0].subtype == "frame jitter", shakes
    assert shakes[0].start_s <= 10.0 and shakes[0].end_s >= 36.0, shakes


def test_random_jitter_on_top_of_a_swaying_camera_is_found():
    """A hand-held camera sways (a large, smooth shake level of its own, so random jitter is
    a small share of it); random displacement over 30 s of 120 s still multiplies the
    frame-to-frame reversal several times over its usual level."""
    f = _still(120.0)
    _move(f, 0.0, 120.0, lambda t: (4.0 * np.sin(2 * np.pi * 1.5 * t),
                                    3.0 * np.cos(2 * np.pi * 1.2 * t)))  # the camera's sway
    _random_displacement(f, 40.0, 70.0, 1.2)
    found = jitter_events(f, _scenes([0.0, 120.0]), FPS)
    assert len(found) == 1, found
    assert found[0].subtype == "frame jitter", found
    assert abs(found[0].start_s - 40.0) <= 2.0 and abs(found[0].end_s - 70.0) <= 2.0, found


def test_calibration_measures_the_shake_of_a_clean_video_once(monkeypatch):
    """The three shake quantities read one `shake_rise` per clean video, with the same values
    as computing it afresh for each."""
    from tools.detectors import jitter
    from tools.detectors.calibration import CleanVideo

    f = _still()
    _move(f, 30.0, 36.0, _shake(2.0))
    quantities = (jitter.SHAKE_RISE, jitter.JERK_RISE, jitter.RANDOM_LEVEL)
    fresh = [q.measure(CleanVideo("v", FPS, f, {}, SCENES, [])) for q in quantities]
    calls = []
    real = jitter.shake_rise
    monkeypatch.setattr(jitter, "shake_rise", lambda *a: calls.append(1) or real(*a))
    video = CleanVideo("v", FPS, f, {}, SCENES, [])
    assert [q.measure(video) for q in quantities] == fresh
    assert len(calls) == 1
    other = CleanVideo("w", FPS, _still(), {}, SCENES, [])
    jitter.SHAKE_RISE.measure(other)
    assert len(calls) == 2  # another video's frames are measured on their own
