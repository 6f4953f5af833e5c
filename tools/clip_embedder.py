"""CLIP frame sampling in the index pass: frames per interval and per scene, embedded in batches."""

from __future__ import annotations

import bisect
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from tools.clip_config import ClipConfig, ClipError
from tools.clip_encoder import ClipModel, auto_threads
from tools.clip_index import EPS, FrameIndex
from tools.clip_model import load_clip
from tools.clip_weights import clip_status

LOOKBACK_S = 5.0  # frames kept so a late-reported scene cut can still pick a frame of its scene
BACKLOG_BATCHES = 8  # picked frames held (not embedded) while the model loads, in batches
MAX_INTERVAL_FACTOR = 8.0  # the time budget never widens the interval beyond this factor


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
        self._cut_log: list[float] = []  # cuts applied since the last seal()
        self._sealed = 0  # batches of _vectors handed out by seal() or restored
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
        self._cut_log.extend(new)
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

    def seal(self) -> dict[str, np.ndarray]:
        """Embed what is picked; return embeddings and cuts since the last seal, and the state."""
        # 'c.on' is 0 when retrieval is off: the chunk then holds nothing a resume can use
        with self._lock:
            if not self._off:
                self._apply_cuts()
                self._flush()
            batches = self._vectors[self._sealed :]
            self._sealed = len(self._vectors)
            times = self._times[len(self._times) - sum(len(b) for b in batches) :]
            cuts, self._cut_log = self._cut_log, []
            state = [self._last_pick, self._interval, float(self._n_cut_picks)]
            return {
                "c.on": np.array([0 if self._off else 1], np.int8),
                "c.t": np.asarray(times, np.float64),
                "c.v": np.concatenate(batches).astype(np.float32) if batches else np.zeros((0, 0)),
                "c.cuts": np.asarray(cuts, np.float64),
                "c.due": np.asarray(self._due, np.float64),
                "c.state": np.asarray(state, np.float64),
            }

    def restore(self, sealed: list[dict[str, np.ndarray]]) -> None:
        """Go on from the last of `sealed` (seal() results, in order); [] starts afresh."""
        with self._lock:
            self._cuts.clear()
            self._recent.clear()
            self._pending, self._cut_log = [], []
            self._last_t, self._finished = -math.inf, False
            self._times = [float(t) for s in sealed for t in s["c.t"]]
            vectors = [s["c.v"] for s in sealed if len(s["c.v"])]
            self._vectors = [np.concatenate(vectors)] if vectors else []
            self._sealed = len(self._vectors)
            self._picked = sorted(self._times)
            self._known_cuts = sorted(float(c) for s in sealed for c in s["c.cuts"])
            last = sealed[-1] if sealed else None
            self._due = [float(c) for c in last["c.due"]] if last else []
            pick, interval, n_cut = last["c.state"].tolist() if last else (
                -math.inf, self.cfg.interval_s, 0.0)
            self._last_pick, self._interval, self._n_cut_picks = pick, interval, int(n_cut)

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
