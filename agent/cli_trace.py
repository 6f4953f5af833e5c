"""`agent trace list|show|plot`: the traces of past answers, as tables, text or a plot."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from agent.cli_common import CacheOpt, TraceIdArg, out, reported
from agent.timefmt import hms
from tools.jsonsafe import dumps

trace_app = typer.Typer(no_args_is_help=True, help="Inspect the traces of past answers.")


@trace_app.command("list")
def trace_list(
    cache_dir: CacheOpt = None,
    limit: Annotated[int, typer.Option(min=1, help="Newest N traces.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """List stored traces, newest first."""
    from agent.trace import list_traces

    with reported():
        rows = list_traces(cache_dir)[:limit]
    if as_json:
        sys.stdout.write(dumps(rows, indent=1) + "\n")
        return
    if not rows:
        out.print("no traces yet (run `agent answer VIDEO QUESTION`)")
        return
    if out.is_terminal and out.width >= TABLE_MIN_WIDTH:
        out.print(_trace_table(rows))
        return
    # A pipe or a narrow terminal: plain lines, so no id or file name is ever cut.
    for r in rows:
        head = f"{r['trace_id']}  "
        if r.get("unreadable"):
            sys.stdout.write(f"{head}(unreadable: {r['unreadable']})\n")
            continue
        sys.stdout.write(f"{head}{r['created']}  {r['brain']}  {r['steps']} steps  "
                         f"{r['video']}\n    Q: {r['question']}\n    A: {_answer_text(r)}\n")


TABLE_MIN_WIDTH = 100  # below this a 7-column table squeezes every column but the id away


def _answer_text(row: dict) -> str:
    return (f"{row['choice']}: " if row.get("choice") else "") + str(row.get("answer", ""))


def _trace_table(rows: list[dict]) -> Table:
    """The trace list as a table: the id never wraps or shrinks, other columns fold."""
    table = Table(title=f"{len(rows)} traces", title_justify="left")
    width = max(len(r["trace_id"]) for r in rows)
    table.add_column("id", no_wrap=True, min_width=width)
    for col in ("created", "brain", "steps", "video", "question", "answer"):
        table.add_column(col, overflow="fold")
    for r in rows:
        if r.get("unreadable"):
            table.add_row(r["trace_id"], "", "", "", "", f"(unreadable: {r['unreadable']})", "")
            continue
        table.add_row(r["trace_id"], r["created"], r["brain"], str(r["steps"]), r["video"],
                      r["question"][:60], _answer_text(r)[:60])
    return table


@trace_app.command("show")
def trace_show(
    trace_id: TraceIdArg,
    cache_dir: CacheOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the stored trace JSON.")] = False,
) -> None:
    """Show one trace: the question, every step (tool, arguments, result, time), the answer."""
    from agent.api import open_trace
    from agent.trace import step_rows

    with reported():
        tr = open_trace(trace_id, cache_dir=cache_dir).data
    if as_json:
        sys.stdout.write(dumps(tr, indent=1) + "\n")
        return
    out.print(f"[bold]trace {tr.get('trace_id')}[/]  {tr.get('created', '')}  brain "
              f"{tr.get('brain')}  video {tr.get('video')}", highlight=False, soft_wrap=True)
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
    trace_id: TraceIdArg,
    output: Annotated[Path, typer.Option("--output", "-o", help="PNG file to write.")] = Path(
        "trace.png"
    ),
    cache_dir: CacheOpt = None,
) -> None:
    """Draw the video's quality timeline with the windows the agent inspected, in order."""
    from agent.plot import plot_trace
    from agent.trace import load_trace

    with reported():
        tr = load_trace(trace_id, cache_dir)
    with reported(writing=output):
        path = plot_trace(tr, output, cache_dir=cache_dir)
    out.print(f"wrote {path}", highlight=False, soft_wrap=True)
