"""A check of the compression detector beyond the ffmpeg track's twelve windows: low-quality
re-encodes of a window (MPEG-2, MJPEG, H.264 at a high QP) spliced into other footage at
other times, and whole videos encoded at a low quality (the footage's own look: no window).

    python -m bench.figures.coded_windows --work DIR [--seed 7] [--concat] CLIP [CLIP ...]

Each clip is looped to 2 minutes (with --concat: the clips one after another, cycled to 2
minutes, so that a window covers whole shots of unlike footage); per base one video per
codec with one window, and one whole-video MPEG-2 encode at q 22. Prints, per video, the
best IoU of a compression event with the window and the compression events outside it (the
track's own rule: found at IoU >= 0.5).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from bench.figures.real_footage import IOU_FOUND, iou
from bench.generate.corpus import concatenated
from bench.generate.ffmpeg_track import Spec, Window, mezzanine, render
from tools.ffmpeg import ffmpeg_exe
from tools.index import get_index

LENGTH_S = 120.0
WINDOWS = (("mpeg2", 2), ("mjpeg", 2), ("x264-qp", 3))


def _compression(video: Path, work: Path) -> list[tuple[float, float]]:
    idx = get_index(video, cache_dir=work / "cache", progress=False, clip=False)
    return [(e.start_s, e.end_s) for e in idx.events if e.type == "compression"]


def run(clips: list[Path], work: Path, seed: int, concat: bool = False) -> list[dict]:
    """Make and index the videos; one row per video."""
    exe = ffmpeg_exe()
    rng = random.Random(seed)
    rows = []
    if concat:
        bases = [("concat", concatenated(clips, LENGTH_S, work / "base" / "concat.mp4"))]
    else:
        bases = [(c.stem, mezzanine(c, LENGTH_S, work / "base" / f"{c.stem}.mp4", exe))
                 for c in clips]
    for stem, base in bases:
        for dist, level in WINDOWS:
            length = rng.uniform(15.0, 30.0)
            start = round(rng.uniform(10.0, LENGTH_S - length - 10.0), 2)
            w = Window(dist, "compression", level, start, round(start + length, 2))
            name = f"{stem}-{dist}{level}"
            video = render(Spec(name, stem, LENGTH_S, (w,)), base, work / "videos", exe)
            events = _compression(video, work)
            best = max((iou((w.start_s, w.end_s), e) for e in events), default=0.0)
            false = [e for e in events if iou((w.start_s, w.end_s), e) == 0]
            rows.append({"video": name, "window": (w.start_s, w.end_s), "iou": best,
                         "false": false})
        whole = work / "videos" / f"{stem}-whole-mpeg2q22.mpg"
        if not whole.is_file():
            import subprocess

            subprocess.run([exe, "-v", "error", "-y", "-i", str(base), "-c:v", "mpeg2video",
                            "-q:v", "22", "-f", "mpeg", str(whole)], check=True)
        rows.append({"video": whole.stem, "window": None, "iou": None,
                     "false": _compression(whole, work)})
    return rows


def main(argv: list[str] | None = None) -> None:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("clips", nargs="+", type=Path)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--concat", action="store_true", help="one base: the clips in turn")
    args = ap.parse_args(argv)
    rows = run(args.clips, args.work, args.seed, args.concat)
    print("| video | window | IoU | found | compression events outside it |")
    print("|---|---|---|---|---|")
    for r in rows:
        win = "-" if r["window"] is None else f"{r['window'][0]:.1f}-{r['window'][1]:.1f}"
        found = "-" if r["iou"] is None else ("yes" if r["iou"] >= IOU_FOUND else "no")
        score = "-" if r["iou"] is None else f"{r['iou']:.2f}"
        print(f"| {r['video']} | {win} | {score} | {found} | {len(r['false'])} |")
    hits = [r for r in rows if r["iou"] is not None]
    print(f"\nfound {sum(r['iou'] >= IOU_FOUND for r in hits)}/{len(hits)} windows; "
          f"{sum(len(r['false']) for r in rows)} compression events outside them")


if __name__ == "__main__":
    main()
