"""CLIP frames in the index pass, in an order that does not depend on thread timing, sealed per
chunk so that a resumed build goes on embedding where the killed one stopped.

The CLIP frames come on a reader thread, the shot cuts from the main thread a fixed number of
frames after the cut (the detector judges a frame by the ones around it). A FrameEmbedder picks
frames from both, so the order in which it hears of them decides which frames it embeds.
ClipFeed puts every event at its frame and hands them to the embedder on its own thread in
frame order, once the detector has judged every frame up to it: a cut at frame c goes before
the CLIP frame c, and at every chunk boundary b (after everything before frame b, before
anything at or after it) the embedder is sealed: its picked frames are embedded and what a
resumed pass needs (embeddings, cuts, picking state) is kept for the chunk's file.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from typing import Any

import numpy as np

MAX_QUEUED = 64  # CLIP frames held for the embedder before the reader thread waits


def resume_key(cfg: Any, plan: Any) -> dict[str, Any]:
    """What a chunk's embeddings depend on: model, weights, sampling, precision, frame size."""
    from tools.clip_encoder import image_precision
    from tools.clip_weights import model_key, weights_identity

    return {
        "model": model_key(cfg.model), "weights": weights_identity(cfg),
        "interval_s": cfg.interval_s, "batch_size": cfg.batch_size,
        "time_budget": cfg.time_budget, "precision": image_precision(cfg.precision),
        "mid_size": list(plan.mid_size or ()), "mid_every": plan.mid_every,
    }


def has_clip(chunk: dict[str, np.ndarray]) -> bool:
    """Whether a stored chunk carries the embeddings of its CLIP frames."""
    return "c.on" in chunk and bool(chunk["c.on"][0])


class ClipFeed:
    """Hands CLIP frames, shot cuts and chunk seals to a FrameEmbedder in frame order."""

    def __init__(self, embedder: Any, times: np.ndarray, mid_every: int, per_chunk: int,
                 start: int = 0, keep: bool = True, delay: int = 2) -> None:
        """Feed `embedder` from frame `start` (a chunk boundary); cuts come `delay` frames late."""
        self.embedder, self.times, self.every = embedder, times, max(1, mid_every)
        self.delay = delay
        self.per_chunk, self.start = per_chunk, start
        self.keep = keep  # hold each seal's arrays until taken (for the chunk files)
        self._cond = threading.Condition()
        self._frames: deque[tuple[int, np.ndarray]] = deque()
        self._cuts: deque[int] = deque()
        self._fed = start - 1  # last frame the shot detector has seen
        self._next_mid = start + (-start) % self.every  # the next CLIP frame to arrive
        self._next_seal = start + per_chunk
        self._main_done = self._mid_done = self._aborted = False
        self._sealed: dict[int, dict[str, np.ndarray] | None] = {}
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="clip-feed", daemon=True)
        self._thread.start()

    # ---- producers ---------------------------------------------------------------------------

    def frame(self, idx: int, bgr: np.ndarray) -> None:
        """A CLIP frame from the reader thread (waits while MAX_QUEUED frames are queued)."""
        if idx < self.start:
            return  # before the resume point: its embedding is in a stored chunk
        with self._cond:
            self._cond.wait_for(lambda: len(self._frames) < MAX_QUEUED or self._aborted)
            self._frames.append((idx, bgr))
            self._next_mid = idx + self.every
            self._cond.notify_all()

    def cut(self, cut: int) -> None:
        """The shot detector reported a cut at frame `cut` (cuts come in frame order)."""
        if cut < self.start:
            return  # before the resume point: a stored chunk's picking state holds it
        with self._cond:
            self._cuts.append(cut)
            self._cond.notify_all()

    def progress(self, seen: int) -> None:
        """The shot detector has been fed every frame up to `seen`; raises the feeder's error."""
        with self._cond:
            self._fed = max(self._fed, seen)
            self._cond.notify_all()
        self.check()

    def end_main(self) -> None:
        """No frame is left for the shot detector: every cut has been reported."""
        with self._cond:
            self._main_done = True
            self._cond.notify_all()

    # ---- consumers ---------------------------------------------------------------------------

    def sealed(self, boundary: int) -> bool:
        """Whether the embedder has been sealed at frame `boundary`."""
        with self._cond:
            return boundary in self._sealed

    def take(self, boundary: int) -> dict[str, np.ndarray]:
        """The arrays sealed at `boundary` (for the chunk ending there), handed out once."""
        with self._cond:
            return self._sealed.pop(boundary, None) or {}

    def close(self) -> None:
        """Wait until every event has reached the embedder (the decoder has finished)."""
        with self._cond:
            self._main_done = self._mid_done = True
            self._cond.notify_all()
        self._thread.join()
        self.check()

    def abort(self) -> None:
        """Stop feeding (the pass failed or was interrupted) and release waiting threads."""
        with self._cond:
            self._aborted = True
            self._cond.notify_all()

    def check(self) -> None:
        """Raise the error the embedder raised on the feeder thread, if any."""
        if self._error is not None:
            raise self._error

    # ---- the feeder thread -------------------------------------------------------------------

    def _run(self) -> None:
        """The feeder thread: deliver events until the end; keep an error for the main one."""
        try:
            while (event := self._wait()) is not None:
                self._deliver(*event)
        except BaseException as exc:  # noqa: BLE001 - re-raised on the main thread
            self._error = exc

    def _wait(self) -> tuple[str, int, Any] | None:
        """The next event in frame order once nothing earlier can still come; None at the end."""
        with self._cond:
            while not self._aborted:
                kind = self._ready()
                if kind is not None:
                    return self._pop(kind)
                if self._main_done and self._mid_done and not self._frames and not self._cuts:
                    return None
                self._cond.wait()
            return None

    def _ready(self) -> str | None:
        """Which queued event comes next in frame order, if nothing earlier can still arrive."""
        if self._main_done and self._next_seal > self._fed + 1:
            self._next_seal = math.inf  # no chunk ends after the last frame
        heads = [((self._next_seal, -1), "seal")]
        if self._cuts:
            heads.append(((self._cuts[0], 0), "cut"))
        if self._frames:
            heads.append(((self._frames[0][0], 1), "mid"))
        key, kind = min(heads)
        # frames the detector has not judged yet may still turn out to be cuts
        cut_floor = math.inf if self._main_done else self._fed + 1 - self.delay
        mid_floor = math.inf if self._mid_done else self._next_mid  # later CLIP frames
        if key[0] == math.inf or key >= (cut_floor, 0) or key >= (mid_floor, 1):
            return None
        if kind == "seal" and key[0] > self._fed + 1:
            return None
        return kind

    def _pop(self, kind: str) -> tuple[str, int, Any]:
        """Take the next event of `kind` off its queue (under the lock)."""
        self._cond.notify_all()  # room for the reader thread
        if kind == "cut":
            cut = self._cuts.popleft()
            return kind, cut, None
        if kind == "mid":
            idx, frame = self._frames.popleft()
            return kind, idx, frame
        boundary = int(self._next_seal)
        self._next_seal += self.per_chunk
        return kind, boundary, None

    def _deliver(self, kind: str, idx: int, payload: Any) -> None:
        """One event to the embedder (on the feeder thread, outside the lock)."""
        t = float(self.times[min(idx, len(self.times) - 1)])
        if kind == "cut":
            self.embedder.scene_cut(t)
        elif kind == "mid":
            self.embedder.add(t, payload)
        else:
            arrays = self.embedder.seal()
            with self._cond:
                self._sealed[idx] = arrays if self.keep else None
                self._cond.notify_all()
