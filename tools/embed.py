"""CLIP retrieval over a video's frames: find the moments a text or an example frame is about.

During the index pass a FrameEmbedder picks frames (every interval, at least one per scene),
embeds them with open_clip and finishes into a FrameIndex: times plus a FAISS inner-product index
of L2-normalised embeddings, saved beside the rest of the video's cached index.
"""

from __future__ import annotations

import bisect
import json
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tools.clip_fetch import ensure_weights
from tools.clip_model import (
    ENABLE_HINT,
    ClipConfig,
    ClipError,
    ClipModel,
    auto_threads,
    clip_status,
    load_clip,
    model_key,
    weights_identity,
)

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
LOOKBACK_S = 5.0  # frames kept so a late-reported scene cut can still pick a frame of its scene
BACKLOG_BATCHES = 8  # picked frames held (not embedded) while the model loads, in batches
MAX_INTERVAL_FACTOR = 8.0  # the time budget never widens the interval beyond this factor
EPS = 1e-6
TEXT_CACHE_SIZE = 256  # text query embeddings kept per index (an agent repeats its queries)


class RetrievalOff(ClipError):
    """CLIP retrieval is off for this index (no weights when it was built, or now)."""


class ModelMismatch(ClipError):
    """The stored index was built with another model or other weights than asked for."""


class BadIndex(ClipError):
    """The stored CLIP index is missing, unreadable or of another format version."""


@dataclass(frozen=True)
class Hit:
    """One sampled frame matching a query: its time and cosine similarity."""

    time_s: float
    score: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Span:
    """Neighbouring hits merged: [start_s, end_s], best score and the time it was reached."""

    start_s: float
    end_s: float
    score: float
    peak_s: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def merge_spans(hits: Sequence[Hit], gap_s: float, pad_s: float = 0.0) -> list[Span]:
    """Merge hits no more than gap_s apart into spans (padded by pad_s), best score first."""
    spans: list[Span] = []
    group: list[Hit] = []
    for hit in sorted(hits, key=lambda h: h.time_s):
        if group and hit.time_s - group[-1].time_s > gap_s:
            spans.append(_span_of(group, pad_s))
            group = []
        group.append(hit)
    if group:
        spans.append(_span_of(group, pad_s))
    return sorted(spans, key=lambda s: (-s.score, s.start_s))


def _span_of(group: Sequence[Hit], pad_s: float) -> Span:
    peak = max(group, key=lambda h: h.score)
    start = max(0.0, group[0].time_s - pad_s)
    return Span(start, group[-1].time_s + pad_s, peak.score, peak.time_s)


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
        import faiss

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
        np.save(directory / TIMES_FILE, self.times)
        if self.enabled:
            faiss.write_index(self.index, str(directory / FAISS_FILE))
        (directory / META_FILE).write_text(json.dumps(meta, indent=1))

    @classmethod
    def load(cls, directory: Path, cfg: ClipConfig, clip: ClipModel | None = None) -> FrameIndex:
        """Read an index saved by .save; ModelMismatch if it was built for another model."""
        directory = Path(directory)
        meta = _read_meta(directory)
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
        times, index = _read_arrays(directory, meta)
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


def _read_meta(directory: Path) -> dict[str, Any]:
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


def _read_arrays(directory: Path, meta: dict[str, Any]) -> tuple[np.ndarray, Any]:
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


def _read_image(path: Path) -> np.ndarray:
    import cv2

    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise ClipError(f"cannot read image file {path}")
    return img


def index_threads() -> int:
    """torch threads for embedding during the index pass: the idle cores, at most half of them
    (decoding and the per-frame measurements keep the rest busy)."""
    return max(1, min(auto_threads(), (os.cpu_count() or 2) // 2))


class FrameEmbedder:
    """Picks frames from the index pass and embeds them in batches; finish() gives a FrameIndex.

    A frame is picked when the interval has passed since the last pick, and every scene gets at
    least one frame: a cut is honoured by the first frame at or after it, taken from the last
    few seconds of frames when the cut is reported late. add() may run on a reader thread while
    scene_cut() runs on another: cuts are queued and applied under the embedder's lock. With a
    time budget the interval widens so that embedding costs at most that fraction of the rest of
    the pass. The model loads on a background thread while the first frames are picked. Without
    weights every call is a no-op and finish() returns a disabled index with the reason.
    """

    def __init__(
        self,
        cfg: ClipConfig,
        model: ClipModel | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.cfg = cfg
        self.reason = ""
        self._clip = model
        self._off = False
        self._ready = threading.Event()
        self._clock = clock
        self._lock = threading.Lock()
        self._cuts: deque[float] = deque()  # reported, not yet applied (deque ops are atomic)
        self._due: list[float] = []  # cuts waiting for their first frame to arrive
        self._known_cuts: list[float] = []  # every applied cut, sorted: scene ends
        self._picked: list[float] = []  # every picked time, sorted
        self._interval = cfg.interval_s
        self._recent: deque[tuple[float, np.ndarray]] = deque()
        self._pending: list[tuple[float, np.ndarray]] = []  # picked BGR frames, not embedded
        self._times: list[float] = []
        self._vectors: list[np.ndarray] = []
        self._last_t = -math.inf
        self._last_pick = -math.inf
        self._t0 = self._wall0 = 0.0
        self._embed_s = 0.0
        self._load_wait_s = 0.0
        self._n_cut_picks = 0
        self._finished = False
        if model is not None:
            self._ready.set()
        else:
            self._start_loading()

    def _start_loading(self) -> None:
        """A quick local check now (no open_clip import); the full check and the loading on a
        background thread, overlapping the start of the index pass."""
        ok, reason = clip_status(self.cfg, quick=True)
        if not ok:
            self._disable(reason)
            return
        threading.Thread(target=self._load, name="clip-load", daemon=True).start()

    def _load(self) -> None:
        try:
            ok, reason = clip_status(self.cfg)
            if not ok:
                raise ClipError(reason)
            self._clip = load_clip(self.cfg, threads=self.cfg.threads or index_threads())
        except Exception as exc:  # noqa: BLE001 - a broken model must not stop the index pass
            self._disable(str(exc) if isinstance(exc, ClipError) else f"loading failed: {exc!r}")
        finally:
            self._ready.set()

    def _disable(self, reason: str) -> None:
        self.reason = reason.strip().splitlines()[0] if reason.strip() else "unknown error"
        self._off = True
        self._ready.set()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the model has loaded or failed to (True when that happened in time)."""
        return self._ready.wait(timeout)

    @property
    def enabled(self) -> bool:
        """False when retrieval is off (no weights, or they failed to load: see .reason)."""
        return not self._off

    @property
    def interval_s(self) -> float:
        """The sampling interval in force now (cfg.interval_s, widened by the time budget)."""
        return self._interval

    def add(self, t: float, frame_bgr: np.ndarray) -> None:
        """Offer the frame shown at t seconds (BGR uint8, times ascending); maybe embed it."""
        if self._off:
            return
        with self._lock:
            if self._finished:
                raise RuntimeError("FrameEmbedder.add after finish")
            if t < self._last_t:
                raise ValueError(f"frames must arrive in time order: {t} after {self._last_t}")
            if self._last_t == -math.inf:
                self._t0, self._wall0 = t, self._clock()
            self._last_t = t
            frame = frame_bgr.copy()  # the caller may reuse its buffer
            self._recent.append((t, frame))
            while self._recent[0][0] < t - LOOKBACK_S:
                self._recent.popleft()
            self._apply_cuts()
            due = bool(self._due) and t >= self._due[0] - EPS
            if due or t - self._last_pick >= self._interval - EPS:
                self._pick(t, frame)

    def scene_cut(self, t: float) -> None:
        """A shot boundary at t (any thread, may come late): the new scene gets a frame."""
        if not self._off:
            self._cuts.append(float(t))

    def _apply_cuts(self) -> None:
        """Give every scene touched by newly reported cuts a frame: the first recent frame
        inside it, or the next frame to arrive when the cut is ahead of the frames."""
        new = sorted(self._cuts.popleft() for _ in range(len(self._cuts)))
        if not new:
            return
        self._known_cuts = sorted(self._known_cuts + new)
        starts = set(new)  # the scenes the cuts open, and the ones they close
        for cut in new:
            i = bisect.bisect_left(self._known_cuts, cut - EPS)
            starts.add(self._known_cuts[i - 1] if i > 0 else -math.inf)
        for start in sorted(starts):
            end = self._scene_end(start)
            if self._has_pick_in(start, end):
                continue
            inside = next((rf for rf in self._recent if start - EPS <= rf[0] < end - EPS), None)
            if inside is not None:
                self._due = sorted([*self._due, start])
                self._pick(*inside)
            elif not self._recent or self._recent[-1][0] < start - EPS:
                self._due = sorted([*self._due, start])
            # else the scene's frames went by more than LOOKBACK_S before its cut was reported

    def _scene_end(self, cut: float) -> float:
        """The next reported cut after `cut` (the end of its scene as far as is known)."""
        i = bisect.bisect_right(self._known_cuts, cut + EPS)
        return self._known_cuts[i] if i < len(self._known_cuts) else math.inf

    def _has_pick_in(self, start: float, end: float) -> bool:
        i = bisect.bisect_left(self._picked, start - EPS)
        return i < len(self._picked) and self._picked[i] < end - EPS

    def _pick(self, t: float, frame_bgr: np.ndarray) -> None:
        answered = [c for c in self._due if c <= t + EPS]
        if answered:
            self._due = self._due[len(answered) :]
            self._n_cut_picks += 1
        bisect.insort(self._picked, t)
        self._last_pick = max(self._last_pick, t)
        self._pending.append((t, frame_bgr))
        if len(self._pending) >= self._flush_size():
            self._flush()
            self._adapt()

    def _flush_size(self) -> int:
        """Pending frames that trigger embedding: a small first batch (to learn the cost early),
        then batch_size; many batches while the model is still loading."""
        if not self._ready.is_set():
            return self.cfg.batch_size * BACKLOG_BATCHES
        return self.cfg.batch_size if self._times else min(4, self.cfg.batch_size)

    def _flush(self) -> None:
        """Embed the pending frames in batches (waiting for the model if it is still loading)."""
        if not self._pending:
            return
        if not self._ready.is_set():
            start = self._clock()
            self._ready.wait()
            self._load_wait_s += self._clock() - start
        if self._off:
            self._pending = []
            return
        start = self._clock()
        size = self.cfg.batch_size
        for i in range(0, len(self._pending), size):
            part = self._pending[i : i + size]
            batch = np.stack([self._clip.prepare(f) for _, f in part])
            self._vectors.append(self._clip.encode_prepared(batch))
            self._times.extend(t for t, _ in part)
        self._pending = []
        self._embed_s += self._clock() - start

    def _adapt(self) -> None:
        """Keep embedding within time_budget x the rest of the pass: the interval at which the
        measured cost per frame fits the budget, or the widest one while over budget so far."""
        budget = self.cfg.time_budget
        video_s = self._last_t - self._t0
        other_s = self._clock() - self._wall0 - self._embed_s - self._load_wait_s
        if not budget or video_s <= 0 or other_s <= 0 or not self._times:
            return
        cap = MAX_INTERVAL_FACTOR * self.cfg.interval_s
        if self._embed_s > budget * other_s:
            self._interval = cap
            return
        per_frame = self._embed_s / len(self._times)
        need = per_frame * video_s / (budget * other_s)
        self._interval = min(max(self.cfg.interval_s, need), cap)

    def finish(self) -> FrameIndex:
        """Embed what is pending and return the index (disabled, with the reason, if off)."""
        with self._lock:
            self._finished = True
            if not self._off:
                self._apply_cuts()
                self._flush()
            self._recent.clear()
            self._ready.wait()
            if self._off or self._clip is None:
                return FrameIndex.disabled(self.cfg, self.reason, self._info())
            self._clip.threads = self.cfg.threads  # searches may use every core again
            dim = self._clip.dim
            vectors = np.concatenate(self._vectors) if self._vectors else np.zeros((0, dim))
            return FrameIndex.from_vectors(self._times, vectors, self._clip, self.cfg, self._info())

    def _info(self) -> dict[str, Any]:
        n = len(self._times)
        span = self._times[-1] - self._times[0] if n > 1 else 0.0
        return {
            "interval_s": self.cfg.interval_s,
            "final_interval_s": round(self._interval, 3),
            "time_budget": self.cfg.time_budget,
            "precision": self._clip.precision if self._clip else None,
            "frames": n,
            "scene_picks": self._n_cut_picks,
            "mean_spacing_s": round(span / (n - 1), 3) if n > 1 else None,
            "embed_s": round(self._embed_s, 3),
            "load_wait_s": round(self._load_wait_s, 3),
        }
