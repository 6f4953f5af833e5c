"""Twins on real footage: a short cartoon looped, its hue turned over a window with ffmpeg."""

from __future__ import annotations

import subprocess

import pytest

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
