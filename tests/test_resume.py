"""A build killed with SIGKILL mid-index resumes from its last finished chunk, and ends with the
tables, cuts, scenes and events of an uninterrupted build."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.kill_common import assert_same_build, kill_after_chunks
from tools.cache import fingerprint
from tools.chunks import PartialStore
from tools.index import get_index, load, partial_dir


def _agent(video: Path, cache: Path, *extra: str) -> subprocess.Popen:
    env = {**os.environ, "LVQ_CHUNK_S": "1", "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "agent.cli", "index", str(video), "--no-clip",
           "--cache-dir", str(cache), *extra]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _kill_after_chunks(video: Path, cache: Path, chunks: int) -> int:
    """Start `agent index`, SIGKILL it once `chunks` chunk files exist; the count it left."""
    return kill_after_chunks(_agent(video, cache), partial_dir(cache, fingerprint(video)),
                             chunks)


@pytest.fixture(scope="module")
def long_clip(make_clip):
    return make_clip(60.0, seed=4)


def test_killed_build_resumes_and_equals_an_uninterrupted_one(long_clip, tmp_path):
    video, man = long_clip
    cache = tmp_path / "killed"
    left = _kill_after_chunks(video, cache, chunks=3)
    assert left >= 3
    assert not (cache / fingerprint(video) / "meta.json").exists()
    # a half-written chunk (the kill can land mid-write) is never trusted: add a cut one
    part = partial_dir(cache, fingerprint(video))
    bogus = part / f"chunk-{left:06d}-{'0' * 32}.npz"
    bogus.write_bytes(b"PK\x03\x04 half a zip")
    resumed = _agent(video, cache, "--json")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err.decode()
    meta = json.loads((cache / fingerprint(video) / "meta.json").read_text())
    per_chunk = meta["pass"]["chunk_frames"]
    start = meta["pass"]["resumed_from"]
    assert start == left * per_chunk and start > 0
    assert f"resumed at frame {start} of" in err.decode()
    # only the remainder was decoded (plus the two frames checked before the resume point)
    assert meta["pass"]["decoded"] == man["n_frames"] - start + 2
    assert not part.exists()  # the finished index replaced the chunks

    whole = get_index(video, cache_dir=tmp_path / "whole", progress=False, clip=False)
    again = load(cache / fingerprint(video))
    assert_same_build(again, whole)
    assert json.loads(out)["video"]["n_frames"] == man["n_frames"]


def test_damaged_or_foreign_chunks_are_not_trusted(tmp_path):
    store = PartialStore(tmp_path / "p", {"signals_version": "x", "per_chunk": 96})
    for i in range(3):
        store.write(i, {"f.luma": np.full(96, i, np.float32)})
    assert [int(c["f.luma"][0]) for c in store.chunks()] == [0, 1, 2]
    second = sorted((tmp_path / "p").glob("chunk-000001-*.npz"))[0]
    data = bytearray(second.read_bytes())
    data[-5] ^= 0xFF  # one flipped byte: the checksum in the name no longer matches
    second.write_bytes(bytes(data))
    assert [int(c["f.luma"][0]) for c in store.chunks()] == [0]
    assert len(list((tmp_path / "p").glob("chunk-*"))) == 1  # the rest removed
    # another signals version or plan starts over
    other = PartialStore(tmp_path / "p", {"signals_version": "y", "per_chunk": 96})
    assert other.chunks() == []
