"""Frame-rate drops: a regular cadence of held frames over seconds is one frame_drop event
spanning it (its holds are not also read as repeated frames or stutter), while a cadence all
through the video (a cartoon on twos), one long hold and irregular holds are not rate drops."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np

from tests.test_events import FPS, _frames, _samples, _scenes
from tools.detectors import detect_events
from tools.detectors.frame_drop import SUBTYPE, cadence, rate_drop_events
from tools.ffmpeg import ffmpeg_exe


def _moving(seconds: float, seed: int = 3) -> dict[str, np.ndarray]:
    """Per-frame signals of footage that moves all the time (frame differences ~2 grey)."""
    f = _frames(seconds)
    f["diff"] = 2.0 + np.random.default_rng(seed).normal(0, 0.3, len(f["t"]))
    return f


def _hold(f: dict[str, np.ndarray], start: float, end: float, k: int) -> None:
    """From start to end every picture is shown k times: k-1 near copies (encoder residual),
    then one frame carrying the motion of k."""
    idx = np.flatnonzero((f["t"] >= start) & (f["t"] < end))
    held = idx[(idx - idx[0]) % k != 0]
    f["diff"][held] = 0.03
    f["diff"][idx[(idx - idx[0]) % k == 0]] *= k


def _drops(events: list) -> list:
    return [e for e in events if e.subtype == SUBTYPE]


def test_a_third_of_the_rate_over_a_window_is_one_frame_drop_event():
    f = _moving(90.0)
    _hold(f, 30.0, 50.0, 3)
    events = detect_events(f, _samples(90.0), _scenes([0.0, 90.0]), FPS)
    drops = _drops(events)
    assert len(drops) == 1, events
    e = drops[0]
    assert e.type == "frame_drop" and abs(e.start_s - 30.0) <= 1.5 and abs(e.end_s - 50.0) <= 1.5
    assert e.evidence["hold_frames"] == 3 and e.evidence["effective_fps"] == round(FPS / 3, 2)
    # its held frames are not reported again as repeated frames or stutter
    assert not [x for x in events if x.type in ("frame_drop", "stutter") and x is not e
                and x.start_s < 50.0 and x.end_s > 30.0], events


def test_the_hold_sets_the_severity():
    sev = {}
    for k in (2, 5):
        f = _moving(90.0)
        _hold(f, 30.0, 50.0, k)
        (e,) = rate_drop_events(f, FPS)
        sev[k] = e.severity
    assert sev[2] < sev[5]


def test_cadence_reads_the_hold_of_each_frame():
    f = _moving(40.0)
    _hold(f, 10.0, 30.0, 5)
    score, hold = cadence(f["diff"], FPS)
    inside = (f["t"] >= 12.0) & (f["t"] < 28.0)
    assert (hold[inside] == 5).all() and (score[inside] > 3.0).all()
    outside = (f["t"] > 2.0) & (f["t"] < 8.0)
    assert (score[outside] < 0.5).all()


def test_a_cadence_all_through_the_video_is_its_look():
    f = _moving(90.0)
    _hold(f, 0.0, 90.0, 2)  # animated on twos from start to end
    assert rate_drop_events(f, FPS) == []


def test_one_long_hold_and_irregular_holds_are_no_rate_drop():
    f = _moving(90.0)
    f["diff"][(f["t"] >= 30.0) & (f["t"] < 34.0)] = 0.03  # a freeze
    rng = np.random.default_rng(5)
    for i in np.sort(rng.choice(np.arange(1250, 1750), 60, replace=False)):
        f["diff"][i: i + rng.integers(1, 4)] = 0.03  # stutter: holds at random, 1-3 frames
    assert rate_drop_events(f, FPS) == []


def test_a_rate_drop_in_a_real_encode_is_found(tmp_path: Path):
    """ffmpeg's fps filter halves the rate of a moving test pattern over 12-24 s of 36 s; the
    libx264 encode leaves a residual in the held frames: the index reports the drop."""
    from tools.index import get_index

    video = tmp_path / "drop.mp4"
    src = "testsrc2=size=160x120:rate=25"
    graph = ("[0:v]split=3[a][b][c];[a]trim=0:12,setpts=PTS-STARTPTS[p0];"
             "[b]trim=12:24,setpts=PTS-STARTPTS,fps=12.5,fps=25[p1];"
             "[c]trim=24:36,setpts=PTS-STARTPTS[p2];[p0][p1][p2]concat=n=3:v=1:a=0[v]")
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-f", "lavfi", "-i", src, "-t", "36",
                    "-filter_complex", graph, "-map", "[v]", "-c:v", "libx264", "-preset",
                    "ultrafast", "-crf", "20", "-pix_fmt", "yuv420p", str(video)], check=True)
    idx = get_index(video, cache_dir=tmp_path / "cache", progress=False, clip=False)
    drops = [e for e in idx.events if e.type == "frame_drop"]
    assert len(drops) == 1, idx.events
    assert abs(drops[0].start_s - 12.0) <= 1.5 and abs(drops[0].end_s - 24.0) <= 1.5, drops
    assert drops[0].evidence["hold_frames"] == 2
