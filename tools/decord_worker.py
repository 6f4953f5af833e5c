"""Decord behind a deadline: every decord call runs in one worker process per caller
(tools/decord_child.py), which is killed when a call outlives a limit proportional to the
video, so a file that hangs decord ends in one line naming the file and the stage.

The worker is started on first use (about 0.3 s) and kept: later calls cost a pipe round trip,
and the readers it keeps open spare a second scan of a video's frame index (the probe and the
frame times share one). A worker that dies (decord crashing on a damaged file) is a decord
failure like any other: the caller falls back to ffmpeg or names the damage.
"""

from __future__ import annotations

import atexit
import os
import pickle
import select
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tools.errors import VideoError

OPEN_BASE_S = 60.0  # opening scans every packet: a minute, plus a second per 20 MB (disk speed)
OPEN_MB_PER_S = 20.0
BATCH_BASE_S = 30.0  # a batch: half a minute, plus two seconds per second of video decoded
BATCH_PER_S = 2.0
MAX_GOP_S = 10.0  # the most a seek may decode before a wanted frame (x264's default GOP)
START_S = 60.0  # the worker's start (python, numpy, decord: ~0.3 s at rest)
# The worker is replaced (its readers open again on demand) once it holds this much memory, a
# guard kept since a run was seen at 10.9 GB after some 30 videos: that was decord decoding on
# in the background after each read (now stopped, tools/decord_child.py `_park`), but a
# decord build that leaks would grow a library run without bound too.
WORKER_RSS_MB = 1024.0
_HEAD = struct.Struct("<Q")
_ROOT = str(Path(__file__).resolve().parent.parent)


class DecordFailed(RuntimeError):
    """Decord refused the file or its worker died: the caller may try ffmpeg instead."""


class DecordStalled(VideoError):
    """A decord call outlived its limit; the worker was killed (exit 3, as a damaged input)."""


def open_deadline_s(path: Path) -> float:
    """The limit for opening `path` (decord reads every packet to build its frame index)."""
    try:
        size_mb = path.stat().st_size / 1e6
    except OSError:
        size_mb = 0.0
    return OPEN_BASE_S + size_mb / OPEN_MB_PER_S


def batch_deadline_s(stamps: np.ndarray, idx: Sequence[int]) -> float:
    """The limit for decoding frames `idx`: the video decoded to reach them, at most a GOP
    before each, at half real time."""
    if len(idx) == 0 or len(stamps) == 0:
        return BATCH_BASE_S
    t = np.unique(stamps[np.clip(np.asarray(idx, dtype=np.int64), 0, len(stamps) - 1)])
    gaps = np.diff(t, prepend=t[0] - MAX_GOP_S)
    decoded_s = float(np.minimum(np.nan_to_num(gaps, nan=MAX_GOP_S), MAX_GOP_S).sum())
    return BATCH_BASE_S + BATCH_PER_S * decoded_s


class _Worker:
    """One decord child process and the pipe to it; one request at a time."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_ROOT, env.get("PYTHONPATH")) if p)
        # -P: the working directory is not put on sys.path (a `tools` folder there would be
        # imported instead of this one).
        self.proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "tools.decord_child"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.owner = os.getpid()
        try:
            end = time.monotonic() + START_S
            ready = pickle.loads(self._read(_HEAD.unpack(self._read(_HEAD.size, end))[0], end))
        except (TimeoutError, EOFError, pickle.UnpicklingError):
            ready = None
        if ready != ("ready", None):
            self.close(kill=True)
            raise OSError("the decord worker did not start")

    def call(self, request: tuple, deadline_s: float) -> tuple[str, object]:
        """Send one request; its answer, or TimeoutError after `deadline_s`, or EOFError."""
        data = pickle.dumps((*request, deadline_s), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            self.proc.stdin.write(_HEAD.pack(len(data)) + data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EOFError from None
        end = time.monotonic() + deadline_s
        head = self._read(_HEAD.size, end)
        return pickle.loads(self._read(_HEAD.unpack(head)[0], end))

    def _read(self, n: int, end: float) -> bytes:
        fd = self.proc.stdout.fileno()
        parts, got = [], 0
        while got < n:
            left = end - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(fd, min(n - got, 1 << 22))
            if not chunk:
                raise EOFError
            parts.append(chunk)
            got += len(chunk)
        return b"".join(parts)

    def rss_mb(self) -> float:
        """The child's resident memory (MB; 0 where /proc does not tell)."""
        try:
            pages = int(Path(f"/proc/{self.proc.pid}/statm").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            return 0.0
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6

    def close(self, kill: bool = False) -> None:
        """Stop the child: at once when `kill`, else by closing its input."""
        try:
            if not kill:
                self.proc.stdin.close()
                self.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass


class _InProcess:
    """Decord in this process, without deadlines (as before the worker), for when no worker
    can be started: the interpreter cannot be run again by its path (as user nobody, a Python
    under /root)."""

    def __init__(self) -> None:
        from tools.decord_child import _Readers

        self.readers = _Readers()
        self.owner = os.getpid()

    def call(self, request: tuple, deadline_s: float) -> tuple[str, object]:
        from tools.decord_child import _handle

        try:
            return "ok", _handle(self.readers, *request)
        except Exception as exc:  # noqa: BLE001 - decord raises bare RuntimeError/DECORDError
            return "error", f"{type(exc).__name__}: {exc}"

    def close(self, kill: bool = False) -> None:
        self.readers.open.clear()


_LOCK = threading.Lock()
_WORKER: list[_Worker | _InProcess] = []


def _close_worker(kill: bool = False) -> None:
    while _WORKER:
        worker = _WORKER.pop()
        if worker.owner == os.getpid():
            worker.close(kill)


atexit.register(_close_worker)


def call(op: str, key: tuple, arg: object, deadline_s: float, stage: str) -> object:
    """Run one decord request in the worker; VideoError naming the file and stage when it
    outlives `deadline_s` (the worker is killed), DecordFailed when decord fails."""
    with _LOCK:
        if _WORKER and _WORKER[0].owner != os.getpid():
            _WORKER.clear()  # a forked child: the worker belongs to the parent
        if not _WORKER:
            try:
                _WORKER.append(_Worker())
            except OSError:  # no worker (cannot run python, or it cannot import decord there)
                _WORKER.append(_InProcess())
        worker = _WORKER[0]
        try:
            status, value = worker.call((op, key, arg), deadline_s)
        except TimeoutError:
            _close_worker(kill=True)
            raise DecordStalled(f"decord stalled {stage} {key[0]}: no answer in "
                                f"{deadline_s:.0f} s, stopped") from None
        except EOFError:
            code = worker.proc.poll()
            _close_worker(kill=True)
            raise DecordFailed(f"decord worker ended while {stage} (exit code {code})") from None
        except BaseException:  # Ctrl-C mid-answer: the pipe is out of step, start afresh
            _close_worker(kill=True)
            raise
        if isinstance(worker, _Worker) and worker.rss_mb() > WORKER_RSS_MB:
            _close_worker()  # the next call starts a fresh one (see WORKER_RSS_MB)
    if status != "ok":
        raise DecordFailed(str(value))
    return value


class DecordReader:
    """The part of decord.VideoReader this project uses (len, fps, frame times, frames as
    RGB), served by the worker with a deadline on every call."""

    def __init__(self, path: str | Path, width: int = -1, height: int = -1,
                 threads: int = 2) -> None:
        self.path = Path(path)
        st = self.path.stat()
        self.key = (str(self.path), st.st_size, st.st_mtime_ns, width, height, threads)
        facts = call("open", self.key, None, open_deadline_s(self.path),
                     "opening (reading its frame index)")
        self.n, self.fps, stamps = facts["n"], facts["fps"], facts["stamps"]
        self._stamps = stamps if isinstance(stamps, np.ndarray) else None
        self._stamps_error = None if self._stamps is not None else str(stamps)
        self._starts = _steady_starts(self._stamps, self.n, self.fps)

    def __len__(self) -> int:
        return self.n

    def get_avg_fps(self) -> float:
        return self.fps

    def get_frame_timestamp(self, idx: Sequence[int] | np.ndarray) -> np.ndarray:
        """(N, 2) start and end time of the frames `idx`, as decord gives them."""
        if self._stamps is None:
            raise DecordFailed(self._stamps_error or "no frame times")
        return self._stamps[np.asarray(idx, dtype=np.int64)]

    def __getitem__(self, i: int) -> np.ndarray:
        return self.get_batch([i]).asnumpy()[0]

    def get_batch(self, idx: Sequence[int]) -> _Frames:
        """Frames `idx` (RGB, N,H,W,3), stopped after a limit set by the video they span."""
        idx = [int(i) for i in idx]
        lo, hi = (self._starts[min(idx)], self._starts[max(idx)]) if idx else (0.0, 0.0)
        frames = call("batch", self.key, idx, batch_deadline_s(self._starts, idx),
                      f"reading frames at {lo:.2f}-{hi:.2f} s of")
        return _Frames(frames)


def _steady_starts(stamps: np.ndarray | None, n: int, fps: float) -> np.ndarray:
    """Frame start times to size deadlines by: decord's, or a constant rate where those are
    unusable (H.264 in AVI reads as -3.7e17 s)."""
    if stamps is not None and len(stamps) == n and n:
        start = stamps[:, 0] if stamps.ndim == 2 else stamps
        if np.isfinite(start).all() and np.all(np.diff(start) >= 0) and \
                abs(float(start[0])) < 86400 and float(start[-1] - start[0]) < 86400:
            return start
    return np.arange(n) / (fps if np.isfinite(fps) and fps > 0 else 25.0)


class _Frames:
    """A decoded batch with decord's `asnumpy()`."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def asnumpy(self) -> np.ndarray:
        return self.array
