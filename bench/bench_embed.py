"""Figures for CLIP retrieval: embedding cost per frame and per 10-minute video, search latency.

Random ViT-B-32 weights cost the same as real ones, so this runs without any download:
    .venv/bin/python bench/bench_embed.py [--video some_720p.mp4] [--frames 32]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.clip_model import (  # noqa: E402
    ClipConfig,
    ClipModel,
    auto_threads,  # noqa: E402
)
from tools.embed import HNSW_MIN_VECTORS, FrameIndex, index_threads  # noqa: E402

VIDEO_S = 600.0  # the 10-minute video
# Index-pass floor from DESIGN.md (120 s of 720p H.264 on this machine): bare ffmpeg decode
# 6.6-7.3 s, decord at reduced size 10.7 s; scaled to 10 minutes.
REFERENCE_INDEX_S = {"bare decode (floor)": 7.0 * 5, "decord reduced decode": 10.7 * 5}


def timed(fn, repeat: int = 1) -> float:
    """Mean wall seconds of fn() over `repeat` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def percentiles(fn, args) -> tuple[float, float]:
    """p50 and p95 in milliseconds of fn(a) for each a in args."""
    ms = []
    for a in args:
        start = time.perf_counter()
        fn(a)
        ms.append((time.perf_counter() - start) * 1000)
    return float(np.percentile(ms, 50)), float(np.percentile(ms, 95))


def load_vit_b32(precision: str = "fp32") -> tuple[ClipModel, float]:
    """ViT-B-32 with random weights through open_clip's normal factory, and its load time."""
    import open_clip

    start = time.perf_counter()
    net, _, reference = open_clip.create_model_and_transforms("ViT-B-32", pretrained=None)
    tokenizer = open_clip.get_tokenizer("ViT-B-32")
    clip = ClipModel(net, tokenizer, "ViT-B-32", "random", reference, precision)
    return clip, time.perf_counter() - start


def with_precision(clip: ClipModel, precision: str) -> ClipModel:
    """The same network with its image tower cast to `precision` (in place)."""
    return ClipModel(clip.net, clip.tokenizer, clip.name, clip.weights_id, None, precision)


def bench_prepare(clip: ClipModel, frames: list[np.ndarray]) -> None:
    """cv2 preparation against open_clip's PIL transform on 398x224 mid-resolution frames."""
    import cv2
    from PIL import Image

    def pil() -> None:
        for f in frames:
            img = Image.fromarray(cv2.cvtColor(f, cv2.COLOR_BGR2RGB))
            clip.reference_transform(img)

    def ours() -> None:
        clip.normalise(np.stack([clip.prepare(f) for f in frames]))

    n = len(frames)
    print(
        f"prepare 398x224 -> 224x224: cv2 {timed(ours, 3) / n * 1000:.2f} ms/frame, "
        f"open_clip PIL transform {timed(pil, 3) / n * 1000:.2f} ms/frame"
    )


def bench_embedding(clip: ClipModel, frames: list[np.ndarray], threads: list[int]) -> float:
    """ms per frame of image embedding (batches of ClipConfig().batch_size) per thread count.

    CPU time is printed beside wall time: on a shared machine the 1-thread CPU time is the best
    estimate of the uncontended cost. Returns the best wall ms/frame.
    """
    batch = ClipConfig().batch_size
    prepared = np.stack([clip.prepare(f) for f in frames])
    clip.encode_prepared(prepared[:batch])  # warm-up
    best = float("inf")
    for n in threads:
        clip.threads = n
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for i in range(0, len(prepared), batch):
            clip.encode_prepared(prepared[i : i + batch])
        wall = (time.perf_counter() - wall0) / len(prepared) * 1000
        cpu = (time.process_time() - cpu0) / len(prepared) * 1000
        best = min(best, wall)
        print(
            f"embed ViT-B-32 {clip.precision}, {n} thread(s), batch {batch}: "
            f"{wall:.1f} ms/frame wall, {cpu:.1f} ms/frame CPU"
        )
    clip.threads = None
    return best


def decode_seconds(video: Path) -> tuple[float, float]:
    """(bare decode wall seconds with 2 threads, video duration) of a file, via ffmpeg."""
    import imageio_ffmpeg

    _, duration = imageio_ffmpeg.count_frames_and_secs(str(video))
    cmd = [
        imageio_ffmpeg.get_ffmpeg_exe(),
        "-v",
        "error",
        "-threads",
        "2",
        "-i",
        str(video),
        "-f",
        "null",
        "-",
    ]
    return timed(lambda: subprocess.run(cmd, check=True)), duration


def report_video_cost(ms_per_frame: float, video: Path | None) -> None:
    """Embedding cost of a 10-minute video at the default interval against the index pass."""
    cfg = ClipConfig()
    n = VIDEO_S / cfg.interval_s
    embed_s = n * ms_per_frame / 1000
    refs = dict(REFERENCE_INDEX_S)
    if video is not None:
        secs, duration = decode_seconds(video)
        refs[f"bare decode of {video.name}"] = secs * VIDEO_S / duration
    print(
        f"10-minute video, 1 frame / {cfg.interval_s:g} s: {n:.0f} frames -> {embed_s:.1f} s "
        "(+ scene picks)"
    )
    for name, index_s in refs.items():
        need = ms_per_frame / 1000 * VIDEO_S / (cfg.time_budget * index_s)
        print(
            f"  vs {name} {index_s:.0f} s: +{embed_s / index_s:.0%}; "
            f"the {cfg.time_budget:.0%} budget sets the interval to "
            f"{max(cfg.interval_s, need):.1f} s"
        )


def make_720p(seconds: float, directory: Path) -> Path:
    """A synthetic 1280x720 25 fps H.264 video made by bench.synth (content with scene cuts)."""
    from bench.synth import make_video

    path = directory / f"synthetic_720p_{seconds:g}s.mp4"
    if not path.exists():
        make_video(path, seconds, width=1280, height=720, seed=3, preset="ultrafast")
    return path


def bench_index_pass(video: Path, directory: Path) -> None:
    """The index builder's pass with and without CLIP (random ViT-B-32 from a checkpoint file,
    so the real loading path runs), projected to a 10-minute video: the per-frame embedding
    scales with duration, the rest of the extra (model load not hidden by the pass) does not."""
    import open_clip
    import torch

    from tools.index import measure
    from tools.video import probe_video

    duration = probe_video(video).duration_s
    ckpt = directory / "vit-b-32-random.pt"
    if not ckpt.exists():
        torch.save(open_clip.create_model("ViT-B-32", pretrained=None).state_dict(), ckpt)
    os.environ.update(LVQ_CLIP_MODEL="ViT-B-32", LVQ_CLIP_PRETRAINED=str(ckpt))
    measure(video, progress=False, clip=False)  # warm-up: page cache, imports
    off = timed(lambda: measure(video, progress=False, clip=False))
    start = time.perf_counter()
    index = measure(video, progress=False, clip=True)
    on = time.perf_counter() - start
    info = index.clip.info if index.clip is not None else {}
    embed = float(info.get("embed_s", 0.0))
    fixed = max(0.0, on - off - embed)
    scale = VIDEO_S / duration
    # the rest of a 10-minute video is sampled at the interval the budget settled on
    per_frame = embed / max(1, int(info.get("frames", 0)))
    rest = (VIDEO_S - duration) / float(info.get("final_interval_s", 2.0))
    extra = fixed + embed + rest * per_frame
    print(
        f"index pass of {video.name} ({duration:.0f} s): without CLIP {off:.1f} s, with CLIP "
        f"{on:.1f} s (embedding {embed:.1f} s, other extra {fixed:.1f} s); status "
        f"{index.meta['clip']['status']!r}"
    )
    print(
        f"  10-minute projection: index {off * scale:.0f} s, CLIP adds {extra:.0f} s "
        f"(+{extra / (off * scale):.0%}); a fresh process also pays ~6 s to import open_clip"
    )
    print(f"  CLIP index: {info}")


def bench_faiss(dim: int, sizes: list[int], queries: int) -> None:
    """Flat vs HNSW inner-product search latency (k=10) and HNSW build time per index size."""
    for n in sizes:
        print(faiss_row(n, dim, queries))


def faiss_row(n: int, dim: int, queries: int) -> str:
    """One index size: flat latency, and HNSW build/latency/top-1 agreement up to 50k vectors."""
    import faiss

    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, dim)).astype(np.float32)
    faiss.normalize_L2(x)
    q = x[rng.integers(0, n, queries)]
    flat = faiss.IndexFlatIP(dim)
    flat.add(x)
    f50, f95 = percentiles(lambda v: flat.search(v[None], 10), q)
    line = f"faiss n={n:>6} dim={dim}: flat p50 {f50:.2f} ms p95 {f95:.2f} ms"
    if n > 50_000:
        return line
    hnsw = faiss.IndexHNSWFlat(dim, 32, faiss.METRIC_INNER_PRODUCT)
    build = timed(lambda: hnsw.add(x))
    hnsw.hnsw.efSearch = 128
    h50, h95 = percentiles(lambda v: hnsw.search(v[None], 10), q)
    agree = np.mean(
        [hnsw.search(v[None], 1)[1][0, 0] == flat.search(v[None], 1)[1][0, 0] for v in q[:50]]
    )
    return line + (
        f"; hnsw build {build:.1f} s, p50 {h50:.2f} ms p95 {h95:.2f} ms, "
        f"top-1 agreement {agree:.0%}"
    )


def bench_text(clip: ClipModel, queries: int, threads: list[int]) -> None:
    """Text tower per query: tokens up to EOT only (what search uses) vs the full 77 tokens."""
    import torch

    texts = [f"the dark indoor scene with flicker {i}" for i in range(queries)]

    def full(text: str) -> None:
        with torch.inference_mode():
            clip.net.encode_text(clip.tokenizer([text]), normalize=True)

    for n in threads:
        clip.threads = n
        torch.set_num_threads(n)
        for name, fn in (("trimmed", lambda t: clip.encode_text([t])), ("full 77", full)):
            cpu0 = time.process_time()
            p50, _ = percentiles(fn, texts)
            cpu = (time.process_time() - cpu0) / len(texts) * 1000
            print(
                f"text tower ViT-B-32 {name}, {n} thread(s): p50 {p50:.1f} ms wall, "
                f"{cpu:.1f} ms CPU"
            )
    clip.threads = None


def bench_search(clip: ClipModel, n: int, queries: int) -> None:
    """End-to-end FrameIndex search on a 2-hour video's index (1 frame / 2 s)."""
    rng = np.random.default_rng(1)
    vecs = rng.standard_normal((n, clip.dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    index = FrameIndex.from_vectors(np.arange(n) * 2.0, vecs, clip)
    texts = [f"a dark indoor scene number {i}" for i in range(queries)]
    t50, t95 = percentiles(lambda text: index.search_text(text, k=10), texts)
    f50, _ = percentiles(lambda t: index.search_frame(t, k=10), rng.uniform(0, 2 * n, queries))
    r50, _ = percentiles(
        lambda text: index.search_text(text, k=10, start_s=1800, end_s=3600),
        [f"flicker in a bright scene {i}" for i in range(queries)],
    )
    print(
        f"2-hour index ({n} frames, {type(index.index).__name__}): search_text p50 {t50:.1f} ms "
        f"p95 {t95:.1f} ms (text tower included); search_frame(time) p50 {f50:.2f} ms; "
        f"search_text within a time range p50 {r50:.1f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=32, help="frames to embed per setting")
    parser.add_argument("--threads", default="1,2", help="torch thread counts to try")
    parser.add_argument("--video", type=Path, help="a 720p file: time decode and index pass")
    parser.add_argument(
        "--make-video",
        type=float,
        metavar="SECONDS",
        help="synthesise a 720p video of this length for --video",
    )
    parser.add_argument("--parts", default="embed,text,faiss,search,index")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/lvq_bench_embed"))
    parser.add_argument("--sizes", default="3600,20000,100000", help="FAISS index sizes")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--precisions", default="fp32,auto", help="image tower precisions")
    args = parser.parse_args(argv)

    sys.stdout.reconfigure(line_buffering=True)  # keep the figures if the process dies at exit
    print(
        f"cpus {os.cpu_count()}, load average {os.getloadavg()[0]:.1f} at start, "
        f"threads picked now: search {auto_threads()}, index pass {index_threads()}"
    )
    parts = set(args.parts.split(","))
    args.workdir.mkdir(parents=True, exist_ok=True)
    if args.make_video:
        args.video = make_720p(args.make_video, args.workdir)
    clip, load_s = load_vit_b32()
    print(f"ViT-B-32 created in {load_s:.1f} s (random weights; a checkpoint adds its read time)")
    threads = [int(t) for t in args.threads.split(",")]
    if "embed" in parts:
        rng = np.random.default_rng(0)
        frames = [rng.integers(0, 256, (224, 398, 3), dtype=np.uint8) for _ in range(args.frames)]
        bench_prepare(clip, frames)
        for precision in args.precisions.split(","):
            clip = with_precision(clip, precision)
            ms = bench_embedding(clip, frames, threads)
            report_video_cost(ms, args.video)
    if "text" in parts:
        bench_text(clip, min(args.queries, 20), threads)
    if "faiss" in parts:
        bench_faiss(clip.dim, [int(s) for s in args.sizes.split(",")], args.queries)
    if "search" in parts:
        bench_search(clip, 3600, min(args.queries, 30))
    if "index" in parts and args.video is not None:
        bench_index_pass(args.video, args.workdir)
    print(f"HNSW_MIN_VECTORS = {HNSW_MIN_VECTORS}; load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
