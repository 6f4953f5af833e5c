"""`bench report`, `bench compare` and `bench import`: read results and benchmark files."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from bench.cli_common import _csv, _guard, err, fail, out
from tools.errors import EXIT_INPUT


def report_cmd(
    results: Annotated[Path, typer.Argument(help="Results JSONL of one run.")],
    png: Annotated[Path | None, typer.Option(help="Also draw the per-level/dimension chart.")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Summarise a results file: table-4 layout, per level, IoU, open scores, cost."""
    from bench.compare import chart, levels_table, load_run, run_label, table4

    s = _guard(load_run, results)
    if as_json:
        sys.stdout.write(json.dumps(s, indent=1, default=str) + "\n")
        return
    name = run_label(s)
    out.print(table4([(name, s)]))
    out.print(levels_table([(name, s)]))
    if png:
        out.print(f"chart {chart([(name, s)], png)}", highlight=False)


def compare_cmd(
    a: Annotated[Path, typer.Argument(help="Results JSONL (A, e.g. uniform).")],
    b: Annotated[Path, typer.Argument(help="Results JSONL (B, e.g. agent).")],
    png: Annotated[Path | None, typer.Option(
        help="Bar chart PNG [default: compare.png next to B].")] = None,
    names: Annotated[str | None, typer.Option(help="Two labels: 'uniform,agent'.")] = None,
    common_items: Annotated[bool, typer.Option(
        help="When the runs' item ids differ, compare the items both hold (else refused).")]
    = False,
) -> None:
    """Two runs side by side per dimension and level, with a bar chart PNG (runs over the same
    items only; differing settings are warned about)."""
    from bench.compare import (
        chart,
        compare,
        levels_table,
        run_label,
        settings_warnings,
        side_by_side,
        table4,
    )

    sa, sb, n = _guard(compare, a, b, common_only=common_items)
    for line in settings_warnings(a, b):
        err.print(f"[yellow]warning:[/] {line}", highlight=False, soft_wrap=True)
    labels = _csv(names) or []
    if labels and len(labels) != 2:
        fail("--names needs two comma-separated labels")
    na = labels[0] if labels else run_label(sa)
    nb = labels[1] if labels else run_label(sb)
    if na == nb:
        na, nb = f"A: {na}", f"B: {nb}"
    out.print(table4([(na, sa), (nb, sb)]))
    out.print(levels_table([(na, sa), (nb, sb)]))
    out.print(side_by_side(sa, sb, na, nb))
    path = _guard(chart, [(na, sa), (nb, sb)], png or b.parent / "compare.png")
    out.print(f"chart {path} ({n} items)", highlight=False)


def import_cmd(
    file: Annotated[Path, typer.Argument(help="Benchmark file (JSON, JSONL, TSV, Parquet).")],
    fmt: Annotated[str | None, typer.Option(
        "--format", help="items, qbench_video, videomme, mmbench_video, longvqubench "
                         "[default: detected].")] = None,
    out_path: Annotated[Path | None, typer.Option(
        "--out", help="Item JSONL [default: <file>.items.jsonl].")] = None,
    split: Annotated[str | None, typer.Option(help="Split name [default: from file name].")]
    = None,
    strict: Annotated[bool, typer.Option(
        help="Stop at the first bad record and write nothing (default: skip and count).")]
    = False,
    video_dir: Annotated[Path | None, typer.Option(
        help="Check every item's video is in this folder (a missing one is a bad record).")]
    = None,
    subtitles: Annotated[str, typer.Option(
        help="Video-MME: without, with or both subtitle settings.")] = "without",
    subtitle_dir: Annotated[Path | None, typer.Option(
        help="Video-MME subtitle files [default: subtitle/ beside FILE].")] = None,
) -> None:
    """Convert a public benchmark file to the item format (bad records reported and skipped,
    or with --strict the first one stops the import)."""
    from bench.importers import ImportOptions, import_file
    from bench.items import write_items

    if not file.exists():
        fail(f"no such file: {file}", EXIT_INPUT)
    opts = ImportOptions(strict=strict, video_dir=str(video_dir) if video_dir else None,
                         subtitles=subtitles.strip().lower(),
                         subtitle_dir=str(subtitle_dir) if subtitle_dir else None)
    items, errors = _guard(import_file, file, fmt, split=split, options=opts)
    for e in errors[:20]:
        err.print(f"skipped {e}", highlight=False, soft_wrap=True)
    if len(errors) > 20:
        err.print(f"... and {len(errors) - 20} more skipped records", highlight=False)
    if not items:
        fail(f"no valid items in {file}", EXIT_INPUT)
    target = out_path or file.with_name(file.stem + ".items.jsonl")
    n = _guard(write_items, target, items)
    out.print(f"{n} items -> {target} ({len(errors)} bad records skipped)", highlight=False)
