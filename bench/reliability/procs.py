"""Run the real `agent` and `bench` command lines as separate processes, signal them at a chosen
moment, and look at what they left on disk: the shared machinery of the process, storage,
concurrency and secret sweeps."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.ffmpeg import ffmpeg_exe

ROOT = Path(__file__).resolve().parents[2]


def env(**extra: str) -> dict[str, str]:
    """The environment of a child command: this checkout first, no hub access, no model key."""
    out = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1"}
    for var in ("LVQ_OPENAI_API_KEY", "OPENAI_API_KEY", "LVQ_DEBUG", "LVQ_CACHE_DIR"):
        out.pop(var, None)
    out.update(extra)
    return out


def agent_cmd(*args: Any) -> list[str]:
    """argv of `agent ARGS` run with this interpreter."""
    return [sys.executable, "-m", "agent.cli", *map(str, args)]


def bench_cmd(*args: Any) -> list[str]:
    """argv of `bench ARGS` run with this interpreter."""
    return [sys.executable, "-m", "bench.cli", *map(str, args)]


def _child_setup(fsize: int | None) -> None:
    """In the child before exec: Ctrl-C as a terminal delivers it (a parent that ignores SIGINT
    passes that on), and optionally a file-size limit whose overrun is an error, not a kill."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if fsize is not None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))


@dataclass
class Outcome:
    """How one child command ended."""

    rc: int
    stdout: str
    stderr: str
    seconds: float
    signalled: bool  # the signal was sent while it still ran

    @property
    def lines(self) -> list[str]:
        """The non-empty stderr lines."""
        return [ln for ln in self.stderr.splitlines() if ln.strip()]

    def json(self) -> Any:
        """stdout parsed as JSON (None when it is not)."""
        try:
            return json.loads(self.stdout)
        except ValueError:
            return None


def start(argv: list[str], child_env: dict[str, str] | None = None,
          fsize: int | None = None, cwd: Path | None = None) -> subprocess.Popen:
    """Start a command in its own process group (as a shell job is), output captured."""
    return subprocess.Popen(argv, env=child_env or env(), cwd=cwd, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            restore_signals=fsize is None,
                            preexec_fn=lambda: _child_setup(fsize))


def finish(proc: subprocess.Popen, t0: float, signalled: bool, timeout: float) -> Outcome:
    """Wait for a started command; one that outlives `timeout` is killed and reported as 124."""
    try:
        out, err = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        rc, err = 124, err + f"\n[harness] still running after {timeout:.0f} s: killed"
    reap_group(proc.pid)
    return Outcome(rc, out, err, time.perf_counter() - t0, signalled)


def reap_group(pgid: int) -> None:
    """Kill what is left of a command's process group (an orphaned ffmpeg after a SIGKILL)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run(argv: list[str], child_env: dict[str, str] | None = None, timeout: float = 600,
        fsize: int | None = None) -> Outcome:
    """Run a command to its end."""
    t0 = time.perf_counter()
    return finish(start(argv, child_env, fsize), t0, False, timeout)


def run_signalled(argv: list[str], at_s: float, sig: int,
                  child_env: dict[str, str] | None = None, timeout: float = 600) -> Outcome:
    """Run a command and send `sig` `at_s` seconds after its start: SIGINT to its process group
    (what Ctrl-C in a terminal does), any other signal to the process alone (kill -9 PID)."""
    t0 = time.perf_counter()
    proc = start(argv, child_env)
    try:
        proc.wait(timeout=at_s)
        return finish(proc, t0, False, timeout)
    except subprocess.TimeoutExpired:
        pass
    try:
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
    except ProcessLookupError:
        return finish(proc, t0, False, timeout)
    return finish(proc, t0, True, timeout)


def spread(n: int, duration_s: float, seed: int) -> list[float]:
    """`n` moments over (0, duration): one drawn at random in each of n equal strata, seeded."""
    import random

    rng = random.Random(seed)
    return [round((i + rng.random()) / n * duration_s, 3) for i in range(n)]


def pattern_video(path: Path, seconds: float, size: str = "160x90", fps: int = 25) -> Path:
    """A moving test pattern in H.264 (made with the project's ffmpeg)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", f"testsrc2=size={size}:rate={fps}", "-t", str(seconds),
                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(path)],
                   check=True)
    return path


def item_file(path: Path, videos: list[str], per_video: int) -> list[str]:
    """An MCQ item file over `videos` (names relative to its folder); the item ids."""
    questions = ["Is there flicker in the video?", "Is the video blurry?",
                 "Does the video freeze at some point?", "Is there visible noise?"]
    ids, lines = [], []
    for v in videos:
        for k in range(per_video):
            ids.append(f"{Path(v).stem}-{k}")
            lines.append(json.dumps({"id": ids[-1], "benchmark": "reliability", "videos": [v],
                                     "question": questions[k % len(questions)],
                                     "format": "mcq", "options": ["Yes", "No"], "gold": "B"}))
    path.write_text("\n".join(lines) + "\n")
    return ids
