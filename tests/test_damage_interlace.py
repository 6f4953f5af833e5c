"""Stream corruption (decoder errors, end to end through a really damaged stream) and
interlacing (the comb signal and its detector)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from tools.detectors.corruption import corruption_events
from tools.detectors.interlace import interlace_events
from tools.ffmpeg import ffmpeg_exe
from tools.index import get_index
from tools.signals import anisotropy, combing


def test_decoder_errors_cluster_into_corruption_events():
    fps = 25.0
    n = 1500
    errs = np.zeros(n, np.float32)
    errs[500:510] = 3
    errs[540] = 1  # 1.2 s later: the same damaged stretch
    errs[1200] = 2  # much later: another one
    frames = {"t": np.arange(n) / fps, "decode_errors": errs}
    events = corruption_events(frames, fps)
    assert [e.type for e in events] == ["corruption", "corruption"]
    assert events[0].start_s == pytest.approx(20.0)
    assert events[0].evidence["decoder_errors"] == 31
    assert corruption_events({"t": np.arange(n) / fps, "decode_errors": np.zeros(n)}, fps) == []


def test_errors_logged_a_chunk_apart_in_a_slow_stream_are_one_damaged_stretch():
    """A 12-fps cartoon damaged for 10 s logs a line every ~2.7 s (one per 32-frame chunk):
    each cluster reaches a chunk past its line, so the pieces touched and were four events."""
    fps = 12.0
    n = 2160
    errs = np.zeros(n, np.float32)
    errs[[319, 351, 383, 415]] = 2  # 26.6 s, 29.2 s, 31.9 s, 34.6 s
    errs[1500] = 1  # 125 s: another stretch
    events = corruption_events({"t": np.arange(n) / fps, "decode_errors": errs}, fps)
    assert [(round(e.start_s, 1), round(e.end_s, 1)) for e in events] == [(26.6, 37.3),
                                                                          (125.0, 127.8)]


def test_more_decoder_errors_per_second_rank_as_worse_damage():
    # ~9 s at ~9 errors/s against ~9 s at ~18 errors/s: both above 5/s, where the old ramp
    # read 1.0 for both
    fps = 25.0
    errs = np.zeros(4000, np.float32)
    errs[500:700:5] = 2.0
    errs[2500:2700:5] = 4.0
    events = corruption_events({"t": np.arange(4000) / fps, "decode_errors": errs}, fps)
    mild, heavy = events
    assert 0.5 < mild.severity < heavy.severity < 1.0


def _run(cmd: list[str]) -> None:
    subprocess.run(cmd, check=True, capture_output=True)


def test_damaged_packets_are_found_where_they_are(tmp_path, cache_dir):
    """Packets of the middle 4 s of an H.264 stream corrupted with ffmpeg's noise bitstream
    filter: the index reports corruption there, and nothing in the clean encode."""
    ff = ffmpeg_exe()
    clean = tmp_path / "clean.ts"
    _run([ff, "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=12",
          "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-bf", "0", "-f", "mpegts",
          str(clean)])
    parts = []
    for i, (ss, dur) in enumerate(((0, 4), (4, 4), (8, 4))):
        part = tmp_path / f"p{i}.ts"
        _run([ff, "-v", "error", "-ss", str(ss), "-i", str(clean), "-t", str(dur), "-c", "copy",
              *(["-bsf:v", "noise=amount=500"] if i == 1 else []), "-f", "mpegts", str(part)])
        parts.append(str(part))
    damaged = tmp_path / "damaged.mkv"
    _run([ff, "-v", "error", "-i", "concat:" + "|".join(parts), "-c", "copy", str(damaged)])
    events = get_index(damaged, cache_dir=cache_dir, progress=False, clip=False).events
    bad = [e for e in events if e.type == "corruption"]
    assert bad, events
    assert bad[0].start_s < 6.0 and bad[0].end_s > 5.0
    assert all(e.start_s >= 2.5 for e in bad)
    ok = get_index(clean, cache_dir=cache_dir, progress=False, clip=False).events
    assert not [e for e in ok if e.type == "corruption"]


def _moving_pattern(k: int, h: int = 120, w: int = 160) -> np.ndarray:
    y, x = np.mgrid[0:h, 0:w]
    return ((np.sin((x + 3 * k) / 5.0) + np.cos(y / 7.0)) * 60 + 128).astype(np.uint8)


def test_combing_separates_interlaced_from_progressive():
    prog = _moving_pattern(0)
    woven = prog.copy()
    woven[1::2] = _moving_pattern(4)[1::2]  # the other field, 4 frames of motion later
    assert combing(prog) < 0.01
    assert combing(woven) > 10 * max(combing(prog), 1e-3)


def test_interlace_event_where_comb_rises():
    t = np.arange(0, 60, 0.5)
    comb = np.full(len(t), 0.0005)
    comb[40:70] = 0.2  # 20-35 s
    events = interlace_events({"t": t, "comb": comb})
    assert len(events) == 1 and events[0].type == "interlace"
    assert abs(events[0].start_s - 20.0) <= 0.5 and abs(events[0].end_s - 35.0) <= 0.5
    # a cartoon whose steady comb share is its look: no event
    assert interlace_events({"t": t, "comb": np.full(len(t), 0.08)}) == []


def test_strong_noise_raises_the_comb_share_but_is_no_interlacing():
    """Random noise makes rows jut out by chance; unlike comb teeth it is not directional,
    so the picture's anisotropy falls where comb teeth make it rise."""
    prog = _moving_pattern(0)
    woven = prog.copy()
    woven[1::2] = _moving_pattern(4)[1::2]
    rng = np.random.default_rng(1)
    noisy = np.clip(prog + rng.normal(0.0, 25.0, prog.shape), 0, 255).astype(np.uint8)
    assert combing(noisy) > 10 * max(combing(prog), 1e-4)
    assert anisotropy(woven) > anisotropy(prog) > anisotropy(noisy)
    t = np.arange(0, 60, 0.5)
    comb = np.full(len(t), 0.0005)
    comb[40:70] = 0.2  # 20-35 s
    for inside, found in ((anisotropy(woven), 1), (anisotropy(noisy), 0)):
        aniso = np.full(len(t), anisotropy(prog))
        aniso[40:70] = inside
        events = interlace_events({"t": t, "comb": comb, "aniso": aniso})
        assert len(events) == found, inside


def test_damaged_pictures_are_no_reference_for_the_rest_of_their_shot():
    """Decoder garbage measures far sharper than the footage (a damaged stream: sharpness
    4,000-8,400 against ~500): as a shot's reference it made the clean rest read as blur."""
    from tests.event_series import FPS, _frames, _samples, _scenes
    from tools.detectors import detect_events

    s = _samples(60.0)
    garbage = (s["t"] >= 20.0) & (s["t"] < 24.0)
    s["detail"][garbage] *= 3.0
    s["sharpness"][garbage] *= 8.0
    args = (_frames(60.0), s, _scenes([0.0, 20.0, 40.0, 60.0]), FPS)
    assert [e.type for e in detect_events(*args)] == ["blur"]  # what the garbage did
    assert detect_events(*args, damaged=[(19.0, 25.0)]) == []
