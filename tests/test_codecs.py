"""Codecs, containers and oddities the system ffmpeg can write all index with their duration."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.reliability.cases import CASES, FPS, SECONDS, SYSTEM_FFMPEG, build, encoders
from tools.ffreader import FfmpegReader, packet_list
from tools.index import get_index
from tools.video import frames_at, frames_between, probe_video

IMPORTANT = ("theora ogv + vorbis", "mpeg-2 mpg + mp2", "vp9 webm + opus", "10-bit h264 mp4",
             "rotation 90 mp4", "odd size 721x405 vp9", "vfr 25->10 fps mkv", "h264 avi")
_BY_NAME = {c.name: c for c in CASES}


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """The important cases, written once (those whose encoder is missing are left out)."""
    directory = tmp_path_factory.mktemp("codecs")
    have = encoders(SYSTEM_FFMPEG)
    return {name: build(_BY_NAME[name], directory) for name in IMPORTANT
            if _BY_NAME[name].codec in have}


@pytest.mark.parametrize("name", IMPORTANT)
def test_it_indexes_with_its_duration_and_frame_count(made, name, tmp_path):
    if name not in made:
        pytest.skip(f"{SYSTEM_FFMPEG} has no {_BY_NAME[name].codec} encoder")
    case = _BY_NAME[name]
    index = get_index(made[name], cache_dir=tmp_path, progress=False, clip=False)
    info = index.info
    assert info.n_frames == int(SECONDS * FPS)
    assert len(index.frames["t"]) == info.n_frames and not index.meta["warnings"]
    assert info.duration_s == pytest.approx(case.expect_s, abs=0.1)
    times = index.frames["t"]
    assert times[0] == pytest.approx(0.0, abs=0.05) and np.all(np.diff(times) > 0)
    w, h = (int(v) for v in case.size.split("x"))
    assert (info.width, info.height) == ((h, w) if case.rotate % 180 else (w, h))
    assert info.vfr == name.startswith("vfr")


def test_vfr_keeps_the_two_frame_rates(made, tmp_path):
    if "vfr 25->10 fps mkv" not in made:
        pytest.skip("no libx264")
    t = get_index(made["vfr 25->10 fps mkv"], cache_dir=tmp_path, progress=False,
                  clip=False).frames["t"]
    steps = np.diff(t)
    assert steps[:39] == pytest.approx(0.04, abs=2e-3)
    # The encoder's 1/25 s clock rounds the 10 fps stamps to 0.08 and 0.12 s steps.
    assert np.mean(steps[40:]) == pytest.approx(0.1, abs=5e-3)
    assert np.all((steps[40:] > 0.07) & (steps[40:] < 0.13))


def test_rotated_frames_come_upright_at_the_displayed_size(made):
    if "rotation 90 mp4" not in made:
        pytest.skip("no libx264")
    frames, _ = frames_at(made["rotation 90 mp4"], [1.0])
    assert frames.shape[1:3] == (320, 240)  # displayed: 240 wide, 320 high


def test_avi_without_timestamps_reads_at_its_frame_rate(made):
    """Decord reads every H.264-in-AVI frame as -3.7e17 s; a constant rate stands in."""
    if "h264 avi" not in made:
        pytest.skip("no libx264")
    path = made["h264 avi"]
    info = probe_video(path)
    assert info.duration_s == pytest.approx(3.0) and info.fps == pytest.approx(25.0)
    _, times = frames_at(path, [0.0, 1.0, 2.96])
    assert times == pytest.approx([0.0, 1.0, 2.96])
    _, times = frames_between(path, 1.0, 1.2)
    assert times == pytest.approx([1.0, 1.04, 1.08, 1.12, 1.16])


def test_the_ffmpeg_reader_takes_dts_where_packets_have_no_pts(made):
    if "h264 avi" not in made:
        pytest.skip("no libx264")
    stamps, size = packet_list(made["h264 avi"])
    assert size == (320, 240) and len(stamps) == 75
    assert stamps == pytest.approx(np.arange(75) / 25.0)
    assert FfmpegReader(made["h264 avi"]).get_avg_fps() == pytest.approx(25.0)


def test_a_refusal_names_the_codec_ffmpeg_saw(tmp_path):
    from tools.video import _diagnose

    path = tmp_path / "x.mkv"
    path.write_bytes(b"\x1a\x45\xdf\xa3" + b"\0" * 64)
    probe = "Input #0, matroska\n  Stream #0:0: Video: vvc (Main 10), yuv420p10le, 320x240\n"
    assert "cannot decode vvc video" in _diagnose(path, probe)
