"""Ogg Theora, which decord cannot open (no stated duration), is read through ffmpeg."""

from __future__ import annotations

import json
import shutil
import subprocess

import numpy as np
import pytest
from tiny_videos import tiny_video
from typer.testing import CliRunner

from agent.cli import app
from tools.errors import VideoError
from tools.ffmpeg import ffmpeg_exe
from tools.ffreader import FfmpegReader
from tools.video import frames_at, frames_between, open_reader, probe_video


def _theora_ffmpeg() -> str | None:
    """An ffmpeg that can encode Theora (the bundled static build cannot)."""
    for exe in (shutil.which("ffmpeg"), "/usr/bin/ffmpeg"):
        if not exe:
            continue
        try:
            enc = subprocess.run([exe, "-hide_banner", "-encoders"], capture_output=True,
                                 text=True, timeout=30).stdout
        except OSError:
            continue
        if "libtheora" in enc:
            return exe
    return None


@pytest.fixture(scope="module")
def ogv(tmp_path_factory):
    exe = _theora_ffmpeg()
    if exe is None:
        pytest.skip("no ffmpeg with a Theora encoder")
    return tiny_video(tmp_path_factory.mktemp("ogv") / "clip.ogv", 2.0, size="160x96",
                      codec="libtheora", exe=exe)


def _all_frames(path) -> np.ndarray:
    raw = subprocess.run([ffmpeg_exe(), "-v", "error", "-i", str(path), "-f", "rawvideo",
                          "-pix_fmt", "rgb24", "pipe:1"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, 96, 160, 3)


def test_decord_refuses_it_and_the_ffmpeg_reader_takes_over(ogv):
    import decord

    with pytest.raises(Exception):  # noqa: B017 - decord's own error type
        decord.VideoReader(str(ogv))
    assert isinstance(open_reader(ogv), FfmpegReader)
    info = probe_video(ogv)
    assert (info.n_frames, info.fps, info.width, info.height) == (50, 25.0, 160, 96)
    assert info.duration_s == pytest.approx(2.0) and info.codec == "theora"


def test_frames_are_the_ones_at_the_asked_times(ogv):
    every = _all_frames(ogv)
    frames, times = frames_at(ogv, [0.0, 0.53, 0.55, 1.97], size=None)
    assert times == pytest.approx([0.0, 0.52, 0.52, 1.96])  # the nearest earlier frames
    for f, t in zip(frames, times, strict=True):
        assert np.array_equal(f[..., ::-1], every[int(round(t * 25))])
    frames, times = frames_between(ogv, 1.0, 1.4)
    assert len(frames) == 10 and times[0] == pytest.approx(1.0)
    assert np.array_equal(frames[3][..., ::-1], every[28])


def test_agent_index_of_an_ogv(ogv, tmp_path):
    res = CliRunner().invoke(app, ["index", str(ogv), "--json", "-q", "--no-clip",
                                   "--cache-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    video = json.loads(res.stdout)["video"]
    assert video["n_frames"] == 50 and video["codec"] == "theora"


def test_a_file_ffmpeg_cannot_read_either_is_still_refused(tmp_path):
    good = tiny_video(tmp_path / "v.mp4", 1.0)
    bad = tmp_path / "cut.ogv"
    bad.write_bytes(b"OggS" + good.read_bytes()[100:2000])
    with pytest.raises(VideoError):
        probe_video(bad)
