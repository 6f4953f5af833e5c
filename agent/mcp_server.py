"""`agent mcp`: the toolbox and the local-brain `answer` as MCP tools, a video's index as an
MCP resource, over stdio or streamable HTTP (the official `mcp` SDK's MCPServer).

Every tool takes `video`, a path confined to the --root directories; the tools are the
Toolbox's own methods (agent/toolbox.py), with its descriptions, run in a worker thread.
"""

# No `from __future__ import annotations`: the SDK reads these signatures for the schemas.
import inspect
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp_types import CallToolResult, ImageContent, TextContent
from pydantic import Field

from agent.context import RunContext
from agent.mcp_index import IndexStore, Report
from agent.mcp_roots import Roots
from agent.toolbox import ToolArgError, Toolbox
from tools.errors import LvqError, UsageError
from tools.jsonsafe import dumps, finite

INDEX_URI = "lvq://index/{+path}"
INSTRUCTIONS = (
    "Picture-quality analysis of long videos. Every tool takes `video`, a file path inside the "
    "server's roots (absolute, or relative to a root). The first call on a video measures it "
    "once (progress is reported) and later calls reuse the index. Start with `overview`, narrow "
    "down with `find_events`, `measure_window` and `compare_windows`, look at frames with "
    "`zoom_in`; `answer` runs the built-in planner on a question end to end."
)


def _docs(method: str) -> tuple[str, dict[str, str]]:
    """A Toolbox method's description (summary and Returns) and its argument descriptions."""
    doc = inspect.getdoc(getattr(Toolbox, method)) or ""
    summary: list[str] = []
    returns: list[str] = []
    args: dict[str, str] = {}
    section, name = "", ""
    for line in doc.splitlines():
        if line.strip() in ("Args:", "Returns:"):
            section = line.strip()
        elif section == "Args:" and (m := re.match(r"^\s{4}(\w+): (.*)$", line)):
            name = m.group(1)
            args[name] = m.group(2).strip()
        elif section == "Args:" and line.strip() and name:
            args[name] += " " + line.strip()
        elif section == "Returns:" and line.strip():
            returns.append(line.strip())
        elif not section:
            summary.append(line.strip())
    text = " ".join(s for s in summary if s)
    return (text + (f"\n\nReturns: {' '.join(returns)}" if returns else "")), args


DOCS = {m: _docs(m) for m in ("overview", "find_events", "measure_window", "compare_windows",
                              "zoom_in", "search_frames")}


def arg(method: str, name: str) -> Any:
    """The pydantic Field carrying a Toolbox argument's description."""
    return Field(description=DOCS[method][1][name])


Video = Annotated[str, Field(description="The video file: a path inside the server's roots "
                                         "(absolute, or relative to a root).")]


def retrieval_available() -> bool:
    """Whether CLIP weights are here, so indexes get frame embeddings to search."""
    try:
        from tools.embed import ClipConfig, clip_status

        return bool(clip_status(ClipConfig.from_env(), quick=True)[0])
    except Exception:  # noqa: BLE001 - no retrieval, every other tool works
        return False


class LvqMcp:
    """The server's state: the roots, the indexes, and the tool bodies over them."""

    def __init__(self, roots: Roots, cache_dir: Path | None = None) -> None:
        self.roots = roots
        self.cache_dir = cache_dir
        self.store = IndexStore(roots, cache_dir)

    async def index(self, video: str, ctx: Context | None, report: Report | None = None) -> Any:
        """The video's index; progress notifications go to the caller while it is built."""
        report = report or (ctx.report_progress if ctx is not None else None)
        try:
            return await self.store.get(video, report)
        except (LvqError, OSError) as exc:
            raise ToolError(_message(exc)) from None

    async def run_tool(self, video: str, ctx: Context | None, method: str, **args: Any) -> Any:
        """Call one Toolbox method on the video's index in a worker thread."""
        index = await self.index(video, ctx)
        box = Toolbox(index, RunContext(video=index.info.path,
                                        duration_s=float(index.info.duration_s), vision=True))
        try:
            return await anyio.to_thread.run_sync(lambda: box.call(method, **args))
        except (ToolArgError, LvqError, OSError, ValueError) as exc:
            raise ToolError(_message(exc)) from None

    async def json_tool(self, video: str, ctx: Context | None, method: str,
                        **args: Any) -> dict[str, Any]:
        """A Toolbox method's JSON result as a dict (structured tool output)."""
        return finite(json.loads(await self.run_tool(video, ctx, method, **args)))

    async def zoom(self, video: str, ctx: Context | None, **args: Any) -> CallToolResult:
        """zoom_in's measurements as text and structured content, its frames as images."""
        blocks = await self.run_tool(video, ctx, "zoom_in", **args)
        text = blocks[0]["text"] if isinstance(blocks, list) else blocks
        content: list[Any] = [TextContent(type="text", text=text)]
        for b in blocks[1:] if isinstance(blocks, list) else []:
            head, _, data = b["image_url"]["url"].partition(";base64,")  # a data: URL
            content.append(ImageContent(type="image", data=data,
                                        mime_type=head.removeprefix("data:")))
        return CallToolResult(content=content, structured_content=finite(json.loads(text)))

    async def answer(self, video: str, question: str, options: list[str], max_steps: int,
                     ctx: Context | None) -> dict[str, Any]:
        """The local brain's answer to a question, on the cached index; each tool call it
        makes is reported as a progress notification as it happens."""
        from agent.run import answer_question
        from agent.steps import StepPrinter

        last = [0.0]  # progress must only grow: the steps count on from the index's frames

        async def report(n: float, total: float | None, message: str | None) -> None:
            last[0] = n
            if ctx is not None:
                await ctx.report_progress(n, total, message)

        index = await self.index(video, ctx, report)
        printer = None
        if ctx is not None:
            def send(line: str) -> None:
                anyio.from_thread.run(ctx.report_progress, last[0] + printer.lines + 1, None,
                                      line)

            printer = StepPrinter(send)
        try:
            ans = await anyio.to_thread.run_sync(lambda: answer_question(
                index.info.path, question, options, brain="local", max_steps=max_steps,
                cache_dir=self.cache_dir, progress=False, index=index, on_update=printer))
        except (LvqError, OSError, ValueError) as exc:
            raise ToolError(_message(exc)) from None
        return finite(ans.model_dump())

    async def summary(self, video: str, ctx: Context | None) -> str:
        """The index digest (facts, scenes, events, build figures) as JSON text."""
        return dumps((await self.index(video, ctx)).summary(), indent=1)


def _message(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror and exc.filename:
        return f"{exc.strerror}: {exc.filename}"
    return str(exc) or type(exc).__name__


def build_server(roots: Roots, cache_dir: Path | None = None,
                 search: bool | None = None) -> MCPServer:
    """The MCP server over `roots`; `search` registers search_frames (default: when CLIP
    weights are available)."""
    app = LvqMcp(roots, cache_dir)
    server = MCPServer("lvq-agent", instructions=INSTRUCTIONS, log_level="WARNING")

    def tool(method: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        return server.tool(name=method, description=DOCS[method][0])

    @tool("overview")
    async def overview(ctx: Context, video: Video) -> dict[str, Any]:
        return await app.json_tool(video, ctx, "overview")

    @tool("find_events")
    async def find_events(
        ctx: Context,
        video: Video,
        type: Annotated[str | None, arg("find_events", "type")] = None,
        start_s: Annotated[float | None, arg("find_events", "start_s")] = None,
        end_s: Annotated[float | None, arg("find_events", "end_s")] = None,
        min_severity: Annotated[float, arg("find_events", "min_severity")] = 0.0,
    ) -> dict[str, Any]:
        return await app.json_tool(video, ctx, "find_events", type=type, start_s=start_s,
                                   end_s=end_s, min_severity=min_severity)

    @tool("measure_window")
    async def measure_window(
        ctx: Context,
        video: Video,
        start_s: Annotated[float, arg("measure_window", "start_s")],
        end_s: Annotated[float, arg("measure_window", "end_s")],
    ) -> dict[str, Any]:
        return await app.json_tool(video, ctx, "measure_window", start_s=start_s, end_s=end_s)

    @tool("compare_windows")
    async def compare_windows(
        ctx: Context,
        video: Video,
        windows: Annotated[list[list[float]], arg("compare_windows", "windows")],
        type: Annotated[str | None, arg("compare_windows", "type")] = None,
    ) -> dict[str, Any]:
        return await app.json_tool(video, ctx, "compare_windows", windows=windows, type=type)

    @tool("zoom_in")
    async def zoom_in(
        ctx: Context,
        video: Video,
        start_s: Annotated[float, arg("zoom_in", "start_s")],
        end_s: Annotated[float, arg("zoom_in", "end_s")],
        crop: Annotated[list[float] | None, arg("zoom_in", "crop")] = None,
        max_frames: Annotated[int, arg("zoom_in", "max_frames")] = 6,
    ) -> CallToolResult:
        return await app.zoom(video, ctx, start_s=start_s, end_s=end_s, crop=crop,
                              max_frames=max_frames)

    if retrieval_available() if search is None else search:
        @tool("search_frames")
        async def search_frames(
            ctx: Context,
            video: Video,
            query: Annotated[str, arg("search_frames", "query")],
            k: Annotated[int, arg("search_frames", "k")] = 5,
            start_s: Annotated[float | None, arg("search_frames", "start_s")] = None,
            end_s: Annotated[float | None, arg("search_frames", "end_s")] = None,
            ) -> dict[str, Any]:
            return await app.json_tool(video, ctx, "search_frames", query=query, k=k,
                                       start_s=start_s, end_s=end_s)

    @server.tool(name="answer", description=(
        "Answer a picture-quality question about the video with the built-in planner (no "
        "model): it calls the tools above itself and returns the answer, the option letter "
        "for multiple-choice questions, the time segments with severities, the evidence, and "
        "the id of the stored trace."))
    async def answer(
        ctx: Context,
        video: Video,
        question: Annotated[str, Field(description="The question, e.g. 'When does flicker "
                                                   "occur?'")],
        options: Annotated[list[str] | None, Field(
            description="Multiple-choice options, lettered A, B, ... in order.")] = None,
        max_steps: Annotated[int, Field(ge=1, le=100, description="Planner turns at most.")] = 12,
    ) -> dict[str, Any]:
        return await app.answer(video, question, list(options or []), max_steps, ctx)

    @server.tool(name="index_video", description=(
        "Measure the video now (or reuse its cached index), reporting progress while it "
        "decodes, and return the index digest: facts, scenes, events, build time. The other "
        "tools do this themselves on first use."))
    async def index_video(ctx: Context, video: Video) -> dict[str, Any]:
        return json.loads(dumps((await app.index(video, ctx)).summary()))

    @server.resource(INDEX_URI, name="video-index", mime_type="application/json",
                     description="The quality index digest of a video, by its path relative "
                                 "to a root: facts, scenes, events (built on first read).")
    async def index_resource(path: str) -> str:
        try:
            return await app.summary(path, None)
        except ToolError as exc:
            raise ResourceError(str(exc)) from None

    return server


def parse_http(spec: str) -> tuple[str, int]:
    """HOST:PORT (IPv6 hosts in brackets) as (host, port); UsageError if malformed."""
    host, sep, port = spec.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--http {spec!r}: expected HOST:PORT, e.g. 127.0.0.1:8765")
    return host, int(port)


def serve(roots: list[Path], http: str | None = None, cache_dir: Path | None = None) -> None:
    """Run the server on stdio, or on streamable HTTP at HOST:PORT (path /mcp)."""
    allowed = Roots(roots)
    where = parse_http(http) if http else None
    server = build_server(allowed, cache_dir)
    if where is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host=where[0], port=where[1])
