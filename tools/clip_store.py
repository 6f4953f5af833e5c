"""The FAISS store of CLIP frame embeddings: building it, and reading it back from disk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from tools.clip_config import ClipError

FORMAT_VERSION = 1
META_FILE = "clip.json"
TIMES_FILE = "clip_times.npy"
FAISS_FILE = "clip.faiss"

# Flat (exact) search below this many vectors, HNSW above. Measured by bench/bench_embed.py (dim
# 512, k=10, 2 cores shared with load 6-25): flat p50 0.33-0.40 ms at 3,600 vectors (a 2-hour video
# at 1 frame / 2 s), 3.5-31 ms at 20,000, 80 ms at 50,000, 56-106 ms at 100,000; HNSW (M=32) gives
# the same top-1 in ~1 ms at 20,000-50,000 but takes 9-94 s to build. 50,000 vectors is 28 hours
# of video: below that the exact search needs no build and stays near the 50 ms budget.
HNSW_MIN_VECTORS = 50_000
HNSW_M = 32
HNSW_EF_SEARCH = 128


class BadIndex(ClipError):
    """The stored CLIP index is missing, unreadable or of another format version."""


def build_faiss(vectors: np.ndarray) -> Any:
    """An inner-product FAISS index over L2-normalised rows: flat, or HNSW when very large."""
    import faiss

    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    dim = vectors.shape[1]
    if len(vectors) >= HNSW_MIN_VECTORS:
        index = faiss.IndexHNSWFlat(dim, HNSW_M, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efSearch = HNSW_EF_SEARCH
    else:
        index = faiss.IndexFlatIP(dim)
    if len(vectors):
        index.add(vectors)
    return index


def write_files(directory: Path, meta: dict[str, Any], times: np.ndarray, index: Any) -> None:
    """Write the times, the FAISS index (unless None) and then clip.json into `directory`."""
    import faiss

    np.save(directory / TIMES_FILE, times)
    if index is not None:
        faiss.write_index(index, str(directory / FAISS_FILE))
    (directory / META_FILE).write_text(json.dumps(meta, indent=1))


def read_meta(directory: Path) -> dict[str, Any]:
    """The stored index's clip.json; BadIndex when missing, unreadable or of another format."""
    try:
        meta = json.loads((directory / META_FILE).read_text())
    except (OSError, ValueError) as exc:
        raise BadIndex(f"no readable CLIP index in {directory}: {exc}") from exc
    if meta.get("format") != FORMAT_VERSION:
        raise BadIndex(
            f"CLIP index in {directory} has format {meta.get('format')}, "
            f"this version reads {FORMAT_VERSION}: rebuild the index"
        )
    return meta


def read_arrays(directory: Path, meta: dict[str, Any]) -> tuple[np.ndarray, Any]:
    """The stored times and FAISS index; BadIndex when unreadable or not matching `meta`."""
    import faiss

    try:
        times = np.load(directory / TIMES_FILE)
        index = faiss.read_index(str(directory / FAISS_FILE))
    except (OSError, ValueError, RuntimeError) as exc:
        raise BadIndex(f"unreadable CLIP index in {directory}: {exc}") from exc
    if index.ntotal != len(times) or index.d != int(meta["dim"]):
        raise BadIndex(
            f"CLIP index in {directory} is inconsistent: {index.ntotal} vectors of dim "
            f"{index.d}, {len(times)} times, dim {meta['dim']} recorded"
        )
    return times, index
