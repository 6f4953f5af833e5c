"""The `agent` command line: gathers options, calls the library, prints results.

Bad input ends with one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from agent.cli_models import models_app
from agent.timefmt import hms
from tools.errors import LvqError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="lvq-agent: answer picture-quality questions about long videos with measured evidence.",
)
out = Console()
err = Console(stderr=True)

CacheOpt = Annotated[
    Path | None,
    typer.Option(
        "--cache-dir",
        envvar="LVQ_CACHE_DIR",
        help="Index cache directory [default: $XDG_CACHE_HOME/lvq-agent or ~/.cache/lvq-agent].",
    ),
]


@app.callback()
def _root() -> None:
    """lvq-agent: answer picture-quality questions about long videos with measured evidence."""


def fail(message: str, code: int = 2) -> None:
    """Print one error line and exit non-zero."""
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@app.command("index")
def index_cmd(
    video: Annotated[Path, typer.Argument(help="Video file to measure.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    cache_dir: CacheOpt = None,
    rebuild: Annotated[bool, typer.Option(help="Measure again even if cached.")] = False,
    clip: Annotated[bool, typer.Option(help="Embed frames for CLIP search if possible.")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Build (or reuse) the quality index of VIDEO and summarise facts, scenes and events."""
    from tools.index import get_index

    try:
        index = get_index(
            video, cache_dir=cache_dir, progress=not quiet, rebuild=rebuild, clip=clip
        )
    except LvqError as exc:
        fail(str(exc))
    summary = index.summary()
    if as_json:
        sys.stdout.write(json.dumps(summary, indent=2) + "\n")
        return
    print_summary(summary)


@app.command("answer")
def answer_cmd(
    video: Annotated[Path, typer.Argument(help="Video file to ask about.")],
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
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Answer a picture-quality QUESTION about VIDEO with time spans and measured evidence."""
    from agent.answer import render
    from agent.run import answer_question

    opts = list(option or [])
    extra = {"model": model, "base_url": base_url} if brain.strip().lower() != "local" else {}
    try:
        ans = answer_question(
            video, question, opts, brain=brain, max_steps=max_steps, cache_dir=cache_dir,
            progress=not quiet, brain_options=extra,
        )
    except LvqError as exc:
        fail(str(exc))
    if as_json:
        sys.stdout.write(ans.model_dump_json() + "\n")
        return
    out.print(render(ans, opts), highlight=False, soft_wrap=True)


app.add_typer(models_app, name="models")
trace_app = typer.Typer(no_args_is_help=True, help="Inspect the traces of past answers.")
app.add_typer(trace_app, name="trace")


@trace_app.command("list")
def trace_list(
    cache_dir: CacheOpt = None,
    limit: Annotated[int, typer.Option(min=1, help="Newest N traces.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """List stored traces, newest first."""
    from agent.trace import list_traces

    rows = list_traces(cache_dir)[:limit]
    if as_json:
        sys.stdout.write(json.dumps(rows, indent=1) + "\n")
        return
    if not rows:
        out.print("no traces yet (run `agent answer VIDEO QUESTION`)")
        return
    table = Table(title=f"{len(rows)} traces", title_justify="left")
    for col in ("id", "created", "brain", "steps", "video", "question", "answer"):
        table.add_column(col, overflow="fold")
    for r in rows:
        ans = (f"{r['choice']}: " if r.get("choice") else "") + str(r.get("answer", ""))
        table.add_row(r["trace_id"], r["created"], r["brain"], str(r["steps"]), r["video"],
                      r["question"][:60], ans[:60])
    out.print(table)


@trace_app.command("show")
def trace_show(
    trace_id: Annotated[str, typer.Argument(help="Trace id, a unique prefix of it, or 'last'.")],
    cache_dir: CacheOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the stored trace JSON.")] = False,
) -> None:
    """Show one trace: the question, every step (tool, arguments, result, time), the answer."""
    from agent.trace import load_trace, step_rows

    try:
        tr = load_trace(trace_id, cache_dir)
    except LvqError as exc:
        fail(str(exc))
    if as_json:
        sys.stdout.write(json.dumps(tr, indent=1) + "\n")
        return
    out.print(f"[bold]trace {tr.get('trace_id')}[/]  {tr.get('created', '')}  brain "
              f"{tr.get('brain')}  video {tr.get('video')}", highlight=False)
    out.print(f"question: {tr.get('question')}", highlight=False)
    for i, o in enumerate(tr.get("options") or []):
        out.print(f"  {chr(65 + i)}. {o}", highlight=False)
    table = Table(show_lines=False)
    for col in ("#", "step", "arguments", "result", "ms", "tokens"):
        table.add_column(col, overflow="fold", justify="right" if col in ("ms", "#") else "left")
    for r in step_rows(tr):
        table.add_row(r["n"], r["what"], r["args"], r["result"], r["ms"], r["tokens"])
    out.print(table)
    ans = tr.get("answer") or {}
    if "error" in ans:
        out.print(f"[red]run failed:[/] {ans['error']}", highlight=False)
        return
    choice = f" (choice {ans['choice']})" if ans.get("choice") else ""
    out.print(f"[bold]answer{choice}:[/] {ans.get('answer', '')}", highlight=False)
    for seg in ans.get("segments", []):
        out.print(f"  {hms(seg['start_s'])} - {hms(seg['end_s'])}  {seg.get('label', '')}  "
                  f"severity {seg.get('severity', 0):.2f}", highlight=False)
    tok = tr.get("tokens")
    out.print(f"steps {ans.get('steps')}  elapsed {tr.get('elapsed_s', 0):.2f} s"
              + (f"  tokens {tok.get('total_tokens')}" if tok else ""), highlight=False)


@trace_app.command("plot")
def trace_plot(
    trace_id: Annotated[str, typer.Argument(help="Trace id, a unique prefix of it, or 'last'.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="PNG file to write.")] = Path(
        "trace.png"
    ),
    cache_dir: CacheOpt = None,
) -> None:
    """Draw the video's quality timeline with the windows the agent inspected, in order."""
    from agent.plot import plot_trace
    from agent.trace import load_trace

    try:
        tr = load_trace(trace_id, cache_dir)
        path = plot_trace(tr, output, cache_dir=cache_dir)
    except LvqError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {output}: {exc}")
    out.print(f"wrote {path}", highlight=False)


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
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
