"""A video's CLIP frame index: sampled times and their embeddings, searchable by text or frame."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tools.clip_config import ENABLE_HINT, ClipConfig, ClipError
from tools.clip_encoder import ClipModel
from tools.clip_fetch import ensure_weights
from tools.clip_hits import Hit
from tools.clip_model import load_clip
from tools.clip_store import (
    FORMAT_VERSION,
    HNSW_EF_SEARCH,
    build_faiss,
    read_arrays,
    read_meta,
    write_files,
)
from tools.clip_weights import model_key, weights_identity

EPS = 1e-6
TEXT_CACHE_SIZE = 256  # text query embeddings kept per index (an agent repeats its queries)


class RetrievalOff(ClipError):
    """CLIP retrieval is off for this index (no weights when it was built, or now)."""


class ModelMismatch(ClipError):
    """The stored index was built with another model or other weights than asked for."""


class FrameIndex:
    """Sampled frame times with their CLIP embeddings in FAISS; searchable by text or frame.

    A disabled index (no weights when built) keeps the reason; its searches raise RetrievalOff.
    The model is loaded only when a search needs it (text, or a frame not already indexed).
    """

    def __init__(
        self,
        times: np.ndarray,
        index: Any,
        *,
        model: str,
        weights_id: str,
        dim: int,
        pretrained: str = "",
        info: dict[str, Any] | None = None,
        reason: str = "",
        cfg: ClipConfig | None = None,
        clip: ClipModel | None = None,
    ) -> None:
        self.times = np.asarray(times, dtype=np.float64)
        self.index = index
        self.model = model
        self.weights_id = weights_id
        self.pretrained = pretrained or (cfg.pretrained if cfg else weights_id)
        self.dim = dim
        self.info = dict(info or {})
        self.reason = reason
        self._cfg = cfg
        self._clip = clip
        self._text_cache: dict[str, np.ndarray] = {}

    @property
    def enabled(self) -> bool:
        """Whether this index holds embeddings (False: retrieval is off, see .reason)."""
        return self.index is not None

    def __len__(self) -> int:
        return len(self.times)

    def describe(self) -> dict[str, Any]:
        """A compact summary for tool results: on/off and why, model, frames, sampling."""
        out = {"enabled": self.enabled, "model": self.model, "pretrained": self.pretrained}
        if not self.enabled:
            out["reason"] = f"{self.reason}; {ENABLE_HINT}"
        return {**out, "frames": len(self.times), **self.info}

    @property
    def gap_s(self) -> float:
        """A merge gap that joins adjacent samples: 1.5 x the median sampling interval."""
        if len(self.times) < 2:
            return float(self.info.get("interval_s", 2.0)) * 1.5
        return float(np.median(np.diff(self.times))) * 1.5

    @classmethod
    def disabled(cls, cfg: ClipConfig, reason: str, info: dict | None = None) -> FrameIndex:
        """An index without embeddings that remembers why retrieval is off."""
        return cls(
            np.zeros(0),
            None,
            model=model_key(cfg.model),
            weights_id=weights_identity(cfg),
            dim=0,
            info=info,
            reason=reason,
            cfg=cfg,
        )

    @classmethod
    def from_vectors(
        cls,
        times: Sequence[float],
        vectors: np.ndarray,
        clip: ClipModel,
        cfg: ClipConfig | None = None,
        info: dict | None = None,
    ) -> FrameIndex:
        """Index embeddings (rows L2-normalised) taken at `times` by `clip`."""
        times = np.asarray(times, dtype=np.float64)
        order = np.argsort(times, kind="stable")
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(times), clip.dim)[order]
        return cls(
            times[order],
            build_faiss(vectors),
            model=clip.name,
            weights_id=clip.weights_id,
            dim=clip.dim,
            info=info,
            cfg=cfg,
            clip=clip,
        )

    # ---- persistence -------------------------------------------------------------------------

    def save(self, directory: Path) -> None:
        """Write clip.json, clip_times.npy and (when enabled) clip.faiss into `directory`."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        meta = {
            "format": FORMAT_VERSION,
            "model": self.model,
            "weights_id": self.weights_id,
            "pretrained": self.pretrained,
            "dim": self.dim,
            "n": len(self.times),
            "enabled": self.enabled,
            "reason": self.reason,
            "index_type": type(self.index).__name__ if self.enabled else "",
            "info": self.info,
        }
        write_files(directory, meta, self.times, self.index if self.enabled else None)

    @classmethod
    def load(cls, directory: Path, cfg: ClipConfig, clip: ClipModel | None = None) -> FrameIndex:
        """Read an index saved by .save; ModelMismatch if it was built for another model."""
        directory = Path(directory)
        meta = read_meta(directory)
        want = (model_key(cfg.model), weights_identity(cfg))
        if clip is not None:
            want = (clip.name, clip.weights_id)
        if (meta.get("model"), meta.get("weights_id")) != want:
            raise ModelMismatch(
                f"CLIP index in {directory} was built with {meta.get('model')} "
                f"({meta.get('pretrained') or meta.get('weights_id')}), but {want[0]} "
                f"({cfg.pretrained if clip is None else clip.weights_id}) is asked for: "
                "rebuild the index or set LVQ_CLIP_MODEL/LVQ_CLIP_PRETRAINED to match"
            )
        kwargs = dict(
            model=meta["model"],
            weights_id=meta["weights_id"],
            pretrained=meta.get("pretrained", ""),
            info=meta.get("info"),
        )
        if not meta.get("enabled"):
            return cls(np.zeros(0), None, dim=0, reason=meta.get("reason", ""), cfg=cfg, **kwargs)
        times, index = read_arrays(directory, meta)
        return cls(times, index, dim=int(meta["dim"]), cfg=cfg, clip=clip, **kwargs)

    # ---- search ------------------------------------------------------------------------------

    def search_text(
        self, query: str, k: int = 10, start_s: float | None = None, end_s: float | None = None
    ) -> list[Hit]:
        """Frames best matching a text, best first, optionally within [start_s, end_s]."""
        self._require_enabled()
        if not query or not query.strip():
            raise ClipError("CLIP text query is empty")
        if query not in self._text_cache:
            if len(self._text_cache) >= TEXT_CACHE_SIZE:
                self._text_cache.pop(next(iter(self._text_cache)))
            self._text_cache[query] = self._model().encode_text([query])[0]
        return self.search_vector(self._text_cache[query], k, start_s, end_s)

    def search_frame(
        self,
        query: float | str | Path | np.ndarray,
        k: int = 10,
        start_s: float | None = None,
        end_s: float | None = None,
    ) -> list[Hit]:
        """Frames resembling an example: a time in the video, an image file, or a BGR array."""
        self._require_enabled()
        if isinstance(query, int | float | np.floating | np.integer):
            vec = self.vector_at(float(query))[1]
        elif isinstance(query, np.ndarray):
            vec = self._model().encode_images([query])[0]
        else:
            vec = self._model().encode_images([_read_image(Path(query))])[0]
        return self.search_vector(vec, k, start_s, end_s)

    def vector_at(self, time_s: float) -> tuple[float, np.ndarray]:
        """The stored embedding nearest to time_s: (its time, vector)."""
        self._require_enabled()
        if not len(self.times):
            raise ClipError("CLIP index holds no frames")
        i = int(np.argmin(np.abs(self.times - time_s)))
        return float(self.times[i]), self.index.reconstruct(i)

    def search_vector(
        self, vec: np.ndarray, k: int = 10, start_s: float | None = None, end_s: float | None = None
    ) -> list[Hit]:
        """Nearest stored frames to an embedding by inner product, optionally time-restricted."""
        self._require_enabled()
        lo, hi = self._id_range(start_s, end_s)
        k = min(int(k), hi - lo)
        if k <= 0:
            return []
        query = np.ascontiguousarray(np.asarray(vec, np.float32).reshape(1, self.dim))
        scores, ids = self._faiss_search(query, k, lo, hi)
        hits = [Hit(float(self.times[i]), float(s)) for s, i in zip(scores, ids, strict=True)]
        if len(hits) < k:  # a filtered HNSW walk can come back short: answer exactly instead
            hits = self._exact_search(query[0], k, lo, hi)
        return hits

    def _faiss_search(self, query: np.ndarray, k: int, lo: int, hi: int) -> tuple:
        import faiss

        params = None
        if (lo, hi) != (0, len(self.times)) or isinstance(self.index, faiss.IndexHNSW):
            selector = faiss.IDSelectorRange(lo, hi)
            if isinstance(self.index, faiss.IndexHNSW):
                ef = max(HNSW_EF_SEARCH, 2 * k)
                params = faiss.SearchParametersHNSW(sel=selector, efSearch=ef)
            else:
                params = faiss.SearchParameters(sel=selector)
        scores, ids = self.index.search(query, k, params=params)
        keep = ids[0] >= 0
        return scores[0][keep], ids[0][keep]

    def _exact_search(self, query: np.ndarray, k: int, lo: int, hi: int) -> list[Hit]:
        scores = self.index.reconstruct_n(lo, hi - lo) @ query
        top = np.argsort(-scores, kind="stable")[:k]
        return [Hit(float(self.times[lo + i]), float(scores[i])) for i in top]

    def _id_range(self, start_s: float | None, end_s: float | None) -> tuple[int, int]:
        """Row ids [lo, hi) of frames with start_s <= time <= end_s (times are sorted)."""
        lo = 0 if start_s is None else int(np.searchsorted(self.times, start_s - EPS, "left"))
        hi = len(self.times)
        if end_s is not None:
            hi = int(np.searchsorted(self.times, end_s + EPS, "right"))
        return lo, max(lo, hi)

    def _require_enabled(self) -> None:
        if not self.enabled:
            raise RetrievalOff(f"CLIP retrieval is off: {self.reason}; {ENABLE_HINT}")

    def _model(self) -> ClipModel:
        """The model that built this index, loaded (fetched if missing) when first needed."""
        if self._clip is None:
            if self._cfg is None:
                raise RetrievalOff(f"CLIP retrieval is off: no model configuration; {ENABLE_HINT}")
            try:
                self._clip = load_clip(self._cfg, ensure_weights(self._cfg))
            except ClipError as exc:
                raise RetrievalOff(f"CLIP retrieval is off: {exc}; {ENABLE_HINT}") from exc
        return self._clip


def _read_image(path: Path) -> np.ndarray:
    import cv2

    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise ClipError(f"cannot read image file {path}")
    return img
