"""A decoder that stalls is stopped with a one-line error, never waited on forever; a normal
pass is left alone."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.tiny_videos import tiny_video
from tools import stream
from tools.errors import VideoError
from tools.model import VideoInfo


def _info(path: Path) -> VideoInfo:
    return VideoInfo(str(path), 2.0, 25.0, 50, 160, 90, "h264", False)


def _hanging_ffmpeg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An "ffmpeg" that starts and never writes a frame."""
    hang = tmp_path / "ffmpeg-that-hangs"
    hang.write_text("#!/bin/sh\nexec sleep 60\n")
    hang.chmod(0o755)
    monkeypatch.setattr(stream, "ffmpeg_exe", lambda: str(hang))


def test_a_stalled_decoder_is_killed_with_a_clear_error(tmp_path, monkeypatch):
    _hanging_ffmpeg(tmp_path, monkeypatch)
    monkeypatch.setattr(stream, "STALL_MIN_S", 1.0)
    monkeypatch.setattr(stream, "STALL_BLOCKS", 0)
    info = _info(tmp_path / "v.mp4")
    began = time.monotonic()
    with pytest.raises(VideoError, match="stalled.*no frame for 1 s"):
        for _ in stream.decode(info, stream.plan_for(info), lambda i, f: None):
            pass
    assert time.monotonic() - began < 20


def test_a_pass_running_past_its_limit_is_stopped(tmp_path, monkeypatch):
    _hanging_ffmpeg(tmp_path, monkeypatch)
    monkeypatch.setattr(stream, "PASS_BASE_S", 1.0)
    monkeypatch.setattr(stream, "PASS_PER_S", 0.0)
    info = _info(tmp_path / "v.mp4")
    with pytest.raises(VideoError, match="ran past 1 s"):
        for _ in stream.decode(info, stream.plan_for(info), lambda i, f: None):
            pass


def test_a_normal_pass_is_not_stopped_by_slow_measuring(tmp_path, monkeypatch):
    """Time spent measuring frames (the reader not waiting) never counts as a stall."""
    video = tiny_video(tmp_path / "v.mp4", seconds=2.0)
    monkeypatch.setattr(stream, "STALL_MIN_S", 1.0)
    monkeypatch.setattr(stream, "STALL_BLOCKS", 0)
    info = _info(video)
    frames = 0
    for _, arr in stream.decode(info, stream.plan_for(info), lambda i, f: None, chunk=10):
        frames += len(arr)
        time.sleep(0.4)  # slower than nothing, far under the pass limit
    assert frames == 50
