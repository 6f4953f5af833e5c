"""Twins on real footage: a short cartoon looped, its hue turned over a window with ffmpeg."""

from __future__ import annotations

import subprocess

import pytest
from tiny_videos import coded_window

from bench import synth
from tools.ffmpeg import ffmpeg_exe
from tools.index import get_index


def _loop(src, out, seconds: float, vf: str) -> None:
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-stream_loop", "-1", "-i", str(src),
                    "-t", str(seconds), "-vf", vf, "-an", "-c:v", "libx264", "-crf", "18",
                    "-preset", "veryfast", "-pix_fmt", "yuv420p", str(out)], check=True)


def _iou(e, a: float, b: float) -> float:
    inter = max(0.0, min(e.end_s, b) - max(e.start_s, a))
    return inter / (max(e.end_s, b) - min(e.start_s, a))


@pytest.mark.parametrize("name", ["bigbuckbunny.mp4"])
def test_a_hue_turned_stretch_of_a_looped_cartoon_is_found(tmp_path, name):
    src = next((p for p in synth.source_clips() if p.name == name), None)
    if src is None:
        pytest.skip(f"{name} not shipped")
    video = tmp_path / "loop.mp4"
    _loop(src, video, 90.0, "scale=320:180,fps=25,hue=h=90:enable='between(t,30,55)'")
    idx = get_index(video, cache_dir=tmp_path / "cache", progress=False, clip=False)
    hue = [e for e in idx.events if e.subtype == "hue shift"]
    assert hue and max(_iou(e, 30.0, 55.0) for e in hue) >= 0.5, idx.events
    # no spatial event on the clean loops around it (the clip repeats a few frames itself)
    assert all(_iou(e, 30.0, 55.0) > 0 for e in idx.events if e.type != "frame_drop"), idx.events


def test_a_window_coded_by_h264_at_a_high_qp_is_macroblocking_not_blur(tmp_path):
    """A looped phone clip with 25 s re-encoded by libx264 at QP 44 and spliced back (then
    the whole finished at CRF 20): the coder's smoothing would read as blur; the macroblock
    kinks against the same picture elsewhere name it."""
    src = next((p for p in synth.source_clips() if p.name == "carphone_pristine.mp4"), None)
    if src is None:
        pytest.skip("carphone_pristine.mp4 not shipped")
    video = coded_window(src, tmp_path, 120.0, 50.0, 75.0, 44)
    idx = get_index(video, cache_dir=tmp_path / "cache", progress=False, clip=False)
    coded = [e for e in idx.events if e.type == "compression"]
    assert coded and max(_iou(e, 50.0, 75.0) for e in coded) >= 0.5, idx.events
    assert not [e for e in idx.events if e.type == "blur" and _iou(e, 50.0, 75.0) > 0.3]
