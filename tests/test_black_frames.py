"""Drops to black (tools/detectors/black.py): abrupt runs of black frames inside the video are
events, fades and the black a video opens or closes on are not; the brain counts them however
brief."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from agent.brains.stretches import brief_limit, split_lasting
from tools.detectors.black import SUBTYPE, black_events, without_black
from tools.detectors.gates import joined_pieces
from tools.ffmpeg import ffmpeg_exe
from tools.model import Event


def _frames(n: int, fps: float, seed: int = 1) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"t": np.arange(n) / fps, "luma": rng.uniform(100, 120, n).astype(np.float32),
            "contrast": rng.uniform(40, 60, n).astype(np.float32)}


def _black(f: dict[str, np.ndarray], a: int, b: int, luma: float = 0.0) -> None:
    f["luma"][a:b], f["contrast"][a:b] = luma, 0.0


def test_a_dropout_to_black_is_an_event_with_its_length():
    fps = 25.0
    f = _frames(1500, fps)
    _black(f, 500, 550)  # 2 s
    _black(f, 1000, 1005)  # 0.2 s flash
    events = black_events(f, fps)
    assert [(e.type, e.subtype) for e in events] == [("exposure", SUBTYPE)] * 2
    assert events[0].start_s == pytest.approx(20.0) and events[0].end_s == pytest.approx(22.0)
    assert events[0].evidence["frames"] == 50 and events[1].evidence["frames"] == 5
    assert events[0].severity == 1.0 and 0.2 < events[1].severity < events[0].severity


def test_fades_leaders_single_frames_and_dark_pictures_are_not_drops():
    fps = 25.0
    f = _frames(1500, fps)
    ramp = np.linspace(110, 5, 20)
    f["luma"][480:500] = ramp  # a fade out ...
    _black(f, 500, 525)
    f["luma"][525:545] = ramp[::-1]  # ... and in
    _black(f, 0, 25)  # the video opens on black
    _black(f, 1490, 1500)  # and closes on it
    _black(f, 800, 801)  # one black frame
    f["luma"][1100:1200], f["contrast"][1100:1200] = 6.0, 14.0  # a night shot: dark, not flat
    assert black_events(f, fps) == []


def test_events_inside_a_drop_are_its_doing_and_drops_are_counted_apart():
    fps = 25.0
    f = _frames(1500, fps)
    _black(f, 500, 550)
    _black(f, 575, 600)  # 1 s after the first: a second drop
    blacks = black_events(f, fps)
    freeze = Event("freeze", 20.0, 22.0, 0.8, 1.0)
    dark = Event("exposure", 10.0, 40.0, 0.5, 1.0, "too dark")
    assert without_black([freeze, dark], blacks) == [dark]
    assert len(joined_pieces(blacks)) == 2


def test_the_brain_counts_a_brief_drop_as_lasting():
    assert brief_limit("exposure", SUBTYPE) == 0.0 < brief_limit("exposure", "too dark")
    ev = {"type": "exposure", "subtype": SUBTYPE, "start_s": 5.0, "end_s": 5.2, "severity": 0.5}
    lasting, brief = split_lasting([ev])
    assert len(lasting) == 1 and not brief


def test_a_drop_to_black_in_a_real_encode_is_found(tmp_path: Path):
    """A moving test pattern blacked out over 10-11.5 s and faded out and in around 20 s,
    encoded with libx264: one event, at the dropout."""
    from tools.index import get_index

    video = tmp_path / "black.mp4"
    graph = ("[0:v]drawbox=t=fill:c=black:enable='between(t,10,11.5)',split[a][b];"
             "[a]trim=0:20,setpts=PTS-STARTPTS,fade=t=out:st=18.5:d=1.5[p0];"
             "[b]trim=20:30,setpts=PTS-STARTPTS,fade=t=in:st=0.5:d=1.5[p1];"
             "[p0][p1]concat=n=2:v=1:a=0[v]")
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=160x120:rate=25", "-t", "30", "-filter_complex", graph,
                    "-map", "[v]", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20",
                    "-pix_fmt", "yuv420p", str(video)], check=True)
    idx = get_index(video, cache_dir=tmp_path / "cache", progress=False, clip=False)
    blacks = [e for e in idx.events if e.subtype == SUBTYPE]
    assert len(blacks) == 1, idx.events
    assert abs(blacks[0].start_s - 10.0) <= 0.1 and abs(blacks[0].end_s - 11.5) <= 0.1
