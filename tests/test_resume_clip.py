"""A killed build with CLIP retrieval on resumes near where it stopped, like one without CLIP:
each chunk carries its frames' embeddings and the frame picker's state, and the resumed index
(tables and embeddings) equals an uninterrupted build's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

open_clip = pytest.importorskip("open_clip")
torch = pytest.importorskip("torch")

from safetensors.torch import save_file  # noqa: E402

from tests.kill_common import assert_same_build, kill_after_chunks  # noqa: E402
from tools.cache import fingerprint  # noqa: E402
from tools.clip_model import ClipConfig, load_clip  # noqa: E402
from tools.clip_resume import ClipFeed  # noqa: E402
from tools.embed import FrameEmbedder  # noqa: E402
from tools.index import get_index, load, measure, partial_dir  # noqa: E402

TINY_CFG = {
    "embed_dim": 16,
    "vision_cfg": {"image_size": 32, "layers": 1, "width": 32, "patch_size": 16, "head_width": 16},
    "text_cfg": {"context_length": 8, "vocab_size": 49408, "width": 32, "heads": 2, "layers": 1},
}


def _model_dir(root: Path, seed: int) -> Path:
    """A tiny random CLIP as an open_clip 'local-dir:' folder (config + safetensors)."""
    from open_clip.model import CLIP

    root.mkdir(parents=True)
    torch.manual_seed(seed)
    net = CLIP(**TINY_CFG).eval()
    save_file({k: v.contiguous() for k, v in net.state_dict().items()},
              str(root / "open_clip_model.safetensors"))
    (root / "open_clip_config.json").write_text(
        json.dumps({"model_cfg": TINY_CFG, "preprocess_cfg": {}}))
    return root


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("tiny_local")
    return _model_dir(root / "a", 7), _model_dir(root / "b", 8)


def _env(model: Path) -> dict[str, str]:
    return {"LVQ_CHUNK_S": "1", "HF_HUB_OFFLINE": "1", "LVQ_CLIP_MODEL": f"local-dir:{model}",
            "LVQ_CLIP_PRECISION": "fp32", "LVQ_CLIP_BUDGET": "off"}  # fixed sampling


@pytest.fixture()
def clip_on(models, monkeypatch) -> Path:
    for k, v in _env(models[0]).items():
        monkeypatch.setenv(k, v)
    return models[0]


def _video(tmp_path_factory, seconds: float) -> Path:
    """Real clips at 24 fps: chunks of 96 frames (native sample every 12th, CLIP every 24th)."""
    from bench.synth import make_video

    path = tmp_path_factory.mktemp("clip_videos") / f"v{int(seconds)}.mp4"
    make_video(path, seconds, width=320, height=180, fps=24.0, seed=4, preset="ultrafast")
    return path


@pytest.fixture(scope="module")
def long_video(tmp_path_factory) -> Path:
    return _video(tmp_path_factory, 120.0)  # longer than what is decoded while the model loads


@pytest.fixture(scope="module")
def short_video(tmp_path_factory) -> Path:
    return _video(tmp_path_factory, 24.0)


def _vectors(index) -> tuple[np.ndarray, np.ndarray]:
    clip = index.clip
    return clip.times, clip.index.reconstruct_n(0, len(clip.times))


def _kill_after_chunks(video: Path, cache: Path, model: Path, chunks: int) -> int:
    """Start `agent index` with CLIP on, SIGKILL it once `chunks` chunk files exist."""
    part = partial_dir(cache, fingerprint(video))
    cmd = [sys.executable, "-m", "agent.cli", "index", str(video), "--cache-dir", str(cache)]
    proc = subprocess.Popen(cmd, env={**os.environ, **_env(model)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return kill_after_chunks(proc, part, chunks)


def test_killed_clip_build_resumes_at_its_chunks_and_equals_an_uninterrupted_one(
        long_video, models, clip_on, tmp_path):
    cache = tmp_path / "killed"
    left = _kill_after_chunks(long_video, cache, models[0], chunks=3)
    assert left >= 3
    resumed = subprocess.run(
        [sys.executable, "-m", "agent.cli", "index", str(long_video), "--cache-dir", str(cache)],
        env={**os.environ, **_env(models[0])}, capture_output=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr.decode()
    again = load(cache / fingerprint(long_video))
    n = len(again.frames["t"])
    start = again.meta["pass"]["resumed_from"]
    assert start == left * again.meta["pass"]["chunk_frames"] and start > 0
    # the decoder started two frames before the resume point, as without CLIP
    assert again.meta["pass"]["decoded"] == n - start + 2
    whole = get_index(long_video, cache_dir=tmp_path / "whole", progress=False)
    times, vectors = _vectors(whole)
    before = int(np.sum(times < again.frames["t"][start]))
    assert again.meta["pass"]["clip_stored"] == before > 0  # the killed run's embeddings
    got_times, got = _vectors(again)
    np.testing.assert_array_equal(got_times, times)
    np.testing.assert_array_equal(got, vectors)
    assert again.meta["clip"]["frames"] == whole.meta["clip"]["frames"] == len(times)
    assert_same_build(again, whole)


def _cut_chunks(part: Path, keep: int) -> None:
    names = sorted(part.glob("chunk-*.npz"))
    assert len(names) > keep, "too few chunks were written to cut the build short"
    for later in names[keep:]:
        later.unlink()


def test_chunks_made_without_clip_or_with_another_model_are_discarded(
        short_video, models, clip_on, tmp_path, monkeypatch):
    part = tmp_path / "partial"
    whole = measure(short_video, progress=False, partial=part)
    times, vectors = _vectors(whole)
    _cut_chunks(part, 2)
    same = measure(short_video, progress=False, partial=part)  # same model: resumed
    assert same.meta["pass"]["resumed_from"] == 2 * same.meta["pass"]["chunk_frames"]
    np.testing.assert_array_equal(_vectors(same)[1], vectors)
    # a partial build made with CLIP off holds no embeddings: discarded, built again in full
    measure(short_video, progress=False, partial=part, clip=False)
    _cut_chunks(part, 2)
    full = measure(short_video, progress=False, partial=part)
    assert full.meta["pass"]["resumed_from"] == 0
    np.testing.assert_array_equal(_vectors(full)[0], times)
    np.testing.assert_array_equal(_vectors(full)[1], vectors)
    # chunks embedded by another model are discarded too
    _cut_chunks(part, 0)
    measure(short_video, progress=False, partial=part)
    _cut_chunks(part, 2)
    monkeypatch.setenv("LVQ_CLIP_MODEL", f"local-dir:{models[1]}")
    other = measure(short_video, progress=False, partial=part)
    assert other.meta["pass"]["resumed_from"] == 0
    assert other.clip.weights_id != whole.clip.weights_id
    assert not np.array_equal(_vectors(other)[1], vectors)


def test_chunks_written_while_the_model_would_not_load_are_discarded_once_it_does(
        short_video, clip_on, tmp_path, monkeypatch):
    import tools.clip_embedder as clip_embedder

    def broken(*_a, **_k):
        raise RuntimeError("no model today")

    part = tmp_path / "partial"
    with monkeypatch.context() as m:
        m.setattr(clip_embedder, "load_clip", broken)
        off = measure(short_video, progress=False, partial=part)
    assert off.clip is None and "no model today" in off.meta["clip"]["status"]
    _cut_chunks(part, 2)  # chunks without embeddings ('c.on' 0), under the same key
    on = measure(short_video, progress=False, partial=part)
    assert on.meta["pass"]["resumed_from"] == 0
    assert any("no CLIP embeddings" in w for w in on.meta["warnings"])
    assert len(on.clip) > 0 and on.meta["pass"]["clip_stored"] == 0


class _Recorder:
    """Stands in for a FrameEmbedder: records what reaches it, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def add(self, t: float, frame: np.ndarray) -> None:
        self.calls.append(("add", round(t, 3)))

    def scene_cut(self, t: float) -> None:
        self.calls.append(("cut", round(t, 3)))

    def seal(self) -> dict:
        self.calls.append(("seal",))
        return {}


def _run_feed(frames_first: bool) -> list[tuple]:
    """24 fps, CLIP frame every 24th, chunks of 96; cuts at 95 and 97, reported two frames
    later (when the detector is fed frames 97 and 99)."""
    rec = _Recorder()
    times = np.arange(300) / 24.0
    feed = ClipFeed(rec, times, 24, 96)
    frame = np.zeros((2, 2, 3), np.uint8)

    def mids() -> None:
        for m in range(0, 300, 24):
            feed.frame(m, frame)

    def main() -> None:
        for block in range(0, 300, 32):
            for j in range(block, min(block + 32, 300)):
                if j in (97, 99):
                    feed.cut(j - 2)
            feed.progress(min(block + 32, 300) - 1)
        feed.end_main()

    for step in ((mids, main) if frames_first else (main, mids)):
        step()
    feed.close()
    return rec.calls


def test_the_embedder_hears_of_frames_and_cuts_in_frame_order_whatever_comes_first():
    a, b = _run_feed(True), _run_feed(False)
    assert a == b
    assert a.count(("seal",)) == 3  # at frames 96, 192 and 288
    i = a.index(("seal",))
    # each cut at its frame: 95 before the seal at 96, 97 after the CLIP frame 96
    assert a[i - 2 : i + 4] == [("add", 3.0), ("cut", round(95 / 24, 3)), ("seal",),
                                ("add", 4.0), ("cut", round(97 / 24, 3)), ("add", 5.0)]


def _events() -> list[tuple]:
    """What ClipFeed hands an embedder: distinct frames at 4 fps for 16 s, each cut before the
    first frame after it, a seal every 4 s; the cut at 7.9 comes before the seal at 8.0."""
    rng = np.random.default_rng(5)
    cuts = [3.3, 5.1, 7.9, 11.6]
    out: list[tuple] = []
    for i in range(64):
        t = i / 4
        out += [("cut", c) for c in cuts if t - 0.25 < c < t]
        if t and t % 4 == 0:
            out.append(("seal",))
        out.append(("add", t, rng.integers(0, 256, (36, 64, 3), dtype=np.uint8)))
    return out


def _play(emb: FrameEmbedder, events: list[tuple], sealed: list[dict]) -> None:
    for kind, *args in events:
        if kind == "seal":
            sealed.append(emb.seal())
        elif kind == "cut":
            emb.scene_cut(*args)
        else:
            emb.add(*args)


def test_a_sealed_embedder_restored_goes_on_as_an_unbroken_one(models):
    cfg = ClipConfig(model=f"local-dir:{models[0]}", batch_size=3, time_budget=None,
                     precision="fp32")
    model = load_clip(cfg)
    events = _events()
    whole = FrameEmbedder(cfg, model=model)
    _play(whole, events, [])
    want = whole.finish()
    for k in (1, 2, 3):  # resume after the k-th seal
        first, sealed = FrameEmbedder(cfg, model=model), []
        cut = [i for i, e in enumerate(events) if e[0] == "seal"][k - 1]
        _play(first, events[: cut + 1], sealed)
        resumed = FrameEmbedder(cfg, model=model)
        resumed.restore(sealed)
        _play(resumed, events[cut + 1 :], [])
        got = resumed.finish()
        np.testing.assert_array_equal(got.times, want.times, err_msg=f"seal {k}")
        np.testing.assert_array_equal(got.index.reconstruct_n(0, len(got)),
                                      want.index.reconstruct_n(0, len(want)))
        assert got.info["scene_picks"] == want.info["scene_picks"]
    assert 8.0 in set(want.times.tolist())  # the cut at 7.9 picked the frame after the seal
