"""What running decord in a worker process costs, against decord in the process (as before).

Three figures, each the median of --repeats runs, both ways back to back:
- start-up: the facts and the frame times of a (long) video. Before, decord opened the file
  twice (probe, then frame times), each open reading every packet; now once, in the worker;
- small fetches: --fetches single-frame `frames_at` calls on one clip (zoom, report frames,
  the uniform track fetch this way): before, a reader opened per call; now a pipe round trip
  to the worker, which keeps the reader;
- zoom: one `zoom` window (a native probe frame, the dense small pass, 6 native picks).

    python -m bench.reliability.decord_cost --long /work/scale/v2h-1080p.mp4 \
        --clip /work/corpus/cockatoo.mp4
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np


def _inprocess_open(path: Path, width: int = -1, height: int = -1, threads: int = 2):
    import decord

    return decord.VideoReader(str(path), width=width, height=height, num_threads=threads)


def _inprocess_times(reader) -> np.ndarray:
    ts = np.asarray(reader.get_frame_timestamp(np.arange(len(reader))), dtype=np.float64)
    return ts[:, 0]


def before_startup(path: Path) -> None:
    """As before: probe_video's open (frame times, frame 0), then presentation_times' open."""
    reader = _inprocess_open(path, threads=1)
    _inprocess_times(reader)
    reader[0].asnumpy()
    _inprocess_times(_inprocess_open(path, threads=1))


def after_startup(path: Path) -> None:
    from tools import video

    info = video.probe_video(path)
    video.presentation_times(info.path, info)


def before_fetches(path: Path, times: np.ndarray) -> None:
    for t in times:
        reader = _inprocess_open(path)
        stamps = _inprocess_times(reader)
        i = int(np.clip(np.searchsorted(stamps, t, side="right") - 1, 0, len(reader) - 1))
        reader.get_batch([i]).asnumpy()


def after_fetches(path: Path, times: np.ndarray) -> None:
    from tools.video import frames_at

    for t in times:
        frames_at(path, [float(t)])


def _fresh_worker() -> None:
    """Stop the worker, so each 'after' run pays its start-up as a new process would."""
    from tools import decord_worker, video

    decord_worker._close_worker()
    video._PROBED.clear()


def _median(fn: Callable[[], None], repeats: int, fresh: bool) -> float:
    runs = []
    for _ in range(repeats):
        if fresh:
            _fresh_worker()
        began = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - began)
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> None:
    """Print the before/after table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--long", type=Path, required=True, help="a long video (start-up figure)")
    ap.add_argument("--clip", type=Path, required=True, help="a short clip (fetches, zoom)")
    ap.add_argument("--fetches", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    from tools.video import probe_video
    from tools.zoom import zoom

    clip = probe_video(args.clip)
    times = np.linspace(0, clip.duration_s * 0.95, args.fetches)
    rows = [
        ("start-up: facts + frame times", args.long.name,
         _median(lambda: before_startup(args.long), args.repeats, False),
         _median(lambda: after_startup(args.long), args.repeats, True)),
        (f"{args.fetches} single-frame fetches", args.clip.name,
         _median(lambda: before_fetches(args.clip, times), args.repeats, False),
         _median(lambda: after_fetches(args.clip, times), args.repeats, True)),
    ]
    _fresh_worker()
    mid = clip.duration_s / 2
    after_zoom = _median(lambda: zoom(args.clip, mid - 2, mid + 2, fps=clip.fps), args.repeats,
                         True)
    rows.append(("zoom, 4-s window (worker started)", args.clip.name, float("nan"), after_zoom))
    print(f"{'figure':38} {'video':22} {'before s':>9} {'after s':>8}")
    for name, video, before, after in rows:
        was = "-" if before != before else f"{before:.2f}"
        print(f"{name:38} {video:22} {was:>9} {after:8.2f}")


if __name__ == "__main__":
    main()
