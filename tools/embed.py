"""CLIP retrieval over a video's frames: find the moments a text or an example frame is about.

During the index pass a FrameEmbedder picks frames (every interval, at least one per scene),
embeds them with open_clip and finishes into a FrameIndex: times plus a FAISS inner-product index
of L2-normalised embeddings, saved beside the rest of the video's cached index.
"""

from __future__ import annotations

from tools.clip_config import ClipConfig, ClipError
from tools.clip_embedder import (
    BACKLOG_BATCHES,
    LOOKBACK_S,
    MAX_INTERVAL_FACTOR,
    FrameEmbedder,
    index_threads,
)
from tools.clip_hits import Hit, Span, merge_spans
from tools.clip_index import EPS, TEXT_CACHE_SIZE, FrameIndex, ModelMismatch, RetrievalOff
from tools.clip_store import (
    FAISS_FILE,
    FORMAT_VERSION,
    HNSW_EF_SEARCH,
    HNSW_M,
    HNSW_MIN_VECTORS,
    META_FILE,
    TIMES_FILE,
    BadIndex,
    build_faiss,
)
from tools.clip_weights import clip_status

__all__ = [
    "BACKLOG_BATCHES", "EPS", "FAISS_FILE", "FORMAT_VERSION", "HNSW_EF_SEARCH", "HNSW_M",
    "HNSW_MIN_VECTORS", "LOOKBACK_S", "MAX_INTERVAL_FACTOR", "META_FILE", "TEXT_CACHE_SIZE",
    "TIMES_FILE", "BadIndex", "ClipConfig", "ClipError", "FrameEmbedder", "FrameIndex", "Hit",
    "ModelMismatch", "RetrievalOff", "Span", "build_faiss", "clip_status", "index_threads",
    "merge_spans",
]
