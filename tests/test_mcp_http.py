"""`agent mcp --http HOST:PORT`: a real server process on 127.0.0.1, the SDK's streamable-HTTP
client lists the tools, calls overview and answer (hearing each step as a progress
notification), and is refused a video outside the roots."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

REPO = Path(__file__).resolve().parents[1]
TOOLS = {"overview", "find_events", "measure_window", "compare_windows", "zoom_in", "answer",
         "index_video"}
START_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, log: Path) -> None:
    """Until the server accepts connections; fails with its log if it exits or never does."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"agent mcp --http exited {proc.returncode}: {log.read_text()[-800:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"agent mcp --http did not listen within {START_TIMEOUT_S:g} s")


@pytest.fixture()
def http_server(make_clip, tmp_path):
    """`agent mcp --http 127.0.0.1:PORT --root ROOT` as a child process; its URL and dirs."""
    video, _ = make_clip(20.0, needles=[("flicker", 3, 8, 13)])
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "clip.mp4").write_bytes(video.read_bytes())
    fresh, _ = make_clip(12.0, seed=5, needles=[("flicker", 3, 3, 8)])
    (root / "fresh.mp4").write_bytes(fresh.read_bytes())
    (outside / "other.mp4").write_bytes(video.read_bytes())
    port = free_port()
    env = {"PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "LVQ_CLIP_MODEL": "local-dir:/nonexistent", "PATH": "/usr/bin:/bin"}
    log = tmp_path / "server.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "agent.cli", "mcp", "--http", f"127.0.0.1:{port}",
             "--root", str(root), "--cache-dir", str(tmp_path / "cache")],
            cwd=str(REPO), env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out)
    try:
        wait_listening(port, proc, log)
        yield {"url": f"http://127.0.0.1:{port}/mcp", "root": root, "outside": outside,
               "cache": tmp_path / "cache"}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def test_streamable_http_lists_calls_and_refuses(http_server):
    async def scenario() -> None:
        async with streamable_http_client(http_server["url"]) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                names = {t.name for t in (await s.list_tools()).tools}
                assert names == TOOLS
                res = await s.call_tool("overview", {"video": "clip.mp4"})
                assert not res.is_error, res.content[0].text
                data = res.structured_content
                assert 19.5 < data["video"]["duration_s"] < 20.5
                assert "flicker" in data["summary"]
                heard: list[tuple[float, str | None]] = []

                async def progress(p: float, total: float | None, message: str | None) -> None:
                    heard.append((p, message))

                ans = await s.call_tool("answer", {"video": "clip.mp4",
                                                   "question": "When does flicker occur?"},
                                        progress_callback=progress)
                assert not ans.is_error, ans.content[0].text
                steps = ans.structured_content["steps"]
                assert [p for p, _ in heard] == list(range(1, steps + 1))  # a call each, live
                assert (heard[0][1] or "").split()[:3] == ["step", "1", "overview"]
                assert (heard[-1][1] or "").split()[2] == "finish"
                heard.clear()  # answer on a video not indexed yet: frames, then steps
                first = await s.call_tool("answer", {"video": "fresh.mp4",
                                                     "question": "When does flicker occur?"},
                                          progress_callback=progress)
                assert not first.is_error, first.content[0].text
                values = [p for p, _ in heard]
                assert values == sorted(values), "progress never goes back"
                step_values = [p for p, m in heard if (m or "").startswith("step ")]
                assert len(step_values) == first.structured_content["steps"]
                assert min(step_values) > max(set(values) - set(step_values))
                assert "indexing fresh.mp4" in (heard[0][1] or "")
                assert (heard[-1][1] or "").split()[2] == "finish"
                refused = await s.call_tool("overview", {
                    "video": str(http_server["outside"] / "other.mp4")})
                assert refused.is_error
                assert "outside the allowed roots" in refused.content[0].text

    anyio.run(scenario)
    measured = list(http_server["cache"].glob("**/meta.json"))
    assert len(measured) == 2  # the root's videos only; the outside one was never opened
