"""Slow brightness pulsing (tools/detectors/pulsing.py): the whole picture brightening and
darkening in a steady rhythm is a flicker event even when it moves each frame too little for
the frame-to-frame test; a slow drift, a single dip and a pulse that only part of the picture
shows are not."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tools.detectors.flicker import stronger
from tools.detectors.pulsing import PULSE_LEVELS, pulse_events
from tools.ffmpeg import ffmpeg_exe
from tools.model import Event, Scene


def _frames(n: int, fps: float, wave: np.ndarray, diff_floor: float = 0.8,
            seed: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    luma = 120.0 + wave + rng.normal(0, 0.2, n)
    dm = np.abs(np.diff(luma, prepend=luma[0]))
    return {"t": np.arange(n) / fps, "luma": luma.astype(np.float32),
            "diff": (dm + diff_floor * rng.uniform(0.8, 1.2, n)).astype(np.float32)}


def _scenes(n: int, fps: float) -> list[Scene]:
    return [Scene(0.0, n / fps, 0, n - 1)]


def _pulse(n: int, fps: float, a: float, b: float, hz: float, amp: float) -> np.ndarray:
    t = np.arange(n) / fps
    return np.where((t >= a) & (t < b), amp * np.sin(2 * np.pi * hz * (t - a)), 0.0)


@pytest.mark.parametrize("hz,amp", [(1.2, 36.0), (0.7, 15.0), (2.5, 8.0)])
def test_a_slow_steady_pulse_is_flicker_where_it_is(hz, amp):
    fps, n = 30.0, 30 * 150
    f = _frames(n, fps, _pulse(n, fps, 62.0, 84.0, hz, amp))
    (e,) = pulse_events(f, _scenes(n, fps), fps)
    assert (e.type, e.subtype) == ("flicker", "brightness oscillation")
    assert abs(e.start_s - 62.0) <= 1.5 and abs(e.end_s - 84.0) <= 1.5
    assert e.evidence["luma_swing"] == pytest.approx(2 * amp, rel=0.15)
    assert abs(e.evidence["period_s"] - 1 / hz) <= 0.1


def test_a_pulse_across_cuts_is_found_shot_by_shot():
    """Footage cut every 2 s (the bikes clip) pulsing at 1.5 Hz over 30-55 s: each shot is
    detrended on its own, so the cuts neither hide the pulse nor make one."""
    fps, n = 25.0, 25 * 90
    t = np.arange(n) / fps
    shots = 60.0 + 25.0 * ((t // 2) % 3)  # each shot its own brightness
    f = _frames(n, fps, shots + _pulse(n, fps, 30.0, 55.0, 1.5, 25.0))
    scenes = [Scene(2.0 * k, 2.0 * k + 2, 50 * k, 50 * k + 49) for k in range(45)]
    (e,) = pulse_events(f, scenes, fps)
    assert abs(e.start_s - 30.0) <= 1.5 and abs(e.end_s - 55.0) <= 1.5


def test_the_swing_sets_the_severity():
    fps, n = 25.0, 25 * 120
    sev = [pulse_events(_frames(n, fps, _pulse(n, fps, 40.0, 70.0, 1.0, amp)),
                        _scenes(n, fps), fps)[0].severity for amp in (4.0, 12.0, 40.0)]
    assert sev[0] < sev[1] < sev[2] == 1.0


@pytest.mark.parametrize("case", ["drift", "dip", "tiny", "part of the picture",
                                  "bright and dark shots"])
def test_what_is_not_a_pulse(case):
    fps, n = 25.0, 25 * 120
    t = np.arange(n) / fps
    wave = _pulse(n, fps, 40.0, 70.0, 1.0, 20.0)
    scenes = _scenes(n, fps)
    diff_floor = 0.8
    if case == "drift":  # a slow exposure change, one way then back
        wave = 30.0 * np.sin(2 * np.pi * t / 60.0)
    elif case == "dip":  # a cloud passing: one dip and rise
        wave = -30.0 * np.exp(-((t - 50.0) / 0.8) ** 2)
    elif case == "tiny":
        wave = _pulse(n, fps, 40.0, 70.0, 1.0, PULSE_LEVELS[0] / 4)
    elif case == "part of the picture":  # a blinking lamp in a busy picture: diff dominates
        diff_floor = 40.0
    else:  # an edit alternating a bright and a dark shot every 1.5 s: steps, no swing
        wave = np.where((t // 1.5) % 2 == 0, 40.0, -40.0)
        scenes = [Scene(1.5 * k, 1.5 * k + 1.5, int(1.5 * k * fps), int(1.5 * (k + 1) * fps) - 1)
                  for k in range(80)]
    assert pulse_events(_frames(n, fps, wave, diff_floor), scenes, fps) == []


def test_of_two_readings_of_one_stretch_the_more_severe_stays():
    fast = Event("flicker", 62.6, 83.6, 0.27, 1.8, "brightness oscillation", {})
    slow = Event("flicker", 61.0, 85.1, 1.0, 75.8, "brightness oscillation", {})
    other = Event("flicker", 120.0, 130.0, 0.6, 3.0, "brightness oscillation", {})
    lone = Event("flicker", 150.0, 160.0, 0.5, 9.0, "brightness oscillation", {})
    merged, kept, alone = stronger([fast, other], [slow, lone])
    assert (merged.start_s, merged.end_s, merged.severity) == (62.6, 83.6, 1.0)
    assert kept == other and alone == lone
    strong = replace(fast, severity=1.0)
    assert stronger([strong], [slow]) == [strong]


def test_a_pulse_in_a_real_encode_is_found_and_the_rest_is_quiet(tmp_path: Path):
    """A moving test pattern whose brightness swings at 1.2 Hz over 20-35 s (ffmpeg's `eq`),
    encoded with libx264: one flicker event there."""
    from tools.index import get_index

    video = tmp_path / "pulse.mp4"
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=160x120:rate=25", "-t", "50", "-vf",
                    "eq=brightness='if(between(t,20,35),0.12*sin(2*PI*1.2*t),0)':eval=frame",
                    "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20",
                    "-pix_fmt", "yuv420p", str(video)], check=True)
    idx = get_index(video, cache_dir=tmp_path / "cache", progress=False, clip=False)
    flicker = [e for e in idx.events if e.type == "flicker"]
    assert len(flicker) == 1, idx.events
    assert abs(flicker[0].start_s - 20.0) <= 1.5 and abs(flicker[0].end_s - 35.0) <= 1.5


