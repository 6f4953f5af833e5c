"""`agent mcp`: the SDK's own client over stdio lists the tools, calls each one on a small
generated video, hears build progress, reads the index resource, and is refused paths outside
the roots."""

from __future__ import annotations

import base64
import json
import os
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from typer.testing import CliRunner

from agent.cli import app
from agent.mcp_roots import OutsideRoots, Roots
from agent.mcp_server import DOCS, build_server, parse_http
from tools.errors import UsageError

REPO = Path(__file__).resolve().parents[1]
TOOLS = {"overview", "find_events", "measure_window", "compare_windows", "zoom_in", "answer",
         "index_video"}


@pytest.fixture(scope="module")
def setup(make_clip, tmp_path_factory):
    """A root holding the flicker clip, a symlink escaping it, and a video outside it."""
    video, _ = make_clip(20.0, needles=[("flicker", 3, 8, 13)])
    base = tmp_path_factory.mktemp("mcp")
    root, outside = base / "root", base / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "clip.mp4").write_bytes(video.read_bytes())
    (outside / "secret.mp4").write_bytes(video.read_bytes())
    (root / "escape.mp4").symlink_to(outside / "secret.mp4")
    return {"root": root, "outside": outside, "cache": base / "cache", "base": base}


@asynccontextmanager
async def session(root: Path, cache: Path):
    """A ClientSession on `agent mcp --root ROOT` spawned over stdio."""
    env = {"PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "LVQ_CLIP_MODEL": "local-dir:/nonexistent"}  # no retrieval: a fixed tool list
    params = StdioServerParameters(command=sys.executable, cwd=str(REPO), env=env,
                                   args=["-m", "agent.cli", "mcp", "--root", str(root),
                                         "--cache-dir", str(cache)])
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                yield s


def structured(result) -> dict:
    assert not result.is_error, result.content[0].text
    return result.structured_content


def test_tools_over_stdio(setup):
    async def scenario() -> None:
        async with session(setup["root"], setup["cache"]) as s:
            listed = {t.name: t for t in (await s.list_tools()).tools}
            assert set(listed) == TOOLS
            fe = listed["find_events"].input_schema
            assert fe["required"] == ["video"]
            assert fe["properties"]["min_severity"]["description"] == \
                DOCS["find_events"][1]["min_severity"]
            assert "Returns:" in listed["overview"].description

            heard: list[tuple[float, float | None]] = []

            async def progress(p: float, total: float | None, message: str | None) -> None:
                heard.append((p, total))

            digest = structured(await s.call_tool("index_video", {"video": "clip.mp4"},
                                                  progress_callback=progress))
            n = digest["video"]["n_frames"]
            assert heard and heard[-1] == (n, n)  # counted frames of the build itself
            assert all(0 <= p <= t for p, t in heard)
            assert [e["type"] for e in digest["events"]] == ["flicker"]

            ov = structured(await s.call_tool("overview", {"video": "clip.mp4"}))
            assert ov["events_total"] == 1 and ov["video"]["duration_s"] == pytest.approx(20.0)
            fe_res = structured(await s.call_tool("find_events", {
                "video": str(setup["root"] / "clip.mp4"), "type": "flicker"}))
            assert fe_res["count"] == 1 and 6.0 < fe_res["events"][0]["start_s"] < 9.0
            mw = structured(await s.call_tool("measure_window", {
                "video": "clip.mp4", "start_s": 8, "end_s": 12}))
            assert mw["window"] == [8.0, 12.0] and mw["type_scores"]["flicker"] >= 1
            cw = structured(await s.call_tool("compare_windows", {
                "video": "clip.mp4", "windows": [[0, 5], [8, 12]], "type": "flicker"}))
            assert cw["worst_first"][0] == 1

            zoom = await s.call_tool("zoom_in", {"video": "clip.mp4", "start_s": 9,
                                                 "end_s": 11, "max_frames": 3})
            assert not zoom.is_error
            assert [c.type for c in zoom.content] == ["text", "image", "image", "image"]
            jpeg = base64.b64decode(zoom.content[1].data)
            assert zoom.content[1].mime_type == "image/jpeg" and jpeg[:2] == b"\xff\xd8"
            assert zoom.structured_content["frames_decoded"] == 50

            ans = structured(await s.call_tool("answer", {
                "video": "clip.mp4", "question": "When does flicker occur?"}))
            assert ans["brain"] == "local" and ans["segments"]
            assert ans["segments"][0]["start_s"] < 10 < ans["segments"][0]["end_s"]

            bad = await s.call_tool("measure_window", {"video": "clip.mp4", "start_s": "soon",
                                                       "end_s": 3})
            assert bad.is_error

            res = await s.read_resource("lvq://index/clip.mp4")
            body = json.loads(res.contents[0].text)
            assert body["video"]["n_frames"] == n and body["events"] == digest["events"]

    anyio.run(scenario)


def test_paths_outside_the_roots_are_refused(setup):
    outside = setup["outside"] / "secret.mp4"
    cache = setup["base"] / "cache-refusals"

    async def scenario() -> None:
        async with session(setup["root"], cache) as s:
            for video in (str(outside), "escape.mp4", "../outside/secret.mp4",
                          str(setup["root"] / ".." / "outside" / "secret.mp4")):
                res = await s.call_tool("overview", {"video": video})
                assert res.is_error, video
                assert "outside the allowed roots" in res.content[0].text
            res = await s.call_tool("answer", {"video": str(outside), "question": "blur?"})
            assert res.is_error and "outside the allowed roots" in res.content[0].text
            missing = await s.call_tool("overview", {"video": "nope.mp4"})
            assert missing.is_error and "nope.mp4" in missing.content[0].text
            with pytest.raises(MCPError, match="outside the allowed roots"):
                await s.read_resource("lvq://index/escape.mp4")

    anyio.run(scenario)
    assert not list(cache.glob("**/meta.json"))  # nothing was measured


def test_roots_resolve(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "v.mp4").write_bytes(b"x")
    roots = Roots([tmp_path / "a", tmp_path / "b"])
    assert roots.resolve("v.mp4") == (tmp_path / "b" / "v.mp4").resolve()
    assert roots.resolve("missing.mp4") == (tmp_path / "a" / "missing.mp4").resolve()
    with pytest.raises(OutsideRoots):
        roots.resolve("../b/../../etc/passwd")
    with pytest.raises(UsageError):
        roots.resolve("  ")
    with pytest.raises(UsageError, match="not a directory"):
        Roots([tmp_path / "b" / "v.mp4"])
    with pytest.raises(UsageError, match="at least one"):
        Roots([])


def test_parse_http():
    assert parse_http("127.0.0.1:8765") == ("127.0.0.1", 8765)
    assert parse_http("[::1]:9000") == ("::1", 9000)
    for bad in ("8765", "host:", "host:99999", ":80"):
        with pytest.raises(UsageError):
            parse_http(bad)


def test_cli_usage_errors_exit_2(tmp_path):
    runner = CliRunner()
    res = runner.invoke(app, ["mcp", "--root", str(tmp_path / "none")])
    assert res.exit_code == 2 and "not a directory" in res.stderr
    res = runner.invoke(app, ["mcp", "--root", str(tmp_path), "--http", "localhost"])
    assert res.exit_code == 2 and "HOST:PORT" in res.stderr


def test_search_frames_listed_when_retrieval_is_on(setup, tmp_path, monkeypatch):
    from mcp import Client

    monkeypatch.setenv("LVQ_CLIP_MODEL", "local-dir:/nonexistent")  # indexes without CLIP
    root = Roots([setup["root"]])

    async def scenario() -> None:
        async with Client(build_server(root, tmp_path / "c", search=True)) as c:
            names = {t.name for t in (await c.list_tools()).tools}
            assert names == TOOLS | {"search_frames"}
            res = await c.call_tool("search_frames", {"video": "clip.mp4", "query": "a face"})
            assert res.is_error and "CLIP search is unavailable" in res.content[0].text
        async with Client(build_server(root, tmp_path / "c", search=False)) as c:
            assert "search_frames" not in {t.name for t in (await c.list_tools()).tools}

    anyio.run(scenario)
