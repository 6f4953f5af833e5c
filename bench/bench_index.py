"""Benchmarks of the quality index: speed against bare decoding, scale, detection accuracy.

    python -m bench.bench_index speed   [--minutes 10] [--work DIR]
    python -m bench.bench_index scale   [--work DIR]            # 2, 10, 30 minutes
    python -m bench.bench_index detect  [--seeds 1,2] [--level 2] [--minutes 3] [--work DIR]

Videos are generated (real clips + procedural scenes, libx264) into the work directory once
and reused. Timing lives here, never in the tests.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from tools.ffmpeg import ffmpeg_exe

console = Console()


def _run(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def make_long_video(path: Path, minutes: float, width: int = 1280, height: int = 720) -> Path:
    """A long H.264 video of real clips and procedural scenes (generated once, then reused)."""
    if path.exists():
        return path
    from bench.synth import make_video

    console.print(f"generating {path.name} ({minutes:g} min {width}x{height}) ...")
    make_video(path, minutes * 60, width=width, height=height, fps=25.0, seed=7, preset="veryfast")
    return path


def concat(src: Path, times: int, out: Path) -> Path:
    """`times` copies of `src` back to back, without re-encoding."""
    if out.exists():
        return out
    lst = out.with_suffix(".txt")
    lst.write_text("".join(f"file '{src.resolve()}'\n" for _ in range(times)))
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i",
                    str(lst), "-c", "copy", str(out)], check=True)
    return out


def cut(src: Path, seconds: float, out: Path) -> Path:
    if not out.exists():
        subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-i", str(src), "-t", str(seconds),
                        "-c", "copy", str(out)], check=True)
    return out


def bare_decode_s(video: Path) -> float:
    """Wall time of decoding every frame once with ffmpeg (the physical floor)."""
    return _run([ffmpeg_exe(), "-v", "error", "-threads", "2", "-i", str(video), "-f", "null", "-"])


def ffmpeg_filters_s(video: Path, seconds: float | None = None) -> float:
    """Wall time of ffmpeg's own quality filters (what a user would run instead)."""
    cmd = [ffmpeg_exe(), "-v", "error", "-threads", "2"]
    if seconds:
        cmd += ["-t", str(seconds)]
    cmd += ["-i", str(video), "-vf", "signalstats,blockdetect,blurdetect,freezedetect",
            "-f", "null", "-"]
    return _run(cmd)


_CHILD = """
import json, resource, sys, time
from tools.index import measure
t0 = time.perf_counter()
ix = measure(sys.argv[1], progress=False, clip=sys.argv[2] == "1")
wall = time.perf_counter() - t0
me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"wall_s": wall, "py_peak_mb": me, "ffmpeg_peak_mb": kids,
                  "frames": int(len(ix.frames["t"])), "events": len(ix.events),
                  "clip": ix.clip_status}))
"""


def index_once(video: Path, clip: bool = False) -> dict:
    """Build an index in a fresh process (no cache); wall time and peak memory."""
    out = subprocess.run([sys.executable, "-c", _CHILD, str(video), "1" if clip else "0"],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def cmd_speed(work: Path, minutes: float, filter_s: float) -> dict:
    video = make_long_video(work / f"long-{minutes:g}min-720p.mp4", minutes)
    duration = minutes * 60
    decode = bare_decode_s(video)
    idx = index_once(video)
    filt = ffmpeg_filters_s(video, filter_s)
    filt_full = filt * duration / filter_s
    res = {
        "video": str(video), "duration_s": duration, "bare_decode_s": round(decode, 2),
        "index_s": round(idx["wall_s"], 2),
        "ratio_index_vs_decode": round(idx["wall_s"] / decode, 3),
        "index_x_realtime": round(duration / idx["wall_s"], 2),
        "decode_x_realtime": round(duration / decode, 2),
        "ffmpeg_filters_s_extrapolated": round(filt_full, 1),
        "ffmpeg_filters_measured_on_s": filter_s,
        "ffmpeg_filters_x_realtime": round(duration / filt_full, 2),
        "speedup_vs_ffmpeg_filters": round(filt_full / idx["wall_s"], 1),
        "py_peak_mb": round(idx["py_peak_mb"]), "ffmpeg_peak_mb": round(idx["ffmpeg_peak_mb"]),
    }
    t = Table(title=f"index speed, {minutes:g} min 1280x720 25 fps H.264")
    for k in ("bare decode (ffmpeg -f null)", "index build", "ffmpeg quality filters"):
        t.add_column(k, justify="right")
    t.add_row(f"{decode:.1f} s ({res['decode_x_realtime']}x rt)",
              f"{idx['wall_s']:.1f} s ({res['index_x_realtime']}x rt, "
              f"{res['ratio_index_vs_decode']}x decode)",
              f"{filt_full:.0f} s ({res['ffmpeg_filters_x_realtime']}x rt, "
              f"{res['speedup_vs_ffmpeg_filters']}x slower than index)")
    console.print(t)
    return res


def cmd_scale(work: Path) -> list[dict]:
    base = make_long_video(work / "long-10min-720p.mp4", 10)
    videos = {2: cut(base, 120, work / "long-2min-720p.mp4"), 10: base,
              30: concat(base, 3, work / "long-30min-720p.mp4")}
    rows = []
    t = Table(title="index scale (1280x720 25 fps)")
    for col in ("minutes", "index s", "s per video minute", "python peak MB", "ffmpeg peak MB"):
        t.add_column(col, justify="right")
    for minutes, video in videos.items():
        r = index_once(video)
        rows.append({"minutes": minutes, **r})
        t.add_row(str(minutes), f"{r['wall_s']:.1f}", f"{r['wall_s'] / minutes:.2f}",
                  f"{r['py_peak_mb']:.0f}", f"{r['ffmpeg_peak_mb']:.0f}")
    console.print(t)
    return rows


def cmd_detect(
    work: Path, seeds: list[int], level: int, minutes: float, workers: int, clean: int = 3
) -> dict:
    from bench.detection import CASES, case_plan, make_cases, score_case
    from tools.index import get_index

    rows = case_plan(minutes * 60, seeds, level=level, clean_per_seed=clean)
    manifests = make_cases(rows, work / "detect", minutes * 60, workers=workers)
    per: dict[str, list] = {}
    ious: list[float] = []
    for man in manifests:
        case = man["case"]
        ix = get_index(man["path"], cache_dir=work / "cache", progress=False, clip=False)
        sc = score_case(case, [e.to_dict() for e in ix.events])
        per.setdefault(case["name"], []).append(sc)
        if sc["iou"] is not None:
            ious.append(sc["iou"])
    t = Table(title=f"detection: one injected event per {minutes:g}-min video, level {level}, "
                    f"seeds {seeds}")
    for col in ("case", "found (IoU>=0.5)", "mean IoU", "other event types reported"):
        t.add_column(col)
    hits = total = 0
    for name, *_ in (*CASES, ("clean",)):
        scs = per.get(name, [])
        if not scs:
            continue
        ok = sum(s["ok"] for s in scs)
        iou = [s["iou"] for s in scs if s["iou"] is not None]
        others = sorted({x for s in scs for x in s["false"]})
        t.add_row(name, f"{ok}/{len(scs)}", f"{sum(iou) / len(iou):.2f}" if iou else "-",
                  ", ".join(others) or "-")
        if name != "clean":
            hits, total = hits + ok, total + len(scs)
    console.print(t)
    clean = per.get("clean", [])
    res = {"found": hits, "cases": total, "found_rate": round(hits / max(1, total), 3),
           "clean_ok": sum(s["ok"] for s in clean), "clean": len(clean),
           "mean_iou": round(sum(ious) / max(1, len(ious)), 3)}
    console.print(f"found {hits}/{total} ({res['found_rate']:.0%}); clean videos without events "
                  f"{res['clean_ok']}/{res['clean']}; mean IoU {res['mean_iou']}")
    return res


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_index", description=__doc__)
    ap.add_argument("what", choices=("speed", "scale", "detect"))
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "lvq-bench")
    ap.add_argument("--minutes", type=float, default=None)
    ap.add_argument("--filter-seconds", type=float, default=60.0,
                    help="seconds of video to run ffmpeg's filters on (extrapolated)")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--level", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--clean", type=int, default=3, help="clean videos per seed (detect)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    if args.what == "speed":
        res = cmd_speed(args.work, args.minutes or 10, args.filter_seconds)
    elif args.what == "scale":
        res = cmd_scale(args.work)
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
        res = cmd_detect(args.work, seeds, args.level, args.minutes or 3, args.workers, args.clean)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    console.print_json(json.dumps(res))


if __name__ == "__main__":
    main()
