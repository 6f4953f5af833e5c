"""Shared test set-up: offline model hubs, and small generated videos made once per session."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

# the scripted OpenAI-compatible server and a brain on it, for the openai-brain test files
pytest_plugins = ("openai_common",)


@pytest.fixture(scope="session")
def make_clip(tmp_path_factory):
    """Make (once per session) a small synthetic video: real clips + procedural scenes,
    optionally with needles; returns (path, manifest)."""
    from bench.synth import make_video, needle

    root = tmp_path_factory.mktemp("videos")
    made: dict[str, tuple[Path, dict]] = {}

    def _make(duration_s=20.0, seed=1, needles=(), width=320, height=180):
        key = json.dumps([duration_s, seed, list(needles), width, height])
        if key not in made:
            path = root / f"v{len(made)}.mp4"
            nds = [needle(*n) for n in needles]
            manifest = make_video(path, duration_s, width=width, height=height, seed=seed,
                                  needles=nds, preset="ultrafast")
            made[key] = (path, manifest)
        return made[key]

    return _make


@pytest.fixture()
def cache_dir(tmp_path, monkeypatch) -> Path:
    """An empty index cache for one test (also exported as LVQ_CACHE_DIR)."""
    d = tmp_path / "cache"
    monkeypatch.setenv("LVQ_CACHE_DIR", str(d))
    return d


@pytest.fixture(autouse=True)
def vision_cache(tmp_path_factory, monkeypatch) -> Path:
    """A fresh vision-verdict file per test, so no test reads or writes the user's cache."""
    path = tmp_path_factory.mktemp("vision") / "vision.json"
    monkeypatch.setenv("LVQ_VISION_CACHE", str(path))
    for var in ("LVQ_VISION", "LVQ_OPENAI_VISION", "LVQ_TIMEOUT", "LVQ_RETRIES"):
        monkeypatch.delenv(var, raising=False)
    return path
