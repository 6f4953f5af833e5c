"""CLIP retrieval with tiny randomly initialised open_clip models: the real code, small and fast."""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import json
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

open_clip = pytest.importorskip("open_clip")
torch = pytest.importorskip("torch")

from test_clip_config import hub_cache_layout  # noqa: E402

from tools.clip_model import (  # noqa: E402
    ClipConfig,
    WeightsUnavailable,
    clip_status,
    load_clip,
)
from tools.embed import (  # noqa: E402
    FrameEmbedder,
    FrameIndex,
    Hit,
    ModelMismatch,
    RetrievalOff,
)

TINY = "lvq-tiny-a"
TINY_B = "lvq-tiny-b"


def _tiny_config(embed_dim: int, image_size: int) -> dict:
    return {
        "embed_dim": embed_dim,
        "vision_cfg": {
            "image_size": image_size,
            "layers": 2,
            "width": 64,
            "patch_size": 32,
            "head_width": 32,
        },
        "text_cfg": {
            "context_length": 16,
            "vocab_size": 49408,
            "width": 64,
            "heads": 2,
            "layers": 2,
        },
    }


@pytest.fixture(scope="session")
def tiny(tmp_path_factory):
    """Two tiny architectures registered with open_clip, each saved as a checkpoint file."""
    root = tmp_path_factory.mktemp("tiny_clip")
    cfgs = {}
    for name, dim in ((TINY, 32), (TINY_B, 24)):
        (root / f"{name}.json").write_text(json.dumps(_tiny_config(dim, 224)))
        open_clip.add_model_config(root / f"{name}.json")
        torch.manual_seed(0)
        net = open_clip.create_model(name, pretrained=None)
        ckpt = root / f"{name}.pt"
        torch.save(net.state_dict(), ckpt)
        cfgs[name] = ClipConfig(
            model=name,
            pretrained=str(ckpt),
            interval_s=2.0,
            batch_size=4,
            time_budget=None,  # a fixed interval: sampling is deterministic
            precision="fp32",  # exact comparisons with open_clip's own forward pass
        )
    return cfgs


@pytest.fixture(scope="session")
def tiny_model(tiny):
    return load_clip(tiny[TINY])


def _frame(seed: int, w: int = 398, h: int = 224) -> np.ndarray:
    """A distinct blocky random BGR frame per seed."""
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 256, (7, 12, 3), dtype=np.uint8)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST)


def _feed(embedder: FrameEmbedder, duration: float = 20.0, fps: float = 4.0, cuts=()) -> None:
    """Distinct frames at fps. Cuts are times (reported 0.6 s late, as a detector might) or
    (time, report_time) pairs; a report time past the end is made after the last frame."""
    pending = sorted(c if isinstance(c, tuple) else (c, c + 0.6) for c in cuts)
    pending.sort(key=lambda c: c[1])
    times = [c for c, _ in pending]
    for i in range(int(duration * fps)):
        t = i / fps
        scene = sum(1 for c in times if c <= t)
        embedder.add(t, _frame(1000 * scene + i))
        while pending and pending[0][1] <= t:
            embedder.scene_cut(pending.pop(0)[0])
    for cut, _ in pending:
        embedder.scene_cut(cut)


def _each_scene_has_a_frame(times, cuts, end) -> None:
    bounds = (0.0, *sorted(cuts), end)
    for start, stop in zip(bounds, bounds[1:], strict=False):
        assert any(start <= t < stop for t in times), (start, stop, list(times))


@pytest.fixture(scope="session")
def built(tiny, tiny_model, tmp_path_factory):
    emb = FrameEmbedder(tiny[TINY], model=tiny_model)
    _feed(emb, cuts=(5.3, 8.1, 8.9))
    index = emb.finish()
    directory = tmp_path_factory.mktemp("clip_index")
    index.save(directory)
    return index, directory


def test_sampling_interval_and_one_per_scene(built):
    index, _ = built
    times = list(index.times)
    assert times[:5] == [0.0, 2.0, 4.0, 6.0, 8.0]  # every 2 s
    _each_scene_has_a_frame(times, (5.3, 8.1, 8.9), 20.0)
    # 8.1 and 8.9 were reported late, after 8.25 and 9.0 had gone by: picked from the lookback
    assert {8.25, 9.0} <= set(times) and index.info["scene_picks"] == 2
    assert np.all(np.diff(times) > 0)


def test_build_save_load_search(built, tiny):
    index, directory = built
    loaded = FrameIndex.load(directory, tiny[TINY])
    assert loaded.enabled and len(loaded) == len(index)
    np.testing.assert_array_equal(loaded.times, index.times)
    hits = loaded.search_text("a bright red frame", k=5)  # the text tower loads from the file
    assert len(hits) == 5 and all(isinstance(h, Hit) for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[0].to_dict().keys() == {"time_s", "score"}


def test_search_by_frame_time_returns_own_time_first(built, tiny):
    index, directory = built
    loaded = FrameIndex.load(directory, tiny[TINY])
    for t in (0.0, 6.0, 8.25, 9.0, float(loaded.times[-1])):
        hits = loaded.search_frame(t, k=3)
        assert hits[0].time_s == t and hits[0].score == pytest.approx(1.0, abs=1e-4)
    assert loaded.search_frame(6.9, k=1)[0].time_s == loaded.vector_at(6.9)[0]


def test_search_by_image_file_and_array(built, tmp_path):
    index, _ = built
    t = float(index.times[5])
    i = int(t * 4)
    scene = sum(1 for c in (5.3, 8.1, 8.9) if c <= t)
    frame = _frame(1000 * scene + i)
    path = tmp_path / "probe.png"
    cv2.imwrite(str(path), frame)
    assert index.search_frame(str(path), k=1)[0].time_s == t
    assert index.search_frame(frame, k=1)[0].time_s == t


def test_time_range_filter(built):
    index, _ = built
    inside = [t for t in index.times if 5.0 <= t <= 10.0]
    hits = index.search_text("anything", k=50, start_s=5.0, end_s=10.0)
    assert sorted(h.time_s for h in hits) == sorted(inside)
    assert all(h.time_s >= 5.0 for h in index.search_frame(0.0, k=3, start_s=5.0))
    assert [h.time_s for h in index.search_frame(9.0, k=50, end_s=9.0)][0] == 9.0
    assert index.search_text("anything", start_s=30.0) == []


def test_index_of_other_model_is_refused(built, tiny, tmp_path):
    _, directory = built
    with pytest.raises(ModelMismatch, match=f"built with {TINY}.*{TINY_B}") as err:
        FrameIndex.load(directory, tiny[TINY_B])
    assert "\n" not in str(err.value) and isinstance(err.value, ValueError)
    # same architecture, other weights: refused as well
    torch.manual_seed(1)
    other = tmp_path / "other.pt"
    torch.save(open_clip.create_model(TINY, pretrained=None).state_dict(), other)
    with pytest.raises(ModelMismatch):
        FrameIndex.load(directory, ClipConfig(model=TINY, pretrained=str(other)))


def test_checkpoint_file_loads_through_open_clip(tiny, tiny_model):
    torch.manual_seed(0)
    reference = open_clip.create_model(TINY, pretrained=None).eval()
    frames = [_frame(s) for s in range(3)]
    batch = tiny_model.normalise(np.stack([tiny_model.prepare(f) for f in frames]))
    with torch.inference_mode():
        want = reference.encode_image(batch, normalize=True).numpy()
    np.testing.assert_allclose(tiny_model.encode_images(frames), want, atol=1e-5)
    assert tiny_model.weights_id.startswith("file:")
    assert clip_status(tiny[TINY])[0]


def test_cv2_preparation_matches_open_clip_transform(tiny_model):
    from PIL import Image

    for w, h in ((398, 224), (1280, 720), (160, 240)):
        frame = _frame(7, w, h)
        ours = tiny_model.normalise(tiny_model.prepare(frame)[None])[0]
        pil = Image.fromarray(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB))
        ref = tiny_model.reference_transform(pil)
        assert ours.shape == ref.shape
        # 224-high input is cropped only (exact); other sizes differ by the resampling filter
        tol = 1e-5 if h == 224 else 0.05
        assert float((ours - ref).abs().mean()) < tol, (w, h)


def test_missing_weights_report_and_disabled_index(tmp_path):
    cfg = ClipConfig(cache_dir=str(tmp_path))  # ViT-B-32 / openai, empty cache
    start = time.perf_counter()
    ok, reason = clip_status(cfg)
    assert time.perf_counter() - start < 5.0
    assert not ok and "ViT-B-32/openai" in reason and "\n" not in reason
    emb = FrameEmbedder(cfg)
    assert not emb.enabled
    emb.add(0.0, _frame(0))
    emb.scene_cut(0.0)
    index = emb.finish()
    index.save(tmp_path / "idx")
    loaded = FrameIndex.load(tmp_path / "idx", cfg)
    assert not loaded.enabled
    with pytest.raises(RetrievalOff, match="LVQ_CLIP_PRETRAINED"):
        loaded.search_text("a dark room")
    with pytest.raises(RetrievalOff, match="no local weights"):
        loaded.search_frame(0.0)


def test_time_budget_thins_sampling(tiny, tiny_model):
    """A fake clock: embedding costs 0.25 s a frame, the rest of the pass 0.1 s per video second,
    so a 25% budget allows one frame per 10 s instead of one per 2 s."""
    now = [0.0]
    cfg = ClipConfig(model=TINY, pretrained=tiny[TINY].pretrained, batch_size=4)
    emb = FrameEmbedder(cfg, model=tiny_model, clock=lambda: now[0])
    real_encode = tiny_model.encode_prepared

    def slow_encode(batch):
        now[0] += 0.25 * len(batch)
        return real_encode(batch)

    tiny_model.encode_prepared = slow_encode
    try:
        for i in range(2 * 600):  # 10 minutes at 2 frames a second
            now[0] += 0.1 / 2
            emb.add(i / 2, _frame(i % 5))
    finally:
        del tiny_model.encode_prepared
    index = emb.finish()
    other = now[0] - index.info["embed_s"]
    assert index.info["embed_s"] <= 0.25 * other + 1.0  # within one batch of the budget
    assert 30 <= len(index) <= 64  # 300 frames unthinned; ~60 fit the budget
    assert emb.interval_s > 2.0


def test_text_tower_on_trimmed_tokens_equals_full_context(tiny_model):
    texts = ["a dark indoor scene", "flicker", "a long description of a sunny beach with people"]
    assert tiny_model.trim_text
    with torch.inference_mode():
        full = tiny_model.net.encode_text(tiny_model.tokenizer(texts), normalize=True).numpy()
    np.testing.assert_allclose(tiny_model.encode_text(texts), full, atol=1e-5)


def test_corrupt_checkpoint_is_a_clear_error_and_disables_the_embedder(tiny, tmp_path):
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    cfg = ClipConfig(model=TINY, pretrained=str(bad))
    with pytest.raises(WeightsUnavailable, match="could not load lvq-tiny-a weights"):
        load_clip(cfg)
    emb = FrameEmbedder(cfg)  # loads on a background thread: fails there, not in the pass
    _feed(emb, 10.0)
    index = emb.finish()
    assert not emb.enabled and "could not load" in emb.reason
    assert not index.enabled and "could not load" in index.describe()["reason"]


def test_hub_model_loads_from_the_cache_without_network(tiny, tiny_model, tmp_path):
    ckpt = Path(tiny[TINY].pretrained).read_bytes()
    config = {"model_cfg": _tiny_config(32, 224), "preprocess_cfg": {}}
    hub_cache_layout(
        tmp_path,
        "lvq/tiny-clip",
        {"open_clip_config.json": json.dumps(config).encode(), "open_clip_pytorch_model.bin": ckpt},
    )
    cfg = ClipConfig(model="hf-hub:lvq/tiny-clip", cache_dir=str(tmp_path), precision="fp32")
    assert clip_status(cfg)[0]
    model = load_clip(cfg)
    frames = [_frame(s) for s in range(2)]
    np.testing.assert_allclose(
        model.encode_images(frames), tiny_model.encode_images(frames), atol=1e-5
    )
    assert model.name == "hf-hub:lvq/tiny-clip" and model.weights_id == "hub:lvq/tiny-clip"


def test_hnsw_index_above_threshold_agrees_with_flat(tiny_model, tmp_path, monkeypatch):
    import tools.clip_store as store

    rng = np.random.default_rng(3)
    vecs = rng.standard_normal((300, tiny_model.dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    times = np.arange(300) * 2.0
    flat = FrameIndex.from_vectors(times, vecs, tiny_model)
    monkeypatch.setattr(store, "HNSW_MIN_VECTORS", 100)
    hnsw = FrameIndex.from_vectors(times, vecs, tiny_model)
    assert type(hnsw.index).__name__ == "IndexHNSWFlat"
    hnsw.save(tmp_path)
    hnsw = FrameIndex.load(tmp_path, ClipConfig(), clip=tiny_model)
    for t, rng_s in ((10.0, (None, None)), (400.0, (300.0, 340.0))):
        want = flat.search_frame(t, k=5, start_s=rng_s[0], end_s=rng_s[1])
        got = hnsw.search_frame(t, k=5, start_s=rng_s[0], end_s=rng_s[1])
        assert [h.time_s for h in got] == [h.time_s for h in want]


def test_cuts_from_another_thread_and_before_their_frame(tiny, tiny_model):
    """The index builder adds frames on a reader thread and reports cuts from the main one."""
    import threading

    emb = FrameEmbedder(tiny[TINY], model=tiny_model)
    emb.scene_cut(3.1)  # reported before its frame arrives
    adder = threading.Thread(target=_feed, args=(emb, 12.0, 4.0))
    adder.start()
    for cut in (5.3, 7.1, 9.6):
        emb.scene_cut(cut)
    adder.join()
    emb.scene_cut(11.9)  # after the last frame: nothing to pick, no error
    times = list(emb.finish().times)
    _each_scene_has_a_frame(times, (3.1, 5.3, 7.1, 9.6), 11.9)
    assert times == sorted(set(times))


def test_late_cuts_still_give_each_scene_a_frame(tiny, tiny_model):
    emb = FrameEmbedder(tiny[TINY], model=tiny_model)
    # 5.3 is reported once 6.0 (scene 5.9-) is picked; 5.9 then closes 5.3-5.9 without a frame
    cuts = [(5.3, 5.9), (5.9, 8.0), (7.1, 11.6), (10.3, 99.0), (11.1, 99.0)]
    _feed(emb, 12.0, 4.0, cuts)
    index = emb.finish()
    _each_scene_has_a_frame(index.times, [c for c, _ in cuts], 12.0)
    assert index.info["scene_picks"] == 3  # 5.5, 10.5, 11.25 picked from the lookback


def test_bf16_image_tower_stays_close_to_fp32(tiny, tiny_model):
    cfg = ClipConfig(model=TINY, pretrained=tiny[TINY].pretrained, precision="bf16")
    model = load_clip(cfg)
    assert model.precision == "bf16" and tiny_model.precision == "fp32"
    frames = [_frame(s) for s in range(4)]
    cos = (model.encode_images(frames) * tiny_model.encode_images(frames)).sum(axis=1)
    assert cos.min() > 0.99
    emb = FrameEmbedder(cfg, model=model)
    _feed(emb, 8.0)
    index = emb.finish()
    assert index.info["precision"] == "bf16"
    assert index.search_frame(_frame(1000 * 0 + 8), k=1)[0].time_s == 2.0


def test_embedder_loads_its_model_in_the_background(tiny):
    emb = FrameEmbedder(tiny[TINY])  # checkpoint file -> open_clip, on a loader thread
    _feed(emb, 6.0, cuts=(3.1,))
    index = emb.finish()
    assert emb.enabled and index.enabled and list(index.times) == [0.0, 2.0, 3.25, 5.25]
    assert index.info["load_wait_s"] >= 0.0 and index.search_frame(2.0, k=1)[0].time_s == 2.0
