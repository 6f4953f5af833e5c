"""Ctrl-C at start-up: SIGINT sent to `agent` and `bench` at delays from 0 to 500 ms after
their launch, each outcome sorted by who answered it.

- **one line, 130**: the project's start-up guard or `run_app` said it was interrupted;
- **finished**: the command ended before the signal, or was exiting as it came (exit 0,
  nothing on stderr);
- **CPython start-up**: the signal came before the first line of project code ran: before
  CPython installs its own handler (the process dies of SIGINT, nothing printed: a shell shows
  exit 130), while CPython imports `site` ("Fatal Python error: init_import_site") or runs the
  environment's `.pth` files (site.py: "Error processing line 1 of ...: Remainder of file
  ignored", and the command goes on), or while
  `python -m` / the console script look for the package and read its first file (a traceback
  with no frame in this project's files). No project code has run then, so none can answer;
  the window is measured beside the table as the launch time of a bare `python -c pass`;
- **BAD**: anything else, e.g. a traceback from project imports.

    python -m bench.reliability.startup [--step-ms 10] [--repeats 2]
"""

from __future__ import annotations

import argparse
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.reliability import procs

OUTCOMES = ("one line, 130", "finished", "CPython start-up", "BAD")
# What CPython itself prints when a Ctrl-C meets its start-up (Python/pylifecycle.c importing
# site; Modules/main.c setting up sys.path[0] for `-m`): before any project code.
_CPYTHON_LINES = ("Fatal Python error: init_import_site",
                  "Failed checking if argv[0] is an import path entry",
                  "Could not import runpy module")


def classify(out: procs.Outcome) -> str:
    """Which of OUTCOMES one signalled start-up ended in."""
    lines = out.lines
    if out.rc == 130 and len(lines) == 1 and "interrupted" in lines[0]:
        return "one line, 130"
    if out.rc == 0 and (not out.signalled or not lines):
        return "finished"  # done before the signal, or it came as the command was exiting
    if out.rc == -signal.SIGINT and not lines:
        return "CPython start-up"  # killed before CPython's own handler was in place
    if lines and lines[0].startswith(_CPYTHON_LINES):
        return "CPython start-up"
    if lines and lines[0].startswith("Error processing line") and \
            "Remainder of file ignored" in out.stderr and not _project_frames(out.stderr):
        return "CPython start-up"  # site.py skipping the rest of a .pth file it was running
    if lines and lines[0].startswith("Traceback") and not _project_frames(out.stderr):
        return "CPython start-up"  # in runpy or the import system, before our first line
    return "BAD"


def _project_frames(stderr: str) -> list[str]:
    """The traceback frames in this project's own files (`agent/`, `bench/`, `tools/`)."""
    files = re.findall(r'^\s*File "([^"]+)"', stderr, re.M)
    return [f for f in files if Path(f).is_absolute() and Path(f).resolve().is_relative_to(
        procs.ROOT)]


def commands(video: Path) -> dict[str, list[str]]:
    """The command lines swept: a real index (long enough to be interrupted; no progress bar,
    which a late signal on a fast machine would otherwise find on stderr) and `bench`."""
    return {"agent index": procs.agent_cmd("index", video, "-q", "--json"),
            "bench --help": procs.bench_cmd("--help")}


def sweep(tmp: Path, delays_s: list[float], repeats: int = 1) -> dict[str, list[tuple]]:
    """For each command: (delay, outcome, first stderr line; all of stderr's end when BAD) at
    every delay, `repeats` times, each index in a fresh cache."""
    video = procs.pattern_video(tmp / "v.mp4", 4.0)
    rows: dict[str, list[tuple]] = {}
    for name, argv in commands(video).items():
        rows[name] = []
        for rep in range(repeats):
            for i, at in enumerate(delays_s):
                env = procs.env(LVQ_CACHE_DIR=str(tmp / f"cache-{rep}-{i}"))
                out = procs.run_signalled(argv, at, signal.SIGINT, env, timeout=300)
                outcome = classify(out)
                said = out.stderr[-1500:] if outcome == "BAD" else (out.lines or [""])[0][:90]
                rows[name].append((at, outcome, said))
    return rows


def python_launch_s(repeats: int = 5) -> float:
    """Median wall time of a bare `python -c pass`: CPython's start-up, before any script."""
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs)


def table(rows: dict[str, list[tuple]], bucket_ms: int = 50) -> list[str]:
    """Counts of outcomes per command and per `bucket_ms` of delay."""
    lines = [f"{'command':14} {'delay ms':10} " + " ".join(f"{o:>17}" for o in OUTCOMES)]
    for name, got in rows.items():
        buckets: dict[int, Counter] = {}
        for at, outcome, _ in got:
            b = int(at * 1000) // bucket_ms * bucket_ms
            buckets.setdefault(b, Counter())[outcome] += 1
        for b in sorted(buckets):
            counts = " ".join(f"{buckets[b][o]:17d}" for o in OUTCOMES)
            lines.append(f"{name:14} {b:3d}-{b + bucket_ms - 1:<6d} {counts}")
        total = Counter(o for _, o, _ in got)
        lines.append(f"{name:14} {'all':10} " + " ".join(f"{total[o]:17d}" for o in OUTCOMES))
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the sweep; exit 1 when any outcome is BAD."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--step-ms", type=float, default=10.0)
    ap.add_argument("--max-ms", type=float, default=500.0)
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args(argv)
    n = int(args.max_ms // args.step_ms) + 1
    delays = [i * args.step_ms / 1000 for i in range(n)]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lvq-startup-") as tmp:
        rows = sweep(Path(tmp), delays, args.repeats)
    print("\n".join(table(rows)))
    for name, got in rows.items():
        for at, outcome, first in got:
            if outcome == "BAD":
                print(f"BAD {name} at {at * 1000:.0f} ms: {first}")
    print(f"(python -c pass: {python_launch_s() * 1000:.0f} ms here; "
          f"{time.perf_counter() - t0:.0f} s)")
    return 1 if any(o == "BAD" for got in rows.values() for _, o, _ in got) else 0


if __name__ == "__main__":
    sys.exit(main())
