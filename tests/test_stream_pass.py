"""The chunked, resumable measuring pass gives exactly the signals of the plain one-pass path:
every small frame through the temporal signals in 32-frame blocks, every 12th native frame
through the spatial ones, the shot detector fed frame by frame."""

from __future__ import annotations

import json
import subprocess

import cv2
import numpy as np
import pytest

from tests.kill_common import assert_same_build
from tools.ffmpeg import ffmpeg_exe
from tools.index import measure
from tools.scenes import ShotDetector
from tools.signals import FRAME_SIGNALS, colour_signals, spatial_signals, temporal_signals
from tools.stream import plan_for
from tools.video import probe_video


def _raw(path, vf: str, shape: tuple[int, ...]) -> np.ndarray:
    out = subprocess.run([ffmpeg_exe(), "-v", "error", "-i", str(path), "-an", "-vf", vf,
                          "-fps_mode", "passthrough", "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(out, np.uint8).reshape(-1, *shape)


def _reference(path) -> tuple[dict, dict, list[int]]:
    """The signals as the plain path measures them: two ffmpeg decodes, no chunks, no seek."""
    info = probe_video(path)
    plan = plan_for(info)
    lw, lh = plan.lo_size
    lo = _raw(path, f"scale={lw}:{lh}:flags=area,format=bgr24", (lh, lw, 3))
    hi = _raw(path, f"select='not(mod(n\\,{plan.hi_every}))',format=gray",
              (info.height, info.width))
    cols: dict[str, list] = {k: [] for k in FRAME_SIGNALS}
    prev = None
    shots = ShotDetector(info.fps)
    for s in range(0, len(lo), 32):
        block = lo[s:s + 32]
        gray = np.stack([cv2.cvtColor(b, cv2.COLOR_BGR2GRAY) for b in block])
        for k, v in temporal_signals(gray, prev).items():
            cols[k].append(v)
        prev = gray[-1]
        for i, frame in enumerate(block):
            shots.feed(s + i, cv2.resize(frame, (lw // 2, lh // 2), interpolation=cv2.INTER_AREA))
    frames = {k: np.concatenate(v) for k, v in cols.items()}
    idx = np.arange(0, len(lo), plan.hi_every)
    samples = [{**spatial_signals(hi[j]), **colour_signals(lo[i])} for j, i in enumerate(idx)]
    return frames, {k: np.array([r[k] for r in samples], np.float32) for k in samples[0]}, \
        sorted(set(shots.cuts))


@pytest.fixture(scope="module")
def clip(make_clip):
    return make_clip(16.0, seed=3)


def test_pass_equals_the_plain_path(clip):
    path, man = clip
    ix = measure(path, progress=False, clip=False)
    frames, samples, cuts = _reference(path)
    assert len(ix.frames["t"]) == man["n_frames"] == len(frames["luma"])
    for key, col in frames.items():
        np.testing.assert_array_equal(ix.frames[key], col, err_msg=key)
    for key, col in samples.items():
        np.testing.assert_array_equal(ix.samples[key], col, err_msg=key)
    assert ix.meta["raw_cuts"] == cuts and len(cuts) >= 1


def test_a_resume_whose_stored_frames_do_not_match_starts_over(clip, tmp_path, monkeypatch):
    from tools.chunks import PartialStore

    path, _ = clip
    monkeypatch.setenv("LVQ_CHUNK_S", "1")
    part = tmp_path / "partial"
    whole = measure(path, progress=False, clip=False, partial=part)
    names = sorted(part.glob("chunk-*.npz"))
    assert len(names) >= 3
    for later in names[2:]:
        later.unlink()
    # the second chunk keeps valid bytes but frames that are not the video's
    store = PartialStore(part, json.loads((part / "key.json").read_text()))
    chunks = store.chunks()
    assert len(chunks) == 2
    wrong = dict(chunks[1])
    wrong["tail"] = 255 - wrong["tail"]
    names[1].unlink()
    store.write(1, wrong)
    again = measure(path, progress=False, clip=False, partial=part)
    assert any("stored chunks not used" in w for w in again.meta["warnings"])
    assert again.meta["pass"]["resumed_from"] == 0
    assert_same_build(again, whole)
