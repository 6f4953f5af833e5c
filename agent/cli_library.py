"""The library forms of `agent index` and `agent answer`: several videos, one row each.

Status lines and errors go to stderr; the table (or CSV on a pipe, or JSON) to stdout. A
video that fails is reported and counted, the others go on, and the run then exits with
the input-error code.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from agent.cli import TABLE_MIN_WIDTH, err, out, reported
from agent.library import (
    Outcome,
    Row,
    SummarySaver,
    answer_row,
    csv_text,
    find_videos,
    index_row,
    run_each,
    status_line,
)
from agent.timefmt import hms
from tools.errors import EXIT_INPUT, EXIT_INTERRUPTED, UsageError
from tools.jsonsafe import dumps


def _warn(message: str) -> None:
    err.print(f"[yellow]warning:[/] {message}", highlight=False, soft_wrap=True)


def _finish(failed: int, total: int) -> None:
    """Exit with the input-error code when any video failed."""
    if failed:
        err.print(f"[bold red]error:[/] {failed} of {total} videos failed", highlight=False)
        raise typer.Exit(EXIT_INPUT)


def _failed(error: str) -> Text:
    return Text.assemble(("failed: ", "red"), error)


def _as_table() -> bool:
    return out.is_terminal and out.width >= TABLE_MIN_WIDTH


def index_many(args: Sequence[Path], summary_to: Path | None, *, as_json: bool,
               cache_dir: Path | None, rebuild: bool, clip: bool, quiet: bool,
               export: Path | None, ray: str | None = None,
               ray_cpus: int | None = None) -> None:
    """Index every video the arguments name and print or write the summary table; on Ctrl-C
    or SIGTERM keep the rows of the videos that finished, say so, and exit 130."""
    from tools.interrupt import terminate_as_interrupt

    with reported():
        if export is not None:
            raise UsageError("--export takes one video; use --summary for several")
        if ray_cpus is not None and ray is None:
            raise UsageError("--ray-cpus needs --ray")
        videos = find_videos(args, warn=_warn)
        saver = SummarySaver(summary_to, videos)
        interrupted = False
        try:
            with terminate_as_interrupt():
                for row in _rows(videos, cache_dir=cache_dir, rebuild=rebuild, clip=clip,
                                 quiet=quiet, ray=ray, ray_cpus=ray_cpus):
                    saver.add(row)
        except KeyboardInterrupt:
            interrupted = True
    rows = saver.sorted_rows()
    if summary_to is not None:
        with reported(writing=summary_to):
            paths = saver.save()
        if not interrupted:
            err.print(f"wrote {len(rows)} rows to {paths[0]} and {paths[1]}", highlight=False,
                      soft_wrap=True)
    elif as_json:
        sys.stdout.write(dumps([r.to_dict() for r in rows], indent=1) + "\n")
    elif _as_table():
        out.print(_index_table(rows))
    else:  # a pipe or a narrow terminal: CSV, so no file name is ever cut
        sys.stdout.write(csv_text([r.to_csv() for r in rows]))
    if interrupted:
        where = f" to {paths[0]} and {paths[1]}" if summary_to is not None else ""
        err.print(f"interrupted: {len(rows)} of {len(videos)} videos done, their rows "
                  f"written{where}; run the same command again to resume (indexed videos "
                  "come from the cache)", highlight=False, soft_wrap=True)
        raise typer.Exit(EXIT_INTERRUPTED)
    _finish(sum(r.status == "failed" for r in rows), len(rows))


def _rows(videos: Sequence[Path], *, cache_dir: Path | None, rebuild: bool, clip: bool,
          quiet: bool, ray: str | None, ray_cpus: int | None) -> Iterator[Row]:
    """Each video's summary row as it finishes: in turn here, or as Ray tasks."""
    if ray is not None:
        from agent.library_ray import rows_on_ray

        yield from rows_on_ray(videos, address=ray, num_cpus=ray_cpus, cache_dir=cache_dir,
                               rebuild=rebuild, clip=clip, progress=not quiet,
                               report=status_line)
        return
    from tools.index import get_index

    def work(video: Path) -> Any:
        return get_index(video, cache_dir=cache_dir, progress=not quiet, rebuild=rebuild,
                         clip=clip)

    def report(o: Outcome[Any]) -> str:
        return status_line(index_row(o))

    for outcome in run_each(videos, work, not quiet, report):
        yield index_row(outcome)


def _index_table(rows: Sequence[Row]) -> Table:
    """The library summary as a table."""
    table = Table(title=f"{len(rows)} videos", title_justify="left")
    for col in ("video", "duration", "events", "worst", "status"):
        table.add_column(col, overflow="fold", justify="right" if col == "worst" else "left")
    for r in rows:
        events = ", ".join(f"{k} {n}" for k, n in r.events_by_type.items()) or "none"
        worst = "" if r.worst_severity is None else f"{r.worst_severity:.2f} {r.worst_type}"
        status = Text(r.status) if r.status != "failed" else _failed(r.error)
        table.add_row(Text(r.video), "" if r.duration_s is None else hms(r.duration_s),
                      events if r.status != "failed" else "", worst, status)
    return table


def answer_many(args: Sequence[Path], question: str, options: list[str], *, as_json: bool,
                quiet: bool, brain: str, max_steps: int, cache_dir: Path | None,
                brain_options: dict[str, Any]) -> None:
    """Ask one question about each video the arguments name and print one row per video."""
    from agent import run as agent_run

    with reported():
        if not question.strip():
            raise UsageError("the question is empty: ask something, "
                             "e.g. 'When does flicker occur?'")
        videos = find_videos(args, warn=_warn)

        def work(video: Path) -> Any:
            return agent_run.answer_question(
                video, question, options, brain=brain, max_steps=max_steps,
                cache_dir=cache_dir, progress=not quiet, brain_options=brain_options)

        def report(o: Outcome[Any]) -> str:
            return f"failed  {o.video}: {o.message}" if o.error else f"answered  {o.video}"

        outcomes = list(run_each(videos, work, not quiet, report))
    rows = [answer_row(o) for o in outcomes]
    if as_json:
        items = [{"video": str(o.video), **o.value.model_dump()} if o.error is None
                 else {"video": str(o.video), "error": o.message} for o in outcomes]
        sys.stdout.write(dumps(items, indent=1) + "\n")
    elif _as_table():
        table = Table(title=question, title_justify="left")
        for col in ("video", "answer", "times"):
            table.add_column(col, overflow="fold")
        for r in rows:
            table.add_row(Text(r["video"]), Text(r["answer"]) if not r["error"]
                          else _failed(r["error"]), r["times"])
        out.print(table, highlight=False)
    else:  # a pipe or a narrow terminal: CSV
        sys.stdout.write(csv_text(rows, ("video", "answer", "times", "error")))
    _finish(sum(o.error is not None for o in outcomes), len(outcomes))
