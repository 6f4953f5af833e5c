"""The ffmpeg distortion track: its plan, a real render, and the questions drawn from its truth."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.generate.corpus import Clip
from bench.generate.ffmpeg_distortions import DISTORTIONS, LEVELS, window_chain
from bench.generate.ffmpeg_track import Spec, Window, plan, render, track_ffmpeg
from bench.generate.track_questions import items_for
from tools.ffmpeg import ffmpeg_exe
from tools.model import EVENT_TYPES


def _clips(tmp_path: Path) -> list[Clip]:
    return [Clip(n, "src", "test", tmp_path / f"{n}.mp4") for n in ("a", "b")]


def test_plan_covers_every_distortion_and_level_once(monkeypatch, tmp_path):
    monkeypatch.setattr("bench.generate.ffmpeg_track.frame_rate", lambda p: 25.0)
    specs = plan(_clips(tmp_path), seed=3, long_videos=1)
    seen = [(w.distortion, w.level) for s in specs if s.kind == "pair" for w in s.windows
            if DISTORTIONS[w.distortion].kind in ("filter", "codec")]
    wanted = [(d.name, lv) for d in DISTORTIONS.values() if d.kind in ("filter", "codec")
              for lv in LEVELS]
    assert sorted(seen) == sorted(wanted)
    assert sum(s.kind == "long" and s.duration_s == 1800 for s in specs) == 1
    for s in specs:
        wins = sorted(s.windows, key=lambda w: w.start_s)
        assert all(0 <= w.start_s < w.end_s <= s.duration_s for w in wins)
        assert all(a.end_s <= b.start_s for a, b in zip(wins, wins[1:], strict=False))
        assert all(w.type in EVENT_TYPES for w in wins)
        if s.kind == "pair" and len(wins) == 2:
            assert wins[0].type != wins[1].type
    freezes = [s for s in specs if s.kind == "freeze"]
    assert {s.codec for s in freezes} >= {"libx264", "vp9", "mpeg2"}
    assert all(w.end_s - w.start_s >= 2.0 for s in freezes for w in s.windows)


@pytest.mark.parametrize("span", [(5.0, 12.0), (12.0, 35.0)])
def test_window_lengths_follow_the_range_asked(monkeypatch, tmp_path, span):
    monkeypatch.setattr("bench.generate.ffmpeg_track.frame_rate", lambda p: 25.0)
    specs = plan(_clips(tmp_path), seed=3, long_videos=0, window_s=span)
    lengths = [w.end_s - w.start_s for s in specs for w in s.windows
               if DISTORTIONS[w.distortion].kind in ("filter", "codec")]
    assert lengths and all(span[0] - 0.05 <= x <= span[1] + 0.05 for x in lengths)


def test_window_range_option_rejects_nonsense(capsys):
    from bench.generate.ffmpeg_track import main
    for bad in ("5", "12,5", "a,b"):
        with pytest.raises(SystemExit) as exc:
            main(["--out", "x", "--window-s", bad])
        assert exc.value.code == 2
    assert "--window-s" in capsys.readouterr().err


def test_every_filter_chain_is_accepted_by_ffmpeg(tmp_path):
    exe = ffmpeg_exe()
    for d in DISTORTIONS.values():
        if d.kind != "filter":
            continue
        for lv in LEVELS:
            chain = window_chain(d, lv, 25.0, (160, 120))
            res = subprocess.run([exe, "-v", "error", "-f", "lavfi", "-i",
                                  "testsrc2=s=160x120:r=25:d=0.4", "-vf", chain, "-f", "null",
                                  "-"], capture_output=True, text=True)
            assert res.returncode == 0, (d.name, lv, res.stderr[-300:])


def _frames(path: Path) -> np.ndarray:
    out = subprocess.run([ffmpeg_exe(), "-v", "error", "-i", str(path), "-f", "rawvideo",
                          "-pix_fmt", "gray", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(out, np.uint8).reshape(-1, 120, 160)


def test_render_splices_blur_and_freeze_where_the_truth_says(tmp_path):
    try:
        exe = track_ffmpeg(("libx264", "ffv1"))
    except SystemExit:
        pytest.skip("no ffmpeg with libx264 and ffv1")
    base = tmp_path / "base.mp4"
    subprocess.run([exe, "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=20",
                    "-c:v", "libx264", "-crf", "12", "-pix_fmt", "yuv420p", str(base)],
                   check=True)
    spec = Spec("t", "base", 20.0, (Window("gblur", "blur", 3, 4.0, 8.0),
                                   Window("freeze", "freeze", 1, 12.0, 14.0)))
    video = render(spec, base, tmp_path, exe)
    f = _frames(video).astype(np.float32)
    assert abs(len(f) - 500) <= 2  # same length: windows replace, never add frames
    sharp = np.array([cv2.Laplacian(x, cv2.CV_32F).var() for x in f])
    assert sharp[110:190].mean() < 0.3 * sharp[10:90].mean()  # 4.4-7.6 s blurred
    assert sharp[210:290].mean() > 0.6 * sharp[10:90].mean()  # sharp again after it
    still = np.abs(np.diff(f[302:348], axis=0)).mean(axis=(1, 2))
    moving = np.abs(np.diff(f[360:400], axis=0)).mean(axis=(1, 2))
    assert still.max() < 0.1 * moving.mean()  # 12-14 s frozen, then moving again


def test_questions_point_at_the_truth(tmp_path):
    truth = {"video": "v.mp4", "duration_s": 180.0, "codec": "libx264", "kind": "pair",
             "windows": [{"distortion": "gblur", "type": "blur", "level": 2,
                          "start_s": 20.0, "end_s": 45.0},
                         {"distortion": "hue", "type": "colour", "level": 2,
                          "start_s": 100.0, "end_s": 115.0}]}
    trend = {**truth, "video": "t.mp4", "kind": "trend",
             "windows": [{**truth["windows"][0], "level": lv, "start_s": 30.0 + 50 * i,
                          "end_s": 50.0 + 50 * i} for i, lv in enumerate((1, 2, 3))]}
    (tmp_path / "truth.jsonl").write_text(json.dumps(truth) + "\n" + json.dumps(trend) + "\n")
    items = {it["id"]: it for it in items_for(tmp_path, seed=1)}
    loc = items["v-0-L"]
    assert loc["options"]["ABCD".index(loc["gold"])] == "0:20 - 0:45"
    cls = items["v-1-C"]
    assert cls["options"]["ABCD".index(cls["gold"])] == "Wrong colours"
    assert items["v-0-D1"]["gold"] == "B" and items["v-0-D0"]["gold"] == "A"
    order = items["v-O"]
    assert order["options"][ord(order["gold"]) - 65] == "Loss of sharpness (blur)"
    dom = items["v-F"]
    assert dom["options"][ord(dom["gold"]) - 65] == "Loss of sharpness (blur)"
    t = items["t-T"]
    assert t["options"][ord(t["gold"]) - 65] == "It gets worse"


def test_the_runs_table_puts_the_tracks_side_by_side(capsys):
    from bench.figures.track_runs import print_runs

    def summary(acc: float) -> dict:
        block = {"n": 10, "acc": acc, "ci_lo": acc - 0.1, "ci_hi": acc + 0.1}
        return {"mcq": {"overall": block, "dimension": {"localization": block,
                                                         "trend": {"n": 0}}}}

    print_runs("t", {"agent": summary(0.9), "uniform": summary(0.4)})
    out = capsys.readouterr().out
    assert "| localization | 90.0 (10) | 40.0 (10) |" in out
    assert "trend" not in out and "**90.0** [80.0, 100.0] (10)" in out
