"""CLIP configuration without a model: names, environment, the weights status (quick, and
without importing open_clip), the hub cache layout, and merging retrieval hits into spans."""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import time
from pathlib import Path

import pytest

from tools.clip_model import (  # noqa: E402
    ClipConfig,
    UnknownModel,
    WeightsUnavailable,
    clip_status,
    resolve_weights,
)
from tools.embed import Hit, Span, merge_spans  # noqa: E402


def test_default_config_status_is_quick_on_this_machine():
    start = time.perf_counter()
    ok, reason = clip_status(ClipConfig())
    assert time.perf_counter() - start < 5.0  # no network wait
    assert ok or "no local weights" in reason


def test_bad_names_list_choices(tmp_path):
    with pytest.raises(UnknownModel, match="ViT-B-32"):
        resolve_weights(ClipConfig(model="ViT-B-33"))
    with pytest.raises(UnknownModel, match="laion2b_s34b_b79k"):
        resolve_weights(ClipConfig(pretrained="no-such-tag"))
    with pytest.raises(WeightsUnavailable, match="not found"):
        resolve_weights(ClipConfig(pretrained=str(tmp_path / "missing.pt")))


def test_config_from_env():
    env = {
        "LVQ_CLIP_MODEL": "ViT-B-16",
        "LVQ_CLIP_PRETRAINED": "/w/b16.pt",
        "LVQ_CLIP_INTERVAL": "3",
        "LVQ_CLIP_BUDGET": "off",
    }
    cfg = ClipConfig.from_env(env, interval_s=None, batch_size=8)
    assert (cfg.model, cfg.pretrained, cfg.interval_s, cfg.time_budget, cfg.batch_size) == (
        "ViT-B-16",
        "/w/b16.pt",
        3.0,
        None,
        8,
    )
    assert ClipConfig.from_env({}) == ClipConfig()


def test_merge_spans():
    hits = [Hit(10.0, 0.5), Hit(12.0, 0.9), Hit(14.0, 0.6), Hit(30.0, 0.7), Hit(2.0, 0.1)]
    spans = merge_spans(hits, gap_s=3.0, pad_s=1.0)
    assert spans[0] == Span(9.0, 15.0, 0.9, 12.0)
    assert [s.peak_s for s in spans] == [12.0, 30.0, 2.0]
    assert spans[0].to_dict()["end_s"] == 15.0
    assert merge_spans([], 2.0) == []


def hub_cache_layout(root: Path, repo: str, files: dict[str, bytes]) -> None:
    """Lay files out as the Hugging Face hub cache does (refs/main -> snapshots/<commit>/)."""
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo_dir = root / f"models--{repo.replace('/', '--')}"
    (repo_dir / "refs").mkdir(parents=True)
    (repo_dir / "refs" / "main").write_text(commit)
    snapshot = repo_dir / "snapshots" / commit
    snapshot.mkdir(parents=True)
    for name, data in files.items():
        (snapshot / name).write_bytes(data)


def test_status_finds_tag_weights_in_thehub_cache_layout(tmp_path):
    # where open_clip would download ViT-B-32/openai: timm/vit_base_patch32_clip_224.openai
    hub_cache_layout(
        tmp_path,
        "timm/vit_base_patch32_clip_224.openai",
        {"open_clip_model.safetensors": b"not real weights"},
    )
    cfg = ClipConfig(cache_dir=str(tmp_path))
    ok, where = clip_status(cfg)
    assert ok and "open_clip_model.safetensors" in where
    weights = resolve_weights(cfg)
    assert weights.quick_gelu  # OpenAI weights were trained with QuickGELU


def test_quick_status_does_not_import_open_clip(tmp_path):
    """The index builder asks before decoding: without weights that must cost no import."""
    import subprocess
    import sys

    code = (
        "import sys; from tools.clip_model import ClipConfig, clip_status; "
        "print(clip_status(ClipConfig(cache_dir=sys.argv[1]), quick=True)[0], "
        "'open_clip' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[1]
    run = [sys.executable, "-c", code]
    missing = subprocess.run(
        [*run, str(tmp_path / "none")], capture_output=True, text=True, cwd=root, check=True
    )
    assert missing.stdout.split() == ["False", "False"]
    present = subprocess.run(
        [*run, str(tmp_path)], capture_output=True, text=True, cwd=root, check=True
    )
    assert present.stdout.split() == ["True", "False"]  # a cache exists: checked on loading
