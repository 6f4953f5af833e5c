"""Opening videos: facts, frames at times, and one clear error per kind of bad input."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from tools.errors import VideoError
from tools.ffmpeg import ffmpeg_exe
from tools.video import frames_at, frames_between, probe_video


def test_facts_of_a_generated_video(make_clip):
    path, man = make_clip(12.0)
    info = probe_video(path)
    assert info.n_frames == man["n_frames"] == 300
    assert info.fps == pytest.approx(25.0)
    assert (info.width, info.height) == (320, 180)
    assert info.duration_s == pytest.approx(12.0, abs=0.05)
    assert info.codec == "h264"
    assert info.vfr is False


def test_frames_at_times_are_the_nearest_earlier_frames(make_clip):
    path, _ = make_clip(12.0)
    frames, times = frames_at(path, [0.0, 5.01, 11.99], size=(160, 90))
    assert frames.shape == (3, 90, 160, 3) and frames.dtype == np.uint8
    assert times == pytest.approx([0.0, 5.0, 11.96], abs=1e-3)


def test_frames_between_respects_window_and_budget(make_clip):
    path, _ = make_clip(12.0)
    frames, times = frames_between(path, 2.0, 3.0)
    assert len(frames) == 25 and times.min() >= 2.0 and times.max() < 3.0
    frames, times = frames_between(path, 0.0, 12.0, max_frames=7)
    assert len(frames) == 7 and np.all(np.diff(times) > 0)


def _bad_inputs(tmp_path, good):
    text = tmp_path / "notes.mp4"
    text.write_text("this is not a video\n" * 50)
    empty = tmp_path / "empty.mp4"
    empty.write_bytes(b"")
    truncated = tmp_path / "truncated.mp4"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 3])
    audio = tmp_path / "audio.m4a"
    subprocess.run([ffmpeg_exe(), "-v", "error", "-f", "lavfi", "-i", "sine=d=1", str(audio)],
                   check=True)
    zero = tmp_path / "zero.mp4"
    subprocess.run([ffmpeg_exe(), "-v", "error", "-f", "lavfi", "-i", "testsrc=s=64x64",
                    "-frames:v", "0", "-c:v", "libx264", str(zero)], check=True)
    return {
        "has no frames": zero,
        "no such file": tmp_path / "missing.mp4",
        "is a directory": tmp_path,
        "not a video file": text,
        "empty file": empty,
        "corrupt or truncated": truncated,
        "no video stream": audio,
    }


def test_each_bad_input_has_its_own_one_line_error(make_clip, tmp_path):
    good, _ = make_clip(12.0)
    for expected, path in _bad_inputs(tmp_path, good).items():
        with pytest.raises(VideoError) as err:
            probe_video(path)
        msg = str(err.value)
        assert expected in msg, (path, msg)
        assert "\n" not in msg
