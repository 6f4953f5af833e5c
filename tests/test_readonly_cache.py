"""A cache that cannot be written: the commands work in memory and say so once on stderr."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from tiny_videos import tiny_video

from tools import cache as cache_mod
from tools import index as index_mod
from tools.index import get_index

NOTICE = "is not writable: working without a cache"
ROOT = os.geteuid() == 0
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture()
def shared_dir():
    """A world-readable scratch folder (pytest's own are private to their owner)."""
    d = Path(tempfile.mkdtemp(prefix="lvq-ro-"))
    d.chmod(0o755)
    yield d
    for p in d.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    shutil.rmtree(d, ignore_errors=True)


def agent_readonly(cache: Path, *args: str) -> subprocess.CompletedProcess:
    """Run `agent ARGS` for which `cache` is read-only: chmod 0o555 for a normal user; for root,
    whom permission bits do not stop, as user nobody (the root-owned folder is not theirs)."""
    cache.mkdir(exist_ok=True)
    cache.chmod(0o555)
    for p in cache.rglob("*"):
        p.chmod(0o555 if p.is_dir() else 0o444)
    home = cache.parent / "home"
    home.mkdir(exist_ok=True)
    home.chmod(0o777)
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(home), "MPLCONFIGDIR": str(home),
           "PYTHONDONTWRITEBYTECODE": "1", "LVQ_CACHE_DIR": str(cache)}
    cmd = [sys.executable, "-m", "agent.cli", *args]
    if ROOT:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: cannot make a directory read-only")
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(home),
                          timeout=300)


def test_new_video_is_measured_without_a_cache(shared_dir):
    video = tiny_video(shared_dir / "v.mp4", 2.0)
    video.chmod(0o644)
    cache = shared_dir / "cache"
    res = agent_readonly(cache, "index", str(video), "--json", "-q", "--no-clip")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["video"]["n_frames"] == 50
    assert res.stderr.count(NOTICE) == 1 and "Traceback" not in res.stderr
    assert list(cache.iterdir()) == []


def test_indexed_video_answers_although_the_trace_cannot_be_saved(shared_dir):
    video = tiny_video(shared_dir / "v.mp4", 2.0)
    video.chmod(0o644)
    cache = shared_dir / "cache"
    get_index(video, cache_dir=cache, progress=False, clip=False)
    res = agent_readonly(cache, "answer", str(video), "Is there blur?", "--json", "-q")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["steps"] >= 1
    assert res.stderr.count(NOTICE) == 1 and "Traceback" not in res.stderr
    assert not (cache / "traces").exists()


def test_cache_under_a_file_is_unwritable_even_for_root(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cache_mod, "_WARNED", set())
    video = tiny_video(tmp_path / "v.mp4", 2.0)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    for _ in range(2):
        idx = get_index(video, cache_dir=blocker / "cache", progress=False, clip=False)
        assert idx.info.n_frames == 50 and idx.directory is None
    assert capsys.readouterr().err.count(NOTICE) == 1  # said once per process


def test_cache_that_turns_read_only_while_measuring(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cache_mod, "_WARNED", set())
    video = tiny_video(tmp_path / "v.mp4", 2.0)

    def refused(*_a, **_k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(index_mod, "save", refused)
    idx = get_index(video, cache_dir=tmp_path / "cache", progress=False, clip=False)
    assert idx.info.n_frames == 50 and idx.directory is None
    assert NOTICE in capsys.readouterr().err
