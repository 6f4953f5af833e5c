"""A library of 20 real-footage videos indexed serially and on a local Ray, and a Ray run
killed with SIGKILL and resumed: wall times, throughput per core at 720p and 1080p, index
size per hour, peak memory, and checks that every run gives the same rows.

    python -m bench.figures.library --lib /work/lib20 --work /tmp/lib20-work

The videos are made once with ffmpeg from the corpus clips (each looped to --seconds, half
at 1280x720 and half at 1920x1080, H.264 25 fps) and kept under --lib; every run starts from
an empty cache under --work. Figures only: nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tools.ffmpeg import ffmpeg_exe

CORPUS = Path("/work/corpus")
SIZES = {"720p": (1280, 720), "1080p": (1920, 1080)}
# Rows must match across runs in everything but the clock and how the video was obtained.
KEYS = ("video", "duration_s", "n_events", "events_by_type", "worst_severity", "worst_type",
        "error")


def sources(corpus: Path, n: int) -> list[Path]:
    """n distinct corpus clips of at least 3 s, in manifest order."""
    rows = [line.split("\t") for line in (corpus / "manifest.tsv").read_text().splitlines()[1:]]
    skip = {"realshort.mp4", "force-magnetique.ogv", "retromars2018.avi"}  # under 3 s
    clips = [corpus / r[0] for r in rows if r and r[0] not in skip and (corpus / r[0]).is_file()]
    if len(clips) < n:
        raise SystemExit(f"need {n} clips in {corpus}, found {len(clips)}")
    return clips[:n]


def make_library(lib: Path, seconds: float, n: int = 20) -> list[Path]:
    """The library's videos (made only when missing): half 720p, half 1080p."""
    out = []
    for i, src in enumerate(sources(CORPUS, n)):
        name = "720p" if i % 2 == 0 else "1080p"
        w, h = SIZES[name]
        dst = lib / name / f"{i:02d}-{src.stem}.mp4"
        if not dst.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            tmp = dst.with_name(f".{dst.name}.part.mp4")
            subprocess.run([ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y",
                            "-stream_loop", "-1", "-i", str(src), "-t", f"{seconds:g}",
                            "-vf", f"scale={w}:{h},fps=25,format=yuv420p", "-an",
                            "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", str(tmp)],
                           check=True)
            tmp.replace(dst)
        out.append(dst)
    return out


def agent_index(args: list[str], cache: Path, summary: Path) -> dict[str, Any]:
    """One `agent index` run: wall and CPU seconds, peak RSS, exit code, its rows."""
    cmd = [sys.executable, "-m", "agent.cli", "index", *args, "--cache-dir", str(cache),
           "--summary", str(summary), "-q", "--no-clip"]
    log = summary.with_suffix(".stderr")
    log.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with open(log, "w") as fh:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=fh)
        _, status, ru = os.wait4(proc.pid, 0)  # rusage of the run and what it waited for
    wall = time.perf_counter() - t0
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"agent index failed ({code}): {log.read_text().strip()[-400:]}")
    rows = json.loads(summary.with_suffix(".json").read_text())
    return {"wall_s": wall, "cpu_s": ru.ru_utime + ru.ru_stime, "peak_mb": ru.ru_maxrss / 1024,
            "rows": rows}


def same(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    """Whether two summaries hold the same rows, clocks and statuses aside."""
    return [{k: r[k] for k in KEYS} for r in a] == [{k: r[k] for k in KEYS} for r in b]


def done_indexes(cache: Path) -> set[str]:
    """Fingerprints of the complete indexes in a cache (scratch builds are not complete)."""
    return {p.parent.name for p in cache.glob("*/meta.json")}


def size_mb(cache: Path, keys: set[str]) -> float:
    """Disk size of the given index entries."""
    files = [f for k in keys for f in (cache / k).rglob("*") if f.is_file()]
    return sum(f.stat().st_size for f in files) / 2**20


def killed_and_resumed(lib: Path, work: Path, cpus: int, kill_after: int,
                       serial_rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A Ray run killed (SIGKILL) once `kill_after` indexes are done, then resumed."""
    cache, summary = work / "cache-kill", work / "kill" / "lib.csv"
    cmd = [sys.executable, "-m", "agent.cli", "index", str(lib), "--ray", "local",
           "--ray-cpus", str(cpus), "--cache-dir", str(cache), "--summary", str(summary), "-q",
           "--no-clip"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while len(done_indexes(cache)) < kill_after and proc.poll() is None:
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(3.0)  # Ray's processes share the driver's fate: let them go
    before = done_indexes(cache)
    kept = len(json.loads(summary.with_suffix(".json").read_text())) \
        if summary.with_suffix(".json").exists() else 0
    resumed = agent_index([str(lib), "--ray", "local", "--ray-cpus", str(cpus)], cache, summary)
    statuses = [r["status"] for r in resumed["rows"]]
    return {"done_at_kill": len(before), "rows_kept_at_kill": kept,
            "resumed_cached": statuses.count("cached"),
            "resumed_indexed": statuses.count("indexed"), "resumed_wall_s": resumed["wall_s"],
            "nothing_twice": statuses.count("cached") == len(before),
            "nothing_lost": same(resumed["rows"], serial_rows)}


def main() -> None:
    """Make the library, run every figure, print them as JSON and a few lines."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", type=Path, default=Path("/work/lib20"))
    ap.add_argument("--work", type=Path, default=Path("/tmp/lib20-work"))
    ap.add_argument("--seconds", type=float, default=30.0, help="length of each video")
    ap.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray")
    ap.add_argument("--kill-after", type=int, default=6, help="indexes done before the kill")
    a = ap.parse_args()
    videos = make_library(a.lib, a.seconds)
    if a.work.exists():
        shutil.rmtree(a.work)
    a.work.mkdir(parents=True)
    serial: dict[str, dict[str, Any]] = {}
    cache = a.work / "cache-serial"
    for name in SIZES:  # serial, one resolution at a time: per-resolution figures
        before = done_indexes(cache)
        r = agent_index([str(a.lib / name)], cache, a.work / "serial" / f"{name}.csv")
        keys = done_indexes(cache) - before
        hours = sum(x["duration_s"] for x in r["rows"]) / 3600
        r.update(videos=len(r["rows"]), video_s=hours * 3600,
                 per_core_cpu=hours * 3600 / r["cpu_s"],
                 per_core_wall=hours * 3600 / (r["wall_s"] * os.cpu_count()),
                 index_mb_per_hour=size_mb(cache, keys) / hours)
        serial[name] = r
    whole = agent_index([str(a.lib)], cache, a.work / "serial" / "all.csv")  # from the cache
    serial_rows = [dict(r) for name in SIZES for r in serial[name]["rows"]]
    order = [r["video"] for r in whole["rows"]]
    serial_rows.sort(key=lambda r: order.index(r["video"]))
    serial_wall = sum(serial[n]["wall_s"] for n in SIZES)
    ray = agent_index([str(a.lib), "--ray", "local", "--ray-cpus", str(a.cpus)],
                      a.work / "cache-ray", a.work / "ray" / "all.csv")
    kill = killed_and_resumed(a.lib, a.work, a.cpus, a.kill_after, serial_rows)
    video_s = sum(r["duration_s"] for r in serial_rows)
    figures = {
        "machine": {"cpus": os.cpu_count(), "load_1m_at_end": round(os.getloadavg()[0], 2)},
        "videos": len(videos), "video_s": round(video_s, 1),
        "serial": {n: {k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()
                       if k != "rows"} for n, r in serial.items()},
        "serial_wall_s": round(serial_wall, 2),
        "ray_wall_s": round(ray["wall_s"], 2), "ray_speedup": round(serial_wall / ray["wall_s"], 3),
        "ray_video_s_per_core_s": round(video_s / (ray["wall_s"] * a.cpus), 3),
        "ray_same_rows_as_serial": same(ray["rows"], serial_rows),
        "cached_rerun_wall_s": round(whole["wall_s"], 2),
        "kill_resume": kill,
        "peak_rss_mb_per_worker": round(max(serial[n]["peak_mb"] for n in SIZES), 1),
    }
    print(json.dumps(figures, indent=1))
    print(f"serial {serial_wall:.1f} s, ray ({a.cpus} CPUs) {ray['wall_s']:.1f} s "
          f"for {len(videos)} videos ({video_s:.0f} s of video); same rows: "
          f"{figures['ray_same_rows_as_serial']}; killed after {kill['done_at_kill']} indexes, "
          f"resumed: {kill['resumed_cached']} cached + {kill['resumed_indexed']} indexed, "
          f"nothing twice {kill['nothing_twice']}, nothing lost {kill['nothing_lost']}")
    ok = figures["ray_same_rows_as_serial"] and kill["nothing_twice"] and kill["nothing_lost"]
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
