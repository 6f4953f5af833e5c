"""The time of an `answer` over MCP against the CLI's, on the same cached index.

Makes (once) a generated video with a flicker burst, indexes it once, then times
`agent answer VIDEO "When does flicker occur?" --json -q` as separate processes (what a shell
user pays each time: Python start, imports, loading the index, answering) beside the MCP
`answer` tool through one session of `agent mcp` over stdio and over streamable HTTP (the
server starts once and keeps the index in memory). Prints one table; nothing is asserted.

    python -m bench.figures.mcp_latency --work /tmp/mcp-latency --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

QUESTION = "When does flicker occur?"
REPO = Path(__file__).resolve().parents[2]


def make_sample(work: Path, minutes: float) -> Path:
    """A 640x360 video of `minutes` with level-2 flicker a third of the way in (made once)."""
    from bench.synth import make_video, needle

    path = work / "root" / f"flicker-{minutes:g}min.mp4"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        start = minutes * 60 / 3
        make_video(path, minutes * 60, seed=1, needles=[needle("flicker", 2, start, start + 15)])
    return path


def child_env(cache: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "LVQ_CACHE_DIR": str(cache),
            "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def agent_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "agent.cli", *args]


def cli_runs(video: Path, cache: Path, runs: int) -> list[tuple[float, float]]:
    """(wall seconds, the answer's own elapsed_s) of each `agent answer` process."""
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(agent_cmd("answer", str(video), QUESTION, "--json", "-q"),
                              capture_output=True, text=True, env=child_env(cache), check=True)
        out.append((time.perf_counter() - t0, float(json.loads(proc.stdout)["elapsed_s"])))
    return out


@asynccontextmanager
async def stdio_session(root: Path, cache: Path) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=sys.executable, env=child_env(cache), cwd=str(REPO),
                                   args=agent_cmd("mcp", "--root", str(root))[1:])
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                yield s


@asynccontextmanager
async def http_session(root: Path, cache: Path) -> AsyncIterator[ClientSession]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(agent_cmd("mcp", "--root", str(root), "--http", f"127.0.0.1:{port}"),
                            env=child_env(cache), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("agent mcp --http did not start") from None
                await anyio.sleep(0.1)
        async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                yield s
    finally:
        proc.terminate()
        proc.wait(timeout=15)


async def mcp_runs(opener: Callable[..., Any], video: Path, cache: Path,
                   runs: int) -> tuple[float, list[float]]:
    """(seconds to start the server and initialise, seconds of each `answer` call)."""
    t0 = time.perf_counter()
    async with opener(video.parent, cache) as s:
        started = time.perf_counter() - t0
        calls = []
        for _ in range(runs):
            t1 = time.perf_counter()
            res = await s.call_tool("answer", {"video": video.name, "question": QUESTION})
            calls.append(time.perf_counter() - t1)
            if res.is_error:
                raise RuntimeError(res.content[0].text)
    return started, calls


def span(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f} (median {statistics.median(values):.2f})"


def main(argv: list[str] | None = None) -> None:
    """Print the CLI's and MCP's answer times on one cached index."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=Path("mcp-latency"))
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args(argv)
    cache = a.work / "cache"
    video = make_sample(a.work, a.minutes)
    t0 = time.perf_counter()
    subprocess.run(agent_cmd("index", str(video), "--json", "-q"), env=child_env(cache),
                   check=True, capture_output=True)
    print(f"video {video.name}; index ready in {time.perf_counter() - t0:.1f} s "
          f"(cached after the first run); {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}; {a.runs} answers each")
    cli = cli_runs(video, cache, a.runs)
    print(f"CLI  agent answer (a process each): wall {span([w for w, _ in cli])} s; "
          f"answering inside it {span([e for _, e in cli])} s")
    for name, opener in (("stdio", stdio_session), ("HTTP ", http_session)):
        started, calls = anyio.run(mcp_runs, opener, video, cache, a.runs)
        print(f"MCP  {name} (one session): server start {started:.2f} s; first answer "
              f"{calls[0]:.2f} s; later answers {span(calls[1:] or calls)} s")


if __name__ == "__main__":
    main()
