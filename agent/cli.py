"""The `agent` command line: gathers options, calls the library, prints results.

Bad input ends with one line on stderr and a documented non-zero exit code (tools/errors.py,
README "Exit codes"), never a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from agent.cli_common import CacheOpt, TraceIdArg, err, fail, out, reported  # noqa: F401
from agent.cli_models import models_app
from agent.cli_trace import TABLE_MIN_WIDTH, trace_app  # noqa: F401
from agent.timefmt import hms
from tools.errors import (
    EXIT_ENDPOINT,
    EXIT_INTERRUPTED,
    UsageError,
    run_app,
)
from tools.jsonsafe import dumps

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="lvq-agent: answer picture-quality questions about long videos with measured evidence.",
)


@app.callback()
def _root() -> None:
    """lvq-agent: answer picture-quality questions about long videos with measured evidence."""


@app.command("index")
def index_cmd(
    videos: Annotated[list[Path], typer.Argument(
        help="Video file(s), directories (searched recursively) or globs.", metavar="VIDEO")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    cache_dir: CacheOpt = None,
    rebuild: Annotated[bool, typer.Option(help="Measure again even if cached.")] = False,
    clip: Annotated[bool, typer.Option(help="Embed frames for CLIP search if possible.")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    export: Annotated[Path | None, typer.Option(
        "--export", help="Also write the events to FILE: .csv .srt .vtt .edl .otio.")] = None,
    summary_to: Annotated[Path | None, typer.Option("--summary", help="Several videos: write "
                          "the summary table to PATH.csv and PATH.json.")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="[ADDRESS]", help="Index each video as a Ray task: on the cluster at "
        "ADDRESS (auto, HOST:PORT, ray://HOST:10001), or on a local Ray started for the run "
        "when no address is given.")] = None,
    ray_cpus: Annotated[int | None, typer.Option(
        min=1, help="CPUs of the local Ray (--ray without address) [default: the machine's].")]
    = None,
) -> None:
    """Build (or reuse) the quality index of VIDEO and summarise facts, scenes and events;
    with several videos, directories or globs, index each and summarise them in a table."""
    from agent.api import index_video
    from agent.export import export_events, exporter
    from agent.library import is_library

    if summary_to is not None or ray is not None or ray_cpus is not None or is_library(videos):
        from agent.cli_library import index_many

        return index_many(videos, summary_to, as_json=as_json, cache_dir=cache_dir,
                          rebuild=rebuild, clip=clip, quiet=quiet, export=export, ray=ray,
                          ray_cpus=ray_cpus)
    video = videos[0]
    with reported():
        if export is not None:
            exporter(export)  # an unknown extension fails before any measuring
        index = index_video(
            video, cache_dir=cache_dir, progress=not quiet, rebuild=rebuild, clip=clip
        )
    if export is not None:
        with reported(writing=export):
            export_events(index.events, index.info, export)
        err.print(f"wrote {len(index.events)} events to {export}", highlight=False,
                  soft_wrap=True)
    summary = index.summary()
    if as_json:
        sys.stdout.write(dumps(summary, indent=2) + "\n")
        return
    print_summary(summary)


@app.command("answer")
def answer_cmd(
    videos: Annotated[list[Path], typer.Argument(
        help="Video file(s) to ask about; several give one row each.", metavar="VIDEO")],
    question: Annotated[str, typer.Argument(help="The question, e.g. 'When does flicker occur?'")],
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A multiple-choice option (repeat; lettered A, B...)."),
    ] = None,
    brain: Annotated[str, typer.Option(help="Brain: local (no model) or openai.")] = "local",
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the answer as one JSON object.")
    ] = False,
    max_steps: Annotated[int, typer.Option(min=1, max=100, help="Brain turns at most.")] = 12,
    cache_dir: CacheOpt = None,
    model: Annotated[str | None, typer.Option(help="Model name (openai brain).")] = None,
    base_url: Annotated[str | None, typer.Option(help="Endpoint URL (openai brain).")] = None,
    timeout: Annotated[float | None, typer.Option(
        help="Seconds to wait for one model request (openai brain; default: $LVQ_TIMEOUT, "
             "else 60).")] = None,
    retries: Annotated[int | None, typer.Option(
        help="Retries of a failed model request: 429/5xx, dropped connection (openai brain; "
             "default: $LVQ_RETRIES, else 4).")] = None,
    thread: Annotated[str | None, typer.Option(
        help="Keep checkpoints under this id in the cache; the same command resumes a run "
             "that stopped half-way.")] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress bar and no step lines on stderr.")] = False,
    verbose: Annotated[int, typer.Option(
        "--verbose", "-v", count=True,
        help="Log retries and fallbacks on stderr; -vv: debug (else $LVQ_LOG_LEVEL).")] = 0,
) -> None:
    """Answer a picture-quality QUESTION about VIDEO with time spans and measured evidence
    (about each VIDEO, one row per video, when several are given). Each tool call is shown
    on stderr as it happens."""
    from agent.answer import render
    from agent.api import answer as answer_question
    from agent.library import is_library
    from agent.logs import ENV_LEVEL, setup_logging
    from agent.steps import StepPrinter

    opts = list(option or [])
    extra = {"model": model, "base_url": base_url, "timeout": timeout, "max_retries": retries} \
        if brain.strip().lower() != "local" else {}
    with reported():
        if verbose or os.environ.get(ENV_LEVEL):
            setup_logging(verbose)
        if thread is not None and is_library(videos):
            raise UsageError("--thread resumes one video's run: give one video")
    if is_library(videos):
        from agent.cli_library import answer_many

        return answer_many(videos, question, opts, as_json=as_json, quiet=quiet,
                           brain=brain, max_steps=max_steps, cache_dir=cache_dir,
                           brain_options=extra)
    video = videos[0]
    printer = None if quiet else StepPrinter(_step_line)
    try:
        with reported():
            ans = answer_question(
                video, question, opts, brain=brain, max_steps=max_steps, cache_dir=cache_dir,
                progress=not quiet, brain_options=extra, thread=thread, on_update=printer,
            )
    except typer.Exit as stop:
        if thread is not None and stop.exit_code in (EXIT_ENDPOINT, EXIT_INTERRUPTED):
            err.print(f"resume with the same command (--thread {thread})", highlight=False,
                      soft_wrap=True)
        raise
    if as_json:
        sys.stdout.write(ans.model_dump_json() + "\n")
        return
    out.print(render(ans, opts), highlight=False, soft_wrap=True)


app.add_typer(models_app, name="models")


@app.command("mcp")
def mcp_cmd(
    root: Annotated[list[Path], typer.Option("--root", help="A directory clients may read "
                                             "videos from (repeat for more).")],
    http: Annotated[str | None, typer.Option(help="Serve streamable HTTP at HOST:PORT "
                                             "(path /mcp) instead of stdio.")] = None,
    cache_dir: CacheOpt = None,
) -> None:
    """Serve the tools, `answer` and video indexes to MCP clients (stdio unless --http)."""
    from agent.mcp_server import serve

    with reported():
        serve(root, http, cache_dir)


app.add_typer(trace_app, name="trace")


@app.command("report")
def report_cmd(
    trace_id: TraceIdArg,
    output: Annotated[Path, typer.Option("--output", "-o", help="HTML file to write.")] = Path(
        "report.html"
    ),
    cache_dir: CacheOpt = None,
) -> None:
    """Write one run as a self-contained HTML page: question, answer, quality timeline,
    steps, zoomed frames and the index's events (opens offline in any browser)."""
    from agent.api import open_trace

    with reported():
        tr = open_trace(trace_id, cache_dir=cache_dir)
    with reported(writing=output):
        rep = tr.report(output)
    for note in rep.notes:
        err.print(f"[yellow]warning:[/] {note}", highlight=False, soft_wrap=True)
    out.print(f"wrote {rep.path}", highlight=False, soft_wrap=True)


def _step_line(line: str) -> None:
    """One live step line on stderr, flushed at once."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def print_summary(summary: dict) -> None:
    """Readable index summary: facts, scenes, events table."""
    v = summary["video"]
    src = "cache" if summary.get("cached") else f"measured in {summary.get('build_s', 0):.1f} s"
    out.print(f"[bold]{v['path']}[/]  ({src})", highlight=False)
    out.print(
        f"  {hms(v['duration_s'])}  {v['width']}x{v['height']}  {v['fps']:g} fps  "
        f"{v['n_frames']} frames  codec {v['codec']}{'  VFR' if v['vfr'] else ''}",
        highlight=False,
    )
    scenes = summary["scenes"]
    lengths = [s["end_s"] - s["start_s"] for s in scenes]
    if lengths:
        out.print(
            f"  {len(scenes)} scenes (shortest {min(lengths):.1f} s, longest {max(lengths):.1f} s)"
        )
    out.print(f"  retrieval: {summary.get('clip', {}).get('status', 'off')}", highlight=False)
    for w in summary.get("warnings", []):
        out.print(f"  [yellow]warning:[/] {w}", highlight=False)
    events = summary["events"]
    if not events:
        out.print("  no quality events above the reporting threshold")
        return
    table = Table(title=f"{len(events)} quality events", title_justify="left")
    for col in ("start", "end", "type", "severity", "score", "evidence"):
        table.add_column(col, justify="right" if col in ("severity", "score") else "left")
    for e in events:
        ev = ", ".join(f"{k}={_fmt(val)}" for k, val in list(e.get("evidence", {}).items())[:4])
        kind = e["type"] + (f" ({e['subtype']})" if e.get("subtype") else "")
        sev, score = f"{e['severity']:.2f}", f"{e['score']:.1f}"
        table.add_row(hms(e["start_s"]), hms(e["end_s"]), kind, sev, score, ev)
    out.print(table)


def _fmt(val: object) -> str:
    return f"{val:.3g}" if isinstance(val, float) else str(val)


def main() -> None:
    """Console-script entry point (a bare `--ray` means a local Ray)."""
    from tools.ray_pool import expand_ray_flag

    sys.argv[1:] = expand_ray_flag(sys.argv[1:])
    run_app(app, err)


if __name__ == "__main__":
    main()
