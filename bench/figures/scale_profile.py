"""Where the time of one index build goes: start-up imports, probing, decoding, colour
conversion and scaling, per-frame signals, shot scores, spatial signals, scenes and events,
writing. CPU seconds per part (the measure that adds up on a busy 2-core machine), measured
by wrapping the pass's own functions in one in-process build, and wall time overall."""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.ffmpeg import ffmpeg_exe


def _cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


class _Clock:
    """Thread CPU time (and wall) spent inside wrapped functions, summed per label."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.wall: dict[str, float] = defaultdict(float)
        self.lock = threading.Lock()

    def wrap(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*a: Any, **k: Any) -> Any:
            c0, w0 = time.thread_time(), time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                with self.lock:
                    self.cpu[label] += time.thread_time() - c0
                    self.wall[label] += time.perf_counter() - w0
        return timed


class _Cv2:
    """tools.onepass's cv2, with its conversions and resizes timed."""

    def __init__(self, clock: _Clock) -> None:
        import cv2

        self._cv2 = cv2
        self.cvtColor = clock.wrap("colour conversion + resize (python)", cv2.cvtColor)
        self.resize = clock.wrap("colour conversion + resize (python)", cv2.resize)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cv2, name)


def startup_s(rounds: int = 3) -> float:
    """Wall time of importing the CLI and the index builder in a fresh interpreter, less an
    empty interpreter's start."""
    def run(code: str) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - t0

    full = statistics.median(run("import agent.cli, tools.index") for _ in range(rounds))
    bare = statistics.median(run("pass") for _ in range(rounds))
    return full - bare


# The measurements spatial_signals calls (through tools.signals' globals): timed one by one
# inside the spatial part, to show which of them the native-size samples pay for.
SPATIAL_PARTS = ("sharpness", "noise_sigma", "impulse_fraction", "blockiness", "halo",
                 "detail_ratio", "anisotropy", "combing", "macroblocking")


def profile_build(video: Path) -> dict[str, Any]:
    """One instrumented build of `video` (no cache, no CLIP); CPU and wall seconds per part."""
    import tools.index as ix
    import tools.onepass as op
    import tools.signals as sig
    from tools.scenes import ShotDetector

    clock, inner = _Clock(), _Clock()
    saved_sig = {n: getattr(sig, n) for n in SPATIAL_PARTS}
    for n in SPATIAL_PARTS:
        setattr(sig, n, inner.wrap(n, getattr(sig, n)))
    saved = {n: getattr(op, n) for n in ("temporal_signals", "spatial_signals",
                                         "colour_signals", "cv2")}
    saved_ix = {n: getattr(ix, n) for n in ("probe_video", "presentation_times", "derive")}
    feed = ShotDetector.feed
    op.temporal_signals = clock.wrap("per-frame signals", op.temporal_signals)
    op.spatial_signals = clock.wrap("spatial signals (reader thread)", op.spatial_signals)
    op.colour_signals = clock.wrap("colour signals", op.colour_signals)
    op.cv2 = _Cv2(clock)
    ShotDetector.feed = clock.wrap("shot scores", feed)
    ix.probe_video = clock.wrap("probe + frame times", ix.probe_video)
    ix.presentation_times = clock.wrap("probe + frame times", ix.presentation_times)
    ix.derive = clock.wrap("scenes + events", ix.derive)
    try:
        kids0, self0, t0 = _cpu(resource.RUSAGE_CHILDREN), _cpu(resource.RUSAGE_SELF), \
            time.perf_counter()
        index = ix.measure(video, progress=False, clip=False)
        wall = time.perf_counter() - t0
        kids = _cpu(resource.RUSAGE_CHILDREN) - kids0
        py = _cpu(resource.RUSAGE_SELF) - self0
        with tempfile.TemporaryDirectory() as tmp:
            clock.wrap("writing", ix.save)(index, Path(tmp) / "ix")
    finally:
        for n, f in saved.items():
            setattr(op, n, f)
        for n, f in saved_ix.items():
            setattr(ix, n, f)
        for n, f in saved_sig.items():
            setattr(sig, n, f)
        ShotDetector.feed = feed
    c0 = _cpu(resource.RUSAGE_CHILDREN)
    subprocess.run([ffmpeg_exe(), "-v", "error", "-threads", "2", "-i", str(video), "-f", "null",
                    "-"], check=True)
    bare = _cpu(resource.RUSAGE_CHILDREN) - c0
    parts = {"decode (ffmpeg, bare)": bare,
             "colour conversion + scaling (ffmpeg, over bare decode)": kids - bare,
             **clock.cpu}
    named = sum(v for k, v in clock.cpu.items() if k != "writing")
    parts["other python (pipes, threads, assembly)"] = max(0.0, py - named)
    res_wall = {k: round(v, 2) for k, v in clock.wall.items()}
    res = {"video": str(video), "frames": int(len(index.frames["t"])),
           "measure_wall_s": round(wall, 2), "startup_imports_s": round(startup_s(), 2),
           "cpu_s": {k: round(v, 2) for k, v in parts.items()},
           "cpu_total_s": round(kids + py, 2), "wall_s": res_wall,
           "spatial_cpu_s": {k: round(v, 3) for k, v in inner.cpu.items()}}
    width = max(len(k) for k in parts)
    print(f"where the time goes: {video.name}, {res['frames']} frames, build {wall:.2f} s wall, "
          f"{res['cpu_total_s']} CPU-s; start-up imports {res['startup_imports_s']} s")
    for k, v in sorted(parts.items(), key=lambda kv: -kv[1]):
        print(f"  {k:<{width}}  {v:6.2f} CPU-s")
    n_hi = max(1, len(index.samples.get("t", [])))
    print(f"  of the spatial signals, per native-size sample ({n_hi} samples):")
    for k, v in sorted(inner.cpu.items(), key=lambda kv: -kv[1]):
        print(f"    {k:<{width - 2}}  {1000 * v / n_hi:6.2f} CPU-ms")
    return res
