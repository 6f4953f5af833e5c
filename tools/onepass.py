"""The measuring pass of an index build: one decode, every frame measured, in resumable chunks.

Each frame is measured small (temporal signals, shot score), every k-th at native size
(spatial signals, on the decoder's reader thread). Rows are cut into chunks of whole frames;
with a PartialStore each finished chunk is written to disk as soon as its spatial samples are
in, so a killed build resumes after its last finished chunk: the decoder seeks two frames
before it, and those two frames must equal the ones the chunk kept (else the stored chunks
are not trusted and the pass starts again from frame 0). Shot cuts are replayed from the
stored scores at the end, so a resumed pass gives the tables and cuts of an uninterrupted one.
With CLIP on, the CLIP frames and cuts reach the frame picker in frame order (ClipFeed), and
each chunk also carries the embeddings of its picked frames and the picker's state, so a
resumed pass seeks all the same and ends with an uninterrupted pass's embeddings.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from tools.chunks import PartialStore
from tools.clip_resume import ClipFeed, has_clip
from tools.cutreplay import frame_score, replay_cuts, resume_detector
from tools.model import VideoInfo
from tools.scenes import ShotDetector
from tools.signals import (
    FRAME_SIGNALS,
    SAMPLE_SIGNALS,
    colour_signals,
    spatial_signals,
    temporal_signals,
)
from tools.stream import StreamPlan, decode

OVERLAP = 2  # frames decoded again before a resume point, compared with the stored ones


class Misaligned(Exception):
    """The frames before a resume point are not the ones the stored chunks kept."""


@dataclass
class PassResult:
    """What one pass measured: per-frame columns, spatial rows, cuts, decoder errors."""

    frames: dict[str, np.ndarray]
    samples: dict[str, np.ndarray]  # 'frame' plus SAMPLE_SIGNALS (no 't' yet)
    raw_cuts: list[int]
    damage: list[int]
    n_done: int
    resumed_from: int = 0
    decoded: int = 0  # frames the decoder delivered in this run
    chunks_written: int = 0
    clip_stored: int = 0  # CLIP embeddings taken from stored chunks
    notes: list[str] = field(default_factory=list)


def _half(bgr: np.ndarray) -> np.ndarray:
    """The shot detector's picture: the small frame at half size."""
    h, w = bgr.shape[:2]
    return cv2.resize(bgr, (w // 2, h // 2), interpolation=cv2.INTER_AREA)


class _Rows:
    """Rows measured since the last finished chunk, and the finished ones."""

    def __init__(self, start: int) -> None:
        self.flushed = start  # first frame not yet in a finished chunk
        self.done: list[dict[str, np.ndarray]] = []
        self.cols: dict[str, list[np.ndarray]] = {k: [] for k in (*FRAME_SIGNALS, "score")}
        self.spatial: dict[int, dict[str, float]] = {}
        self.colours: dict[int, dict[str, float]] = {}
        self.tails: dict[int, np.ndarray] = {}
        self.damage_ptr = 0
        self.lock = threading.Lock()

    def take(self, upto: int, damage: list[int]) -> dict[str, np.ndarray]:
        """Cut frames [flushed, upto) into a chunk's arrays (frames, samples, errors, tail)."""
        m = upto - self.flushed
        out: dict[str, np.ndarray] = {}
        for k, parts in self.cols.items():
            a = np.concatenate(parts) if parts else np.zeros(0, np.float32)
            out[f"f.{k}"] = a[:m]
            self.cols[k] = [a[m:]]
        with self.lock:
            idx = sorted(i for i in self.spatial if self.flushed <= i < upto)
            rows = [{**self.spatial.pop(i), **self.colours.pop(i, {})} for i in idx]
        out["s.frame"] = np.asarray(idx, dtype=np.int64)
        for k in SAMPLE_SIGNALS:
            out[f"s.{k}"] = np.array([r.get(k, np.nan) for r in rows], dtype=np.float32)
        errs = []
        while self.damage_ptr < len(damage) and damage[self.damage_ptr] < upto:
            errs.append(damage[self.damage_ptr])
            self.damage_ptr += 1
        out["errors"] = np.asarray(errs, dtype=np.int64)
        tail = [self.tails.pop(i) for i in range(upto - OVERLAP, upto) if i in self.tails]
        out["tail"] = np.stack(tail) if len(tail) == OVERLAP else np.zeros((0, 1, 1, 3), np.uint8)
        for i in [i for i in self.tails if i < upto]:
            del self.tails[i]
        self.flushed = upto
        self.done.append(out)
        return out

    def spatial_ready(self, upto: int, hi_every: int) -> bool:
        """Whether every native-size sample before `upto` has been measured."""
        first = self.flushed + (-self.flushed) % hi_every
        with self.lock:
            return all(i in self.spatial for i in range(first, upto, hi_every))


def run_pass(
    info: VideoInfo,
    times: np.ndarray,
    plan: StreamPlan,
    update: Callable[[int], Any],
    embedder: Any = None,
    store: PartialStore | None = None,
    per_chunk: int = 1500,
) -> PassResult:
    """Measure every frame once, resuming after the chunks `store` holds when they check out."""
    stored = store.chunks() if store is not None else []
    try:
        _check_clip(stored, embedder)
        return _pass(info, times, plan, update, embedder, store, per_chunk, stored)
    except Misaligned as exc:
        assert store is not None
        store.clear()
        store = PartialStore(store.directory, store.key)
        if embedder is not None:
            embedder.restore([])
        res = _pass(info, times, plan, update, embedder, store, per_chunk, [])
        res.notes.append(f"stored chunks not used: {exc}")
        return res


def _check_clip(stored: list[dict[str, np.ndarray]], embedder: Any) -> None:
    """Misaligned when CLIP is on but a stored chunk holds no embeddings (its model failed)."""
    if embedder is None or all(has_clip(c) for c in stored):
        return
    embedder.wait_ready()
    if embedder.enabled:
        raise Misaligned("they hold no CLIP embeddings")


def _pass(
    info: VideoInfo,
    times: np.ndarray,
    plan: StreamPlan,
    update: Callable[[int], Any],
    embedder: Any,
    store: PartialStore | None,
    per_chunk: int,
    stored: list[dict[str, np.ndarray]],
) -> PassResult:
    k0 = len(stored) * per_chunk  # resume point: first frame not in a stored chunk
    tail = stored[-1]["tail"] if stored else None
    if tail is not None and len(tail) != OVERLAP:
        raise Misaligned("the last stored chunk kept no frames to check against")
    rows = _Rows(k0)
    shots, prev, start, seek_s = ShotDetector(info.fps), None, 0, None
    if k0:
        update(k0)
        shots, prev, start, seek_s = _resume_at(info, times, stored, k0)
    feed = None
    if embedder is not None:
        embedder.restore([c for c in stored if has_clip(c)])  # embeddings, picking state
        feed = ClipFeed(embedder, times, plan.mid_every, per_chunk, k0, keep=store is not None,
                        delay=ShotDetector.WINDOW)

    def on_hi(idx: int, gray: np.ndarray) -> None:
        if idx < k0:
            return
        vals = spatial_signals(gray)
        with rows.lock:
            rows.spatial[idx] = vals

    damage: list[int] = []
    n_done = k0
    decoded = written = checked = 0
    frames_gen = decode(info, plan, on_hi, feed.frame if feed else None, decode_errors=damage,
                        start=start, seek_s=seek_s, on_end=feed.end_main if feed else None)
    try:
        for first, chunk in frames_gen:
            decoded += len(chunk)
            if first < k0:  # frames before the resume point: check the last two, measure none
                checked += _check_overlap(first, chunk, k0, tail)
                chunk = chunk[max(0, k0 - first):]
                first = max(first, k0)
                if len(chunk) == 0:
                    continue
            if k0 and checked < OVERLAP:
                raise Misaligned("the decoder did not deliver the frames before the resume point")
            prev = _measure_chunk(first, chunk, prev, rows, shots, plan, per_chunk, feed)
            n_done = first + len(chunk)
            if feed is not None:
                feed.progress(n_done - 1)
            written += _write_ready(store, len(stored), rows, n_done, per_chunk, plan, feed,
                                    damage)
            update(len(chunk))
        if feed is not None:
            feed.close()
    finally:
        frames_gen.close()
        if feed is not None:
            feed.abort()
    if k0 and checked < OVERLAP:
        raise Misaligned("the decoder did not deliver the frames before the resume point")
    # whole chunks that were not complete at the last block (their CLIP seal waited for the
    # model, or their last spatial sample for its thread) are on disk too
    written += _write_ready(store, len(stored), rows, n_done, per_chunk, plan, feed, damage)
    rows.take(n_done, damage)  # the rest, kept in memory only
    parts = [*stored, *rows.done]
    frames = {k: np.concatenate([p[f"f.{k}"] for p in parts]).astype(np.float32)
              for k in FRAME_SIGNALS}
    scores_all = np.concatenate([p["f.score"] for p in parts])
    samples = {k: np.concatenate([p[f"s.{k}"] for p in parts]).astype(np.float32)
               for k in SAMPLE_SIGNALS}
    samples["frame"] = np.concatenate([p["s.frame"] for p in parts]).astype(np.int64)
    errors = np.concatenate([p["errors"] for p in parts]).astype(np.int64).tolist()
    errors += damage[rows.damage_ptr:]
    return PassResult(
        # An uninterrupted pass's live detector saw every frame: its cuts are the replay's.
        frames=frames, samples=samples,
        raw_cuts=replay_cuts(info.fps, scores_all) if k0 else sorted(set(shots.cuts)),
        damage=errors, n_done=n_done, resumed_from=k0, decoded=decoded, chunks_written=written,
        clip_stored=sum(len(c.get("c.t", ())) for c in stored) if embedder is not None else 0,
    )


def _write_ready(store: PartialStore | None, n_stored: int, rows: _Rows, n_done: int,
                 per_chunk: int, plan: StreamPlan, feed: ClipFeed | None,
                 damage: list[int]) -> int:
    """Write every complete chunk not yet written; how many were written."""
    written = 0
    while store is not None and _chunk_ready(rows, n_done, per_chunk, plan, feed):
        i, upto = n_stored + len(rows.done), rows.flushed + per_chunk
        clip = feed.take(upto) if feed is not None else {}
        store.write(i, {**rows.take(upto, damage), **clip})
        written += 1
    return written


def _chunk_ready(rows: _Rows, n_done: int, per_chunk: int, plan: StreamPlan,
                 feed: ClipFeed | None) -> bool:
    """Whether the next chunk is complete: its frames, spatial samples and CLIP seal."""
    upto = rows.flushed + per_chunk
    return (n_done >= upto and rows.spatial_ready(upto, plan.hi_every)
            and (feed is None or feed.sealed(upto)))


def _resume_at(
    info: VideoInfo, times: np.ndarray, stored: list[dict[str, np.ndarray]], k0: int
) -> tuple[ShotDetector, np.ndarray, int, float | None]:
    """Shot detector, previous grey frame, first frame and seek time of a pass resumed at k0."""
    tail = stored[-1]["tail"]
    # the detector as it was after frame k0 - 1: the cuts it reports from here on (which the
    # CLIP frames follow) are an uninterrupted pass's
    scores = np.concatenate([c["f.score"] for c in stored])
    shots = resume_detector(info.fps, scores, _half(tail[-1]))
    prev = cv2.cvtColor(tail[-1], cv2.COLOR_BGR2GRAY)
    if np.array_equal(tail[0], tail[1]):
        # two equal frames cannot show where a seek landed: decode from the start, measure
        # (and embed) nothing before the resume point
        return shots, prev, 0, None
    start = k0 - OVERLAP
    return shots, prev, start, float(times[min(start, len(times) - 1)]) - 0.5 / info.fps


def _check_overlap(first: int, chunk: np.ndarray, k0: int, tail: np.ndarray) -> int:
    """How many of the frames before the resume point `k0` this decoded run holds, each equal
    to the one the stored chunk kept; Misaligned at the first that differs."""
    hits = 0
    for g in range(max(first, k0 - OVERLAP), min(first + len(chunk), k0)):
        if not np.array_equal(chunk[g - first], tail[g - (k0 - OVERLAP)]):
            raise Misaligned(f"frame {g} differs from the stored one")
        hits += 1
    return hits


def _measure_chunk(
    first: int,
    chunk: np.ndarray,
    prev: np.ndarray | None,
    rows: _Rows,
    shots: ShotDetector,
    plan: StreamPlan,
    per_chunk: int,
    feed: ClipFeed | None,
) -> np.ndarray:
    """Temporal signals, shot scores and colour of consecutive small frames from `first` on;
    returns the last grey frame (the next chunk's predecessor)."""
    n = len(chunk)
    h, w = chunk.shape[1:3]
    gray = cv2.cvtColor(chunk.reshape(n * h, w, 3), cv2.COLOR_BGR2GRAY).reshape(n, h, w)
    for k, v in temporal_signals(gray, prev).items():
        rows.cols[k].append(v)
    small = cv2.resize(
        chunk.reshape(n * h, w, 3), (w // 2, n * h // 2), interpolation=cv2.INTER_AREA
    ).reshape(n, h // 2, w // 2, 3)
    scores = np.empty(n, np.float64)
    for i in range(n):
        idx = first + i
        cut = shots.feed(idx, small[i])
        scores[i] = frame_score(shots)
        if cut and feed is not None:
            feed.cut(cut[-1])
        if idx % plan.hi_every == 0:
            vals = colour_signals(chunk[i])
            with rows.lock:
                rows.colours[idx] = vals
        if idx % per_chunk >= per_chunk - OVERLAP:
            rows.tails[idx] = chunk[i].copy()
    rows.cols["score"].append(scores)
    return gray[-1]
